// The SQLite writer thread (processing/sqlite-write-store.ts): positions it commits are
// visible to REST reads as soon as the device has its 200; REST writes on the main connection
// interleave with its flushes; a transaction refused for a lock is retried until it goes
// through; a dead thread answers the devices with 5xx and is logged, and the server goes on (a
// new thread takes over); shutdown writes everything queued before the thread stops.
import SQLite from 'better-sqlite3';
import path from 'node:path';
import type { Device, Position } from '@rastro/domain/entities';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { emptyFix, type DecodedMessage } from '../src/ingest/decoded.ts';
import { Pipeline } from '../src/processing/pipeline.ts';
import { PositionWriter } from '../src/processing/position-writer.ts';
import { SqliteWriteStore } from '../src/processing/sqlite-write-store.ts';
import { defaultSteps } from '../src/processing/steps/index.ts';
import { startTestServer, type TestClient, type TestServer } from './harness.ts';
import { countPositions, createDevice, deviceRow, osmand, positionsOf, sleep } from './ingest-helpers.ts';

function message(uniqueId: string, seq: number): DecodedMessage {
  return { uniqueId, fix: { ...emptyFix('test', 1_700_000_000_000 + seq * 1000), latitude: 1, longitude: 2, attributes: { seq } } };
}

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await sleep(2);
  }
}

