// Database faults the server must survive: PostgreSQL connections ended under it — idle or
// mid-ingest — never crash the process, every report a tracker got a 200 for is stored, and
// ingest and the API go on once connections are back. A database away for a while (a relay in
// front of PostgreSQL switched off; SQLite locked) holds reports within the ingest buffer and
// refuses the excess with 503; the API answers 503; shutdown does not wait for it forever.
// On SQLite, a writer thread killed mid-ingest loses no acknowledged report.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Device } from '@rastro/domain/entities';
import { backends, redisUrl, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { LiveSocket, idsOf, isKey, livePosition, type Received } from './socket-client.ts';
import { insertDevice } from './socket-fixtures.ts';

import { createDevice, osmand, positionsOf, sleep, type CreatedDevice } from './ingest-helpers.ts';
import { applicationName, TcpRelay, terminateConnections } from './db-faults-helpers.ts';
import { startOsmandServer } from '../src/ingest/osmand/osmand-server.ts';
import { Pipeline } from '../src/processing/pipeline.ts';
import { PositionWriter } from '../src/processing/position-writer.ts';
import { SqliteWriteStore } from '../src/processing/sqlite-write-store.ts';
import { defaultSteps } from '../src/processing/steps/index.ts';

const pgUrl = process.env.TEST_DATABASE_URL?.trim() || null;

describe.runIf(backends.includes('postgres'))('PostgreSQL connections ended under the server', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('postgres');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('connections ended while idle are replaced: API requests after it succeed', async () => {
    const admin = await server.admin();
    // Several requests at once leave several idle connections in the pool.
    const warm = await Promise.all(Array.from({ length: 6 }, () => admin.get('/api/devices')));
    expect(warm.map((r) => r.status)).toEqual(warm.map(() => 200));
    await sleep(50);
    const warnings = vi.spyOn(server.rastro.ctx.log, 'warn');
    expect(await terminateConnections(pgUrl!, applicationName(server))).toBeGreaterThan(0);
    await sleep(100);
    // Heard and logged (once for the lot), not an unhandled 'error' event ending the process.
    expect(warnings.mock.calls.filter(([, text]) => text === 'PostgreSQL connection lost; the pool replaces it')).toHaveLength(1);
    warnings.mockRestore();

    expect((await admin.get('/api/health')).status).toBe(200);
    const created = await admin.post<Device>('/api/devices', { name: 'After idle drop', uniqueId: 'idle-drop-1' });
    expect(created.status).toBe(200);
    const list = await Promise.all(Array.from({ length: 6 }, () => admin.get<Device[]>('/api/devices')));
    expect(list.map((r) => r.status)).toEqual(list.map(() => 200));
    expect(list[0]!.json.map((d) => d.uniqueId)).toContain('idle-drop-1');
  });

  it('connections ended several times mid-ingest: the process lives, every acknowledged report is stored, ingest goes on', async () => {
    const devices: CreatedDevice[] = [];
    for (let i = 0; i < 24; i++) devices.push(await createDevice(server, `drop-ingest-${i}`));
    // A first report per device: the device and its latest position are cached before the drops.
    for (const d of devices) expect((await osmand(server, `/?id=${d.uniqueId}&lat=1&lon=1&timestamp=1700000000&seq=0`)).status).toBe(200);

    const answers = new Map<number, Array<{ seq: number; status: number }>>(devices.map((d) => [d.id, []]));
    let stop = false;
    // Each device sends like a tracker does: one report at a time, the next after the answer.
    const senders = devices.map(async (d) => {
      for (let seq = 1; !stop && seq < 10_000; seq++) {
        const res = await osmand(server, `/?id=${d.uniqueId}&lat=1&lon=${1 + seq / 10_000}&timestamp=${1_700_000_000 + seq}&seq=${seq}`);
        answers.get(d.id)!.push({ seq, status: res.status });
      }
    });
    let ended = 0;
    for (let round = 0; round < 6; round++) {
      await sleep(120);
      ended += await terminateConnections(pgUrl!, applicationName(server), { busy: true });
    }
    await sleep(300);
    stop = true;
    await Promise.all(senders);
    expect(ended).toBeGreaterThan(0);

    for (const d of devices) {
      const sent = answers.get(d.id)!;
      // A dropped connection is a transient fault: the writer retries, so no report was refused.
      expect(sent.filter((a) => a.status !== 200)).toEqual([]);
      const stored = new Set((await positionsOf(server, d.id)).map((r) => (JSON.parse(r.attributes) as { seq: number }).seq));
      expect(sent.filter((a) => a.status === 200 && !stored.has(a.seq))).toEqual([]);
      // Ingest goes on after the drops.
      expect((await osmand(server, `/?id=${d.uniqueId}&lat=2&lon=2&timestamp=1800000000&seq=99999`)).status).toBe(200);
    }
    // At least one cut landed inside a flush, and the writer retried it instead of failing its devices.
    expect(server.rastro.ctx.processing!.writer.stats.retries).toBeGreaterThan(0);
  });
});

