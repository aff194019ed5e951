// No report can freeze the server (hardening issue, point 1). The worst report a user could ask
// for — a daily summary over two centuries for a few devices, one query per device per day —
// used to run on the request thread and hold the API and the device port for many seconds.
// Reports now run in report threads; these suites check, on SQLite and PostgreSQL:
// - while that report runs, GET /api/server and an OsmAnd position answer promptly;
// - a client that goes away stops its job, and its slot is free again;
// - per-user limit (429 + Retry-After), bounded queue (503), bounded mail queue (429);
// - a slow reader holds the producer (back-pressure), not memory;
// - the default period limit (report.periodLimit, 366 days) on every kind and on history.
// Timing bounds are generous (seconds): the old code blocked for ten seconds and more.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insertable, Kysely } from 'kysely';
import type { Database, PositionTable } from '../src/storage/schema.ts';
import { reportPool, USER_WAITING } from '../src/reports/report-pool.ts';
import { backends, freePort, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { createDevice, osmand, sleep } from './ingest-helpers.ts';
import { link, makeUser, setServer, type TestUser } from './visibility-fixtures.ts';

const CENTURIES = `from=${encodeURIComponent('1971-01-01T00:00:00Z')}&to=${encodeURIComponent('2199-01-01T00:00:00Z')}`;
const DAY = 86_400_000;
const T0 = Date.parse('2024-03-01T00:00:00Z');
const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
const period = (from: number, to: number) => `from=${iso(from)}&to=${iso(to)}`;

/** The worst report: one summary row per device per local day over two centuries (needs the period limit off). */
const worst = (deviceIds: number[]) => `/api/reports/summary?daily=true&${deviceIds.map((id) => `deviceId=${id}`).join('&')}&${CENTURIES}`;

interface Running {
  /** The whole answer (or the error's name once aborted). */
  done: Promise<{ status: number; text: string }>;
  abort(): void;
}

/** Starts a request as `client` without waiting for its answer; `abort()` closes the connection. */
function start(client: TestClient, path: string): Running {
  const controller = new AbortController();
  const done = fetch(client.baseUrl + path, { headers: client.cookie ? { cookie: client.cookie } : {}, signal: controller.signal })
    .then(async (res) => ({ status: res.status, text: await res.text() }))
    .catch((error: unknown) => ({ status: 0, text: (error as Error).name }));
  return { done, abort: () => controller.abort() };
}

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<number> {
  const started = performance.now();
  while (!(await probe())) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
  return performance.now() - started;
}

const jobsOf = (server: TestServer, userId: number) => reportPool(server.rastro.ctx).activity().jobs.filter((j) => j.userId === userId);

describe.each(backends)('report isolation (%s)', (backend) => {
  let server: TestServer;
  let user: TestUser;
  let other: TestUser;
  const ids: number[] = [];
  let small: string;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_REPORT_PERIOD_LIMIT: '0' });
    user = await makeUser(server, 'isolation@test');
    other = await makeUser(server, 'isolation-other@test');
    for (let i = 0; i < 3; i++) {
      const device = await createDevice(server, `isolation-${i}`);
      ids.push(device.id);
      await link(server, 'userDevice', user.row.id, device.id);
      await link(server, 'userDevice', other.row.id, device.id);
    }
    small = `/api/reports/summary?deviceId=${ids[0]}&${period(T0, T0 + DAY)}`;
    // Start the report thread (its first start compiles the report code).
    expect((await user.client.get(small)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('while the worst report runs, GET /api/server and an OsmAnd position answer promptly', async () => {
    // The test shares the server's event loop: a report run on it would stall this loop too
    // (and delay the probes' start, not only their answers), so the stall is measured directly:
    // the longest gap between ticks of a 10 ms timer.
    let longestStall = 0;
    let lastTick = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestStall = Math.max(longestStall, now - lastTick);
      lastTick = now;
    }, 10);
    const report = start(user.client, worst(ids));
    try {
      await sleep(300);
      let slowest = 0;
      for (let i = 0; i < 8; i++) {
        const t0 = performance.now();
        const api = await user.client.get('/api/server');
        const t1 = performance.now();
        const device = await osmand(server, `/?id=isolation-0&timestamp=${Math.floor(T0 / 1000) + i * 60}&lat=-23.5&lon=-46.6&speed=10`);
        const t2 = performance.now();
        expect(api.status).toBe(200);
        expect(device.status).toBe(200);
        slowest = Math.max(slowest, t1 - t0, t2 - t1);
        await sleep(50);
      }
      clearInterval(ticker);
      // The old code held the loop for the whole report (over ten seconds); a thread-run report costs the API nothing.
      expect(longestStall).toBeLessThan(1_000);
      expect(slowest).toBeLessThan(1_500);
      // And it was still running all along (nothing finished it early).
      expect(jobsOf(server, user.row.id).some((j) => j.started && !j.cancelled)).toBe(true);
    } finally {
      clearInterval(ticker);
      report.abort();
      await report.done;
    }
  });

  it('a client that goes away stops its job promptly, and its slot is free again', async () => {
    await until('no job of the user', () => jobsOf(server, user.row.id).length === 0);
    const a = start(user.client, worst(ids));
    const b = start(user.client, worst(ids));
    await until('both jobs running', () => jobsOf(server, user.row.id).filter((j) => j.started).length === 2);
    // Both running slots taken: a third waits behind them instead of starting.
    const c = start(user.client, small);
    await until('the third admitted', () => jobsOf(server, user.row.id).length === 3);
    await sleep(200);
    expect(jobsOf(server, user.row.id).filter((j) => j.started)).toHaveLength(2);
    a.abort();
    // A slot is free again: the waiting one runs and answers.
    expect((await c.done).status).toBe(200);
    b.abort();
    expect((await a.done).status).toBe(0);
    const took = await until('the jobs to end', () => jobsOf(server, user.row.id).length === 0, 8_000);
    expect(took).toBeLessThan(5_000);
    expect((await user.client.get(small)).status).toBe(200);
  });

  it('per user: RASTRO_REPORT_USER_LIMIT (2) reports run at once and a few more wait; past that 429 with Retry-After; others are not affected', async () => {
    await until('no job of the user', () => jobsOf(server, user.row.id).length === 0);
    const admitted = Array.from({ length: 2 + USER_WAITING }, () => start(user.client, worst(ids)));
    try {
      await until('all admitted', () => jobsOf(server, user.row.id).length === admitted.length);
      expect(jobsOf(server, user.row.id).filter((j) => j.started)).toHaveLength(2);
      const refused = await user.client.get(small);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.text).toMatch(/^Too many reports at once - you may run 2 at a time/);
      // Every kind and form counts, history included.
      expect((await user.client.get(`/api/positions?deviceId=${ids[0]}&${period(T0, T0 + DAY)}`)).status).toBe(429);
      expect((await user.client.get(`/api/reports/route/xlsx?deviceId=${ids[0]}&${period(T0, T0 + DAY)}`)).status).toBe(429);
      // Another user still gets answers: their report goes ahead of this user's waiting ones.
      expect((await other.client.get(small)).status).toBe(200);
    } finally {
      for (const r of admitted) r.abort();
      await Promise.all(admitted.map((r) => r.done));
    }
    await until('the jobs to end', () => jobsOf(server, user.row.id).length === 0);
    expect((await user.client.get(small)).status).toBe(200);
  });

  it('a reader that stops reading holds the producer: the thread sends only a few pieces, then the rest when read', async () => {
    const device = await createDevice(server, 'isolation-big');
    await link(server, 'userDevice', user.row.id, device.id);
    const padding = 'x'.repeat(2_000);
    const count = 12_000;
    await insertPositions(server.rastro.ctx.storage.db, Array.from({ length: count }, (_, i) => position(device.id, T0 + i * 1000, { padding, i })));
    // A raw request whose answer is not read (paused): the socket buffers fill, then nothing moves.
    const url = new URL(`${server.url}/api/positions?deviceId=${device.id}&${period(T0, T0 + count * 1000)}`);
    let received = 0;
    const chunks: Buffer[] = [];
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { cookie: user.client.cookie! } }, resolve).on('error', reject);
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    response.pause();
    await sleep(1_500);
    const [job] = jobsOf(server, user.row.id);
    expect(job).toBeDefined();
    // ~27 MB of JSON; what crossed over is bounded by the socket buffers, not by the answer.
    expect(job!.bytes).toBeLessThan(12 * 2 ** 20);
    const before = job!.bytes;
    await sleep(500);
    expect(jobsOf(server, user.row.id)[0]?.bytes).toBe(before);
    response.on('data', (c: Buffer) => {
      received += c.length;
      chunks.push(c);
    });
    response.resume();
    await new Promise((resolve) => response.on('end', resolve));
    expect(received).toBeGreaterThan(25 * 2 ** 20);
    const positions = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Array<{ id: number; attributes: { i: number } }>;
    expect(positions).toHaveLength(count);
    expect(positions.map((p) => p.attributes.i)).toEqual(Array.from({ length: count }, (_, i) => i));
    await until('the job to end', () => jobsOf(server, user.row.id).length === 0);
  });
});