describe('SQLite writer thread', () => {
  let server: TestServer;
  let admin: TestClient;
  let store: SqliteWriteStore;

  beforeAll(async () => {
    server = await startTestServer('sqlite');
    admin = await server.admin();
    const s = server.rastro.ctx.processing!.store;
    if (!(s instanceof SqliteWriteStore)) throw new Error('the SQLite server should write through its writer thread');
    store = s;
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await server?.close();
  });

  /** A connection of the test's own holding SQLite's write lock until `release`. */
  function holdWriteLock() {
    const blocker = new SQLite(path.join(server.dataDir, 'rastro.db'));
    blocker.pragma('busy_timeout = 5000');
    blocker.exec('BEGIN IMMEDIATE');
    return {
      release() {
        blocker.exec('ROLLBACK');
        blocker.close();
      },
    };
  }

  it('a position is in REST answers as soon as its device has the 200', async () => {
    const device = await createDevice(server, 'thread-read-1');
    for (let seq = 1; seq <= 25; seq++) {
      expect((await osmand(server, `/?id=thread-read-1&lat=1&lon=${seq / 100}&timestamp=${1_700_000_000 + seq}&seq=${seq}`)).status).toBe(200);
      const latest = await admin.get<Position[]>(`/api/positions?deviceId=${device.id}`);
      expect(latest.json.map((p) => p.attributes.seq)).toEqual([seq]);
      const row = await admin.get<Device>(`/api/devices/${device.id}`);
      expect(row.json).toMatchObject({ status: 'online', positionId: latest.json[0]!.id });
    }
    expect((await positionsOf(server, device.id)).length).toBe(25);
    expect(store.stats.threads).toBe(1);
  });

  it('REST writes on the main connection interleave with the thread’s flushes', async () => {
    const devices = [];
    for (let i = 0; i < 10; i++) devices.push(await createDevice(server, `thread-mix-${i}`));
    // Every device has a latest position before its odometer can be set.
    for (const d of devices) expect((await osmand(server, `/?id=${d.uniqueId}&lat=1&lon=1&timestamp=1700000000`)).status).toBe(200);
    const before = await countPositions(server);
    const sends = devices.flatMap((d) =>
      Array.from({ length: 20 }, (_, k) => osmand(server, `/?id=${d.uniqueId}&lat=1&lon=${1 + k / 1000}&timestamp=${1_700_000_001 + k}`)));
    const puts = devices.slice(0, 5).map((d, i) => admin.put(`/api/devices/${d.id}/accumulators`, { deviceId: d.id, totalDistance: 1000 * (i + 1) }));
    const renames = devices.slice(5).map((d) => admin.put(`/api/devices/${d.id}`, { id: d.id, name: `Renamed ${d.uniqueId}`, uniqueId: d.uniqueId }));
    expect((await Promise.all(sends)).map((r) => r.status)).toEqual(sends.map(() => 200));
    expect((await Promise.all(puts)).map((r) => r.status)).toEqual(puts.map(() => 204));
    expect((await Promise.all(renames)).map((r) => r.status)).toEqual(renames.map(() => 200));
    // 200 device positions and 5 accumulator copies.
    expect(await countPositions(server)).toBe(before + 205);
    for (const d of devices.slice(5)) {
      const row = await deviceRow(server, d.id);
      // The writer only sets status, lastUpdate and positionId: the rename stays.
      expect(row.name).toBe(`Renamed ${d.uniqueId}`);
      expect(row.positionId).toBe((await positionsOf(server, d.id)).at(-1)!.id);
    }
  });

  it('checkpoints the WAL itself, so it does not grow while positions keep coming', async () => {
    await createDevice(server, 'thread-wal-1');
    const ctx = server.rastro.ctx;
    const file = path.join(server.dataDir, 'rastro.db');
    const probe = new SQLite(file);
    /** Frames in the WAL now (a PASSIVE checkpoint reports them; the WAL restarts after a complete one). */
    const frames = () => (probe.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>)[0]!.log;
    const run = async (checkpointEvery: number, checkpointIntervalMs = 0) => {
      const ownStore = new SqliteWriteStore(file, ctx.log, { checkpointEvery, checkpointIntervalMs });
      await ownStore.start();
      const writer = new PositionWriter(ctx, { store: ownStore });
      const pipeline = new Pipeline(ctx, server.rastro.ctx.processing!.devices, writer, defaultSteps());
      frames();
      // One flush per message, then what is left in the WAL once the last one is answered.
      for (let i = 0; i < 60; i++) expect((await pipeline.submit(message('thread-wal-1', i))).kind).toBe('stored');
      await sleep(20);
      const left = frames();
      await ownStore.close();
      return left;
    };
    try {
      // Never checkpointing (SQLite's autocheckpoint is off on the thread's connection), the WAL
      // holds all 60 commits; checkpointing after every 4th, at most the last few.
      const without = await run(1_000_000);
      const withCheckpoints = await run(4);
      expect(without).toBeGreaterThanOrEqual(60);
      expect(withCheckpoints).toBeLessThan(without / 4);
      // Back-to-back one-position flushes (the writer commits as soon as it is idle) do not
      // checkpoint each time: not before checkpointIntervalMs since the last checkpoint.
      const spaced = await run(1, 60_000);
      expect(spaced).toBeGreaterThanOrEqual(60);
    } finally {
      probe.close();
    }
  });

  it('a transaction the database refuses (locked past busy_timeout) is retried, not failed: stored once the lock is gone', async () => {
    const device = await createDevice(server, 'thread-busy-1');
    const ctx = server.rastro.ctx;
    const ownStore = new SqliteWriteStore(path.join(server.dataDir, 'rastro.db'), ctx.log, { busyTimeoutMs: 50 });
    await ownStore.start();
    const writer = new PositionWriter(ctx, { retryMinMs: 20, store: ownStore });
    const pipeline = new Pipeline(ctx, server.rastro.ctx.processing!.devices, writer, defaultSteps());
    const lock = holdWriteLock();
    let answered = false;
    const first = pipeline.submit(message('thread-busy-1', 1)).finally(() => (answered = true));
    try {
      // SQLITE_BUSY is a database away for a moment: the flush keeps its batch and tries again.
      await until(() => writer.stats.retries >= 2);
      expect(answered).toBe(false);
      expect(writer.waitingForDatabase).toBe(true);
    } finally {
      lock.release();
    }
    expect((await first).kind).toBe('stored');
    expect(writer.stats.failures).toBe(0);
    expect(writer.waitingForDatabase).toBe(false);
    expect((await pipeline.submit(message('thread-busy-1', 2))).kind).toBe('stored');
    expect(ownStore.stats.threads).toBe(1);
    await writer.drain();
    await ownStore.close();
    expect(ownStore.thread).toBeNull();
    const rows = await positionsOf(server, device.id);
    expect(rows.map((r) => (JSON.parse(r.attributes) as { seq: number }).seq)).toEqual([1, 2]);
  });

  it('a thread that dies mid-transaction answers its devices with 500, is logged, and a new thread takes over', async () => {
    const device = await createDevice(server, 'thread-crash-1');
    const errors = vi.spyOn(server.rastro.ctx.log, 'error');
    const lock = holdWriteLock();
    const thread = store.thread!;
    // The flush waits for the lock inside the thread: stop the thread right there.
    const pending = osmand(server, '/?id=thread-crash-1&lat=1&lon=1&timestamp=1700000001');
    try {
      await until(() => store.inFlight > 0);
      void thread.terminate();
    } finally {
      lock.release();
    }
    const answer = await pending;
    expect(answer.status).toBe(500);
    expect(errors.mock.calls.some(([, text]) => text === 'SQLite writer thread stopped')).toBe(true);
    // Nothing of the dead thread's transaction was kept, and its connection holds no lock.
    expect(await positionsOf(server, device.id)).toEqual([]);
    await server.rastro.ctx.storage.db.updateTable('devices').set({ phone: '123' }).where('id', '=', device.id).execute();

    expect((await osmand(server, '/?id=thread-crash-1&lat=1&lon=2&timestamp=1700000002')).status).toBe(200);
    const rows = await positionsOf(server, device.id);
    expect(rows.map((r) => r.longitude)).toEqual([2]);
    expect((await deviceRow(server, device.id)).positionId).toBe(rows[0]!.id);
    expect(store.stats.threads).toBe(2);
    expect(store.thread).not.toBe(thread);
  });

  it('positions queued when the server closes are written before the thread stops', async () => {
    const other = await startTestServer('sqlite');
    try {
      for (let i = 0; i < 5; i++) await createDevice(other, `thread-close-${i}`);
      const processing = other.rastro.ctx.processing!;
      const closing = processing.store as SqliteWriteStore;
      const thread = closing.thread!;
      const exited = new Promise<number>((resolve) => thread.once('exit', resolve));
      const submits = Array.from({ length: 100 }, (_, i) => processing.pipeline.submit(message(`thread-close-${i % 5}`, i)));
      await other.rastro.close();
      expect((await Promise.all(submits)).every((r) => r.kind === 'stored')).toBe(true);
      expect(await exited).toBe(0);
      expect(closing.thread).toBeNull();
      const db = new SQLite(path.join(other.dataDir, 'rastro.db'), { readonly: true });
      expect(db.prepare('select count(*) as n from positions').get()).toEqual({ n: 100 });
      db.close();
    } finally {
      await other.close();
    }
  });
});
