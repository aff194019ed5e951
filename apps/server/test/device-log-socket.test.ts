// The socket's raw device log (`{"logs": true}`, traccar-reference A.2; issue 11 point 8): the
// wish turns ctx.live.logsWanted on while any socket wants logs (on any instance, over Redis);
// `{logs}` batches reach only sockets that asked, each user the frames of devices they see;
// frames of devices not identified reach administrators alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawFrame } from '../src/realtime/live.ts';
import { backends, redisUrl, startTestServer, type TestServer } from './harness.ts';
import { LiveSocket, isKey, type Received } from './socket-client.ts';
import { insertDevice, link, userWithSession } from './socket-fixtures.ts';

let uniq = 0;
const uid = (name: string) => `${name}-${process.pid}-${++uniq}`;
const frame = (deviceId: number | null, data: string): RawFrame => ({
  protocol: 'gt06', host: '10.1.2.3:40000', uniqueId: deviceId === null ? null : `u${deviceId}`, deviceId, data, time: Date.now(),
});
const logsOf = (m: Received) => (m.json.logs as RawFrame[]).map((f) => f.data);

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(backends)('device log on the socket (%s)', (backend) => {
  let server: TestServer;
  const sockets: LiveSocket[] = [];
  const connect = async (cookie: string | null) => {
    const s = await LiveSocket.open(server.url, { cookie });
    sockets.push(s);
    await s.next(isKey('positions'));
    return s;
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
  });

  it('wants logs only while a socket asks, and sends each user the frames of the devices they see', async () => {
    const ctx = server.rastro.ctx;
    const seen = await insertDevice(ctx.storage.db, uid('log-seen'));
    const hidden = await insertDevice(ctx.storage.db, uid('log-hidden'));
    const user = await userWithSession(server);
    await link(ctx.storage.db, 'userDevice', user.id, seen);

    const admin = await connect((await server.admin()).cookie);
    const mine = await connect(user.cookie);
    const quiet = await connect(user.cookie);
    expect(ctx.live.logsWanted).toBe(false);

    admin.send({ logs: true });
    mine.send({ logs: true });
    await until(() => ctx.live.logsWanted);
    expect(server.rastro.app.socketHub.logSubscribers()).toHaveLength(2);
    expect(server.rastro.app.socketHub.logSubscribers()).toContain(user.id);

    ctx.live.publish({ logs: [frame(seen, 'aa'), frame(hidden, 'bb'), frame(null, 'cc')] });
    expect(logsOf(await admin.next(isKey('logs')))).toEqual(['aa', 'bb', 'cc']);
    const got = await mine.next(isKey('logs'));
    expect(logsOf(got)).toEqual(['aa']);
    expect(got.json.logs).toEqual([expect.objectContaining({ protocol: 'gt06', host: '10.1.2.3:40000', deviceId: seen, uniqueId: `u${seen}`, data: 'aa' })]);

    // A batch with nothing for the user sends the user nothing.
    ctx.live.publish({ logs: [frame(hidden, 'dd')] });
    expect(logsOf(await admin.next(isKey('logs')))).toEqual(['dd']);

    // Turned off by one, still wanted by the other; off once the last one closes.
    mine.send({ logs: false });
    await until(() => server.rastro.app.socketHub.logSubscribers().length === 1);
    ctx.live.publish({ logs: [frame(seen, 'ee')] });
    expect(logsOf(await admin.next(isKey('logs')))).toEqual(['ee']);
    expect(ctx.live.logsWanted).toBe(true);
    admin.close();
    await until(() => !ctx.live.logsWanted);

    await new Promise((r) => setTimeout(r, 100));
    expect(mine.pending().filter(isKey('logs'))).toEqual([]);
    expect(quiet.received.filter(isKey('logs'))).toEqual([]);
  });

  it('ignores a log switch that is not a boolean, like any other message', async () => {
    const ctx = server.rastro.ctx;
    const admin = await connect((await server.admin()).cookie);
    admin.send({ logs: 'yes' });
    admin.send('not json');
    admin.send({});
    await new Promise((r) => setTimeout(r, 100));
    expect(ctx.live.logsWanted).toBe(false);
    admin.close();
  });
});

const skipReason = !redisUrl
  ? 'TEST_REDIS_URL is not set'
  : !backends.includes('postgres')
    ? 'TEST_DATABASE_URL is not set (two instances share one PostgreSQL schema)'
    : null;

describe.skipIf(skipReason !== null)('device log across instances over Redis (postgres)', () => {
  let a: TestServer;
  let b: TestServer;
  const sockets: LiveSocket[] = [];

  beforeAll(async () => {
    a = await startTestServer('postgres', { REDIS_URL: redisUrl! });
    b = await startTestServer('postgres', { REDIS_URL: redisUrl! }, { shareDatabaseWith: a });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await b?.close();
    await a?.close();
  });

  it("a socket on one instance makes the other's listeners publish, and gets their frames", async () => {
    const d = await insertDevice(a.rastro.ctx.storage.db, uid('log-bus'));
    const onB = await LiveSocket.open(b.url, { cookie: (await b.admin()).cookie });
    sockets.push(onB);
    await onB.next(isKey('positions'));
    expect(a.rastro.ctx.live.logsWanted).toBe(false);

    onB.send({ logs: true });
    await until(() => a.rastro.ctx.live.logsWanted);
    a.rastro.ctx.live.publish({ logs: [frame(d, 'from-a')] });
    expect(logsOf(await onB.next(isKey('logs')))).toEqual(['from-a']);

    // A third instance joining later learns the wish at once (it asks on start).
    const c = await startTestServer('postgres', { REDIS_URL: redisUrl! }, { shareDatabaseWith: a });
    try {
      await until(() => c.rastro.ctx.live.logsWanted);
    } finally {
      await c.close();
    }

    onB.close();
    await until(() => !a.rastro.ctx.live.logsWanted);
  });
});