/** One OsmAnd report through fetch (the answer's headers matter here). */
async function report(server: { osmandUrl: string }, uniqueId: string, seq: number) {
  const res = await fetch(`${server.osmandUrl}/?id=${uniqueId}&lat=1&lon=${1 + seq / 10_000}&timestamp=${1_700_000_000 + seq}&seq=${seq}`);
  return { status: res.status, retryAfter: res.headers.get('retry-after'), text: await res.text() };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(5);
  }
}

async function storedSeqs(server: TestServer, deviceId: number): Promise<number[]> {
  return (await positionsOf(server, deviceId)).map((r) => (JSON.parse(r.attributes) as { seq: number }).seq);
}

describe.runIf(backends.includes('postgres'))('PostgreSQL away and back (a restart)', () => {
  let relay: TcpRelay;
  let server: TestServer;
  let admin: TestClient;
  const devices: CreatedDevice[] = [];

  beforeAll(async () => {
    relay = await TcpRelay.start(pgUrl!, 5432);
    server = await startTestServer('postgres', { DATABASE_URL: relay.urlThrough(pgUrl!), RASTRO_INGEST_BUFFER: '20' });
    admin = await server.admin();
    for (let i = 0; i < 30; i++) devices.push(await createDevice(server, `restart-${i}`));
    // Each device known and with its latest position loaded before the outage.
    for (const d of devices) expect((await report(server, d.uniqueId, 0)).status).toBe(200);
  });
  afterAll(async () => {
    await relay?.up();
    await server?.close();
    await relay?.close();
  });

  it('while it is away, reports wait and the excess is refused with 503 + Retry-After; the API and health answer 503; all resumes after', async () => {
    const writer = server.rastro.ctx.processing!.writer;
    await relay.down();
    const sent = devices.map((d) => ({ device: d, answer: report(server, d.uniqueId, 1) }));
    // 20 reports fit in the buffer and wait for the database; the other 10 are refused at once.
    const early = await Promise.all(sent.slice(20).map((s) => s.answer));
    expect(early.map((a) => [a.status, a.retryAfter])).toEqual(early.map(() => [503, '5']));
    expect(early[0]!.text).toMatch(/^Server busy - 20 positions are waiting for the database/);
    expect(writer.buffered).toBe(20);

    // The API says "try again" instead of a 500 with a stack, and so does the health check.
    const api = await admin.get('/api/devices');
    expect([api.status, api.text, api.headers.get('retry-after')]).toEqual([503, 'Database unavailable - try again shortly', '5']);
    expect((await server.client().get('/api/health')).status).toBe(503);
    // A report from a device the server must look up answers 503 too, not 500.
    expect((await report(server, 'never-seen-before', 1)).status).toBe(503);

    await sleep(1_500); // several retries, growing apart
    expect(writer.waitingForDatabase).toBe(true);
    expect(writer.stats.retries).toBeGreaterThanOrEqual(2);
    await relay.up();

    const waited = await Promise.all(sent.slice(0, 20).map((s) => s.answer));
    expect(waited.map((a) => a.status)).toEqual(waited.map(() => 200));
    for (const [i, d] of devices.entries()) {
      // Acknowledged reports are stored; refused ones are not (the device sends them again).
      expect(await storedSeqs(server, d.id)).toEqual(i < 20 ? [0, 1] : [0]);
    }
    expect(writer.waitingForDatabase).toBe(false);
    expect((await server.client().get('/api/health')).status).toBe(200);
    expect((await admin.get('/api/devices')).status).toBe(200);
    for (const d of devices.slice(20)) expect((await report(server, d.uniqueId, 2)).status).toBe(200);
  });

  it('shutdown while it is away waits a bounded time, answers the waiting devices without an acknowledgement, and says how many positions were not stored', async () => {
    const writer = server.rastro.ctx.processing!.writer;
    const errors = vi.spyOn(server.rastro.ctx.log, 'error');
    await relay.down();
    const waiting = devices.slice(0, 5).map((d) => report(server, d.uniqueId, 3));
    await until(() => writer.buffered === 5);
    const started = Date.now();
    await writer.drain(500);
    expect(Date.now() - started).toBeLessThan(3_000);
    const answers = await Promise.all(waiting);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 503));
    expect(errors.mock.calls.some(([, text]) => text === 'position writer stopped waiting for the database: 5 positions were not stored')).toBe(true);
    // The rest of the shutdown does not hang on the missing database either.
    const closing = Date.now();
    await server.rastro.close();
    expect(Date.now() - closing).toBeLessThan(8_000);
    await relay.up();
    const direct = new pg.Client({ connectionString: pgUrl! });
    await direct.connect();
    try {
      const { rows } = await direct.query<{ n: string }>(
        `select count(*) as n from "${server.pgSchema}".positions where "deviceId" = any($1) and attributes like '%"seq":3%'`,
        [devices.slice(0, 5).map((d) => d.id)],
      );
      expect(Number(rows[0]!.n)).toBe(0);
    } finally {
      await direct.end();
    }
  });
});