function position(deviceId: number, fixTime: number, attributes: Record<string, unknown>): Insertable<PositionTable> {
  return {
    deviceId, protocol: 'osmand', serverTime: fixTime, deviceTime: fixTime, fixTime, valid: 1, latitude: -23.5, longitude: -46.6,
    altitude: 0, speed: 0, course: 0, address: null, accuracy: 0, network: null, geofenceIds: null, attributes: JSON.stringify(attributes),
  };
}

async function insertPositions(db: Kysely<Database>, rows: Array<Insertable<PositionTable>>): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) await db.insertInto('positions').values(rows.slice(i, i + 500)).execute();
}

describe.each(backends)('report queue bounds (%s)', (backend) => {
  let server: TestServer;
  const users: TestUser[] = [];
  const ids: number[] = [];

  beforeAll(async () => {
    // One thread of 4 slots, one report may wait.
    server = await startTestServer(backend, { RASTRO_REPORT_PERIOD_LIMIT: '0', RASTRO_REPORT_THREADS: '1', RASTRO_REPORT_QUEUE: '1' });
    for (let u = 0; u < 3; u++) users.push(await makeUser(server, `queue-${u}@test`));
    for (let i = 0; i < 2; i++) {
      const device = await createDevice(server, `queue-${i}`);
      ids.push(device.id);
      for (const u of users) await link(server, 'userDevice', u.row.id, device.id);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  it('past the running slots and the queue, a report is refused with 503 and Retry-After (never unbounded)', async () => {
    const pool = reportPool(server.rastro.ctx);
    const running = [start(users[0]!.client, worst(ids)), start(users[0]!.client, worst(ids)), start(users[1]!.client, worst(ids)), start(users[1]!.client, worst(ids))];
    try {
      await until('four running', () => pool.activity().running === 4);
      const queued = start(users[2]!.client, worst(ids));
      running.push(queued);
      await until('one waiting', () => pool.activity().waiting === 1);
      const refused = await users[2]!.client.get(worst(ids));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(refused.text).toMatch(/^Reports are busy/);
      // A waiting client that leaves frees its place at once.
      queued.abort();
      await until('nothing waiting', () => pool.activity().waiting === 0);
    } finally {
      for (const r of running) r.abort();
      await Promise.all(running.map((r) => r.done));
    }
    await until('the pool to empty', () => pool.activity().jobs.length === 0);
  });
});

describe.each(backends)('mailed reports (%s)', (backend) => {
  let server: TestServer;
  let user: TestUser;
  const ids: number[] = [];

  beforeAll(async () => {
    // An SMTP port nobody listens on: every delivery fails.
    server = await startTestServer(backend, { RASTRO_REPORT_PERIOD_LIMIT: '0', RASTRO_SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    user = await makeUser(server, 'mail-queue@test');
    for (let i = 0; i < 2; i++) {
      const device = await createDevice(server, `mail-queue-${i}`);
      ids.push(device.id);
      await link(server, 'userDevice', user.row.id, device.id);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a mail that fails is logged', async () => {
    const errors: unknown[][] = [];
    const log = server.rastro.ctx.log;
    const original = log.error.bind(log);
    log.error = ((...args: unknown[]) => {
      errors.push(args);
    }) as typeof log.error;
    try {
      const res = await user.client.get(`/api/reports/summary/mail?deviceId=${ids[0]}&${period(T0, T0 + DAY)}`);
      expect(res.status).toBe(204);
      await until('the failure to be logged', () => errors.some((e) => e[1] === 'report mail failed'), 15_000);
      const [details] = errors.find((e) => e[1] === 'report mail failed')!;
      expect(details).toMatchObject({ report: 'summary', userId: user.row.id });
      expect(reportPool(server.rastro.ctx).activity().mailsPending).toBe(0);
    } finally {
      log.error = original;
    }
  });

  it('mailed reports are queued and bounded per user: over the limit the request gets 429 with a message, not a silent drop', async () => {
    const pool = reportPool(server.rastro.ctx);
    // Two of the worst reports: they are still being built while the third is asked for.
    const first = await user.client.get(`/api/reports/summary/mail?${worst(ids).split('?')[1]}`);
    const second = await user.client.get(`/api/reports/summary/mail?${worst(ids).split('?')[1]}`);
    expect([first.status, second.status]).toEqual([204, 204]);
    expect(pool.activity().mailsPending).toBe(2);
    const refused = await user.client.get(`/api/reports/route/mail?deviceId=${ids[0]}&${period(T0, T0 + DAY)}`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.text).toMatch(/^Too many mailed reports pending/);
    // Mails do not take the user's interactive slots.
    expect((await user.client.get(`/api/reports/summary?deviceId=${ids[0]}&${period(T0, T0 + DAY)}`)).status).toBe(200);
  });
});

describe.each(backends)('report period limit (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let deviceId: number;
  const LIMIT = 366 * DAY;
  const kinds = ['route', 'summary', 'events', 'trips', 'stops'];

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    deviceId = (await createDevice(server, 'period-limit')).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('by default a report covers at most 366 days: longer is refused at once (400) on every kind, form and on position history', async () => {
    const long = `deviceId=${deviceId}&${period(T0, T0 + LIMIT + 1000)}`;
    const paths = [
      ...kinds.flatMap((k) => [`/api/reports/${k}?${long}`, `/api/reports/${k}/xlsx?${long}`, `/api/reports/${k}/mail?${long}`]),
      `/api/positions?${long}`,
    ];
    for (const path of paths) {
      const res = await admin.get(path);
      expect(res.status, path).toBe(400);
      expect(res.text, path).toMatch(/^Invalid period - reports cover at most 31622400 seconds \(366 days\)/);
    }
    const year = `deviceId=${deviceId}&${period(T0, T0 + LIMIT)}`;
    for (const path of [...kinds.map((k) => `/api/reports/${k}?${year}`), `/api/reports/summary?daily=true&${year}`, `/api/positions?${year}`]) {
      expect((await admin.get(path)).status, path).toBe(200);
    }
  });

  it('the server attribute report.periodLimit, when set, wins over the configuration (0 = no limit)', async () => {
    try {
      await setServer(server, { attributes: JSON.stringify({ 'report.periodLimit': 2 * 86_400 }) });
      const three = `deviceId=${deviceId}&${period(T0, T0 + 3 * DAY)}`;
      expect((await admin.get(`/api/reports/summary?${three}`)).text).toMatch(/^Invalid period - reports cover at most 172800 seconds \(2 days\)/);
      expect((await admin.get(`/api/positions?${three}`)).status).toBe(400);
      await setServer(server, { attributes: JSON.stringify({ 'report.periodLimit': 0 }) });
      expect((await admin.get(`/api/reports/summary?deviceId=${deviceId}&${period(T0, T0 + 400 * DAY)}`)).status).toBe(200);
    } finally {
      await setServer(server, { attributes: '{}' });
    }
  });

  it('RASTRO_REPORT_PERIOD_LIMIT sets the limit; daily splitting never gives more periods than the limit allows', async () => {
    const limited = await startTestServer(backend, { RASTRO_REPORT_PERIOD_LIMIT: String(3 * 86_400) });
    try {
      const client = await limited.admin();
      const device = await createDevice(limited, 'period-daily');
      // A position every two hours for five days.
      await insertPositions(limited.rastro.ctx.storage.db, Array.from({ length: 60 }, (_, i) => position(device.id, T0 + i * 2 * 3_600_000, { i })));
      const refused = await client.get(`/api/reports/summary?daily=true&deviceId=${device.id}&${period(T0, T0 + 3 * DAY + 1000)}`);
      expect(refused.status).toBe(400);
      expect(refused.text).toMatch(/^Invalid period - reports cover at most 259200 seconds \(3 days\)/);
      // The longest allowed period, starting mid-day: at most limit/day + 1 local days.
      const from = T0 + 7 * 3_600_000;
      const res = await client.get<unknown[]>(`/api/reports/summary?daily=true&deviceId=${device.id}&${period(from, from + 3 * DAY)}`);
      expect(res.status).toBe(200);
      expect(res.json.length).toBeGreaterThan(0);
      expect(res.json.length).toBeLessThanOrEqual(4);
    } finally {
      await limited.close();
    }
  });
});