describe('SQLite faults under ingest', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the database locked past busy_timeout: reports wait, the excess over the buffer gets 503 + Retry-After, the waiting ones are stored once it frees', async () => {
    const ctx = server.rastro.ctx;
    const devices: CreatedDevice[] = [];
    for (let i = 0; i < 5; i++) devices.push(await createDevice(server, `locked-${i}`));
    const store = new SqliteWriteStore(path.join(server.dataDir, 'rastro.db'), ctx.log, { busyTimeoutMs: 50 });
    await store.start();
    const writer = new PositionWriter(ctx, { retryMinMs: 20, retryMaxMs: 100, bufferLimit: 3, store });
    const pipeline = new Pipeline(ctx, ctx.processing!.devices, writer, defaultSteps());
    const listener = await startOsmandServer(ctx, pipeline, { host: '127.0.0.1', port: 0 });
    const target = { osmandUrl: `http://127.0.0.1:${listener.port}` };
    const blocker = new SQLite(path.join(server.dataDir, 'rastro.db'));
    try {
      for (const d of devices) expect((await report(target, d.uniqueId, 0)).status).toBe(200);
      // Another connection holds SQLite's write lock: every flush ends in SQLITE_BUSY.
      blocker.exec('BEGIN IMMEDIATE');
      const sent = devices.map((d) => report(target, d.uniqueId, 1));
      const refused = await Promise.all(sent.slice(3));
      expect(refused.map((a) => [a.status, a.retryAfter])).toEqual([[503, '5'], [503, '5']]);
      await sleep(300);
      expect(writer.stats.retries).toBeGreaterThan(0);
      expect(writer.buffered).toBe(3);
      blocker.exec('ROLLBACK');
      blocker.close();
      const waited = await Promise.all(sent.slice(0, 3));
      expect(waited.map((a) => a.status)).toEqual([200, 200, 200]);
      for (const [i, d] of devices.entries()) expect(await storedSeqs(server, d.id)).toEqual(i < 3 ? [0, 1] : [0]);
    } finally {
      if (blocker.open) {
        if (blocker.inTransaction) blocker.exec('ROLLBACK');
        blocker.close();
      }
      await listener.close();
      await writer.drain();
      await store.close();
    }
  });

  it('the writer thread killed several times mid-ingest: every acknowledged report is stored, the others were answered with an error, ingest goes on', async () => {
    const store = server.rastro.ctx.processing!.store as SqliteWriteStore;
    const devices: CreatedDevice[] = [];
    for (let i = 0; i < 12; i++) devices.push(await createDevice(server, `thread-kill-${i}`));
    for (const d of devices) expect((await report(server, d.uniqueId, 0)).status).toBe(200);
    const threadsBefore = store.stats.threads;
    const answers = new Map<number, Array<{ seq: number; status: number }>>(devices.map((d) => [d.id, []]));
    let stop = false;
    const senders = devices.map(async (d) => {
      for (let seq = 1; !stop && seq < 10_000; seq++) answers.get(d.id)!.push({ seq, status: (await report(server, d.uniqueId, seq)).status });
    });
    for (let round = 0; round < 4; round++) {
      await sleep(100);
      // Kill it while it holds a flush, so the cut lands mid-transaction.
      const until = Date.now() + 3000;
      while (store.inFlight === 0 && Date.now() < until) await sleep(1);
      await store.thread?.terminate();
    }
    await sleep(200);
    stop = true;
    await Promise.all(senders);

    expect(store.stats.threads).toBeGreaterThanOrEqual(threadsBefore + 4);
    const all = [...answers.values()].flat();
    expect(all.filter((a) => a.status !== 200 && a.status !== 500)).toEqual([]);
    expect(all.some((a) => a.status === 500)).toBe(true);
    for (const d of devices) {
      const stored = new Set(await storedSeqs(server, d.id));
      expect(answers.get(d.id)!.filter((a) => a.status === 200 && !stored.has(a.seq))).toEqual([]);
      expect((await report(server, d.uniqueId, 99_999)).status).toBe(200);
    }
  });
});

describe.runIf(redisUrl !== null && backends.includes('postgres'))('Redis of the realtime bus away and back', () => {
  let relay: TcpRelay;
  let a: TestServer;
  let b: TestServer;
  const sockets: LiveSocket[] = [];

  beforeAll(async () => {
    relay = await TcpRelay.start(redisUrl!, 6379);
    // Instance A reaches Redis through the relay, B directly.
    a = await startTestServer('postgres', { REDIS_URL: relay.urlThrough(redisUrl!) });
    b = await startTestServer('postgres', { REDIS_URL: redisUrl! }, { shareDatabaseWith: a });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await relay?.up();
    await b?.close();
    await a?.close();
    await relay?.close();
  });

  it('connections reset and refused: the process lives, publishing meanwhile fails quietly, and live batches flow both ways once Redis is back', async () => {
    const d = await insertDevice(a.rastro.ctx.storage.db, `bus-cut-${process.pid}`);
    const open = async (server: TestServer) => {
      const s = await LiveSocket.open(server.url, { cookie: (await server.admin()).cookie });
      sockets.push(s);
      await s.next(isKey('positions'));
      return s;
    };
    const onA = await open(a);
    const onB = await open(b);
    const carries = (id: number) => (m: Received) => isKey('positions')(m) && idsOf(m, 'positions', 'id').includes(id);
    /** Publishes on `from` until `to` hears it (a reconnected subscriber subscribes again first). */
    const relayed = async (from: TestServer, to: LiveSocket) => {
      const p = livePosition(d);
      for (let i = 0; i < 200 && !to.received.some(carries(p.id)); i++) {
        from.rastro.ctx.live.publish({ positions: [p] });
        await sleep(50);
      }
      await to.next(carries(p.id));
    };
    await relayed(a, onB);

    await relay.down();
    // Redis away for a while: A keeps serving and publishing locally (its own sockets still hear it).
    const during = livePosition(d);
    a.rastro.ctx.live.publish({ positions: [during] });
    await onA.next(carries(during.id));
    await sleep(1_500);
    expect((await (await a.admin()).get('/api/devices')).status).toBe(200);

    await relay.up();
    await relayed(a, onB);
    await relayed(b, onA);
  });
});
