// Server statistics (GET /api/statistics): what a day counts (API requests of logged-in users,
// device messages received and stored, active users and devices, protocols, mails), stored
// per UTC day by flushes that add up across instances and restarts, shown once the day is
// over, to administrators only. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import type { Device } from '@rastro/domain/entities';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectResponse } from './openapi.ts';
import { osmand } from './ingest-helpers.ts';
import { startMailbox } from './mailbox.ts';
import { create, makeUser, type TestUser } from './visibility-fixtures.ts';
import { ServerStatistics, serverStatistics } from '../src/statistics/server-statistics.ts';
import { addToDay } from '../src/statistics/statistics-repo.ts';
import { DAY_MS, dayEnd, type DayDelta } from '../src/statistics/day-counts.ts';
import { SmtpMailer } from '../src/mail/mailer.ts';

const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
const counts = (values: Partial<DayDelta['counts']>): DayDelta['counts'] => ({
  requests: 0, messagesReceived: 0, messagesStored: 0, mailSent: 0, smsSent: 0, geocoderRequests: 0, geolocationRequests: 0, ...values,
});

interface StatisticsJson {
  id: number; attributes: Record<string, unknown>; captureTime: string; activeUsers: number; activeDevices: number; requests: number;
  messagesReceived: number; messagesStored: number; mailSent: number; smsSent: number; geocoderRequests: number; geolocationRequests: number;
  protocols: Record<string, number> | null;
}

describe.each(backends)('server statistics (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestUser;
  let car: Device;

  /** Today's stored row (the running day), after this instance's flush. */
  async function today(s = server) {
    await serverStatistics(s.rastro.ctx).flush();
    return s.rastro.ctx.storage.db.selectFrom('statistics').selectAll().where('captureTime', '=', dayEnd(Date.now())).executeTakeFirst();
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    user = await makeUser(server, 'statistics-user@test');
    car = await create<Device>(admin, '/api/devices', { name: 'Car', uniqueId: 'stat-car' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('counts requests of logged-in users, messages received and stored, active users and devices by protocol', async () => {
    const before = await today();
    await admin.get('/api/devices');
    await admin.get('/api/server');
    await user.client.get('/api/devices');
    expect((await server.client().get('/api/devices')).status).toBe(401); // anonymous: not counted
    const t = Math.floor(Date.now() / 1000);
    expect((await osmand(server, `/?id=${car.uniqueId}&timestamp=${t - 60}&lat=-23.5&lon=-46.6`)).status).toBe(200);
    expect((await osmand(server, `/?id=${car.uniqueId}&timestamp=${t}&lat=-23.6&lon=-46.6`)).status).toBe(200);
    await osmand(server, `/?id=stat-unknown&timestamp=${t}&lat=-23.6&lon=-46.6`);
    const after = (await today())!;
    expect(after.requests - (before?.requests ?? 0)).toBe(3);
    expect(after.messagesReceived - (before?.messagesReceived ?? 0)).toBe(3);
    expect(after.messagesStored - (before?.messagesStored ?? 0)).toBe(2);
    expect(after.activeUsers).toBe(2);
    expect(after.activeDevices).toBe(1);
    expect(JSON.parse(after.protocols!)).toEqual({ osmand: 1 });
    // Counted again today: the same users and device are not counted twice.
    await admin.get('/api/devices');
    const again = (await today())!;
    expect([again.requests - after.requests, again.activeUsers, again.activeDevices]).toEqual([1, 2, 1]);
  });

  it('does not show the running day; shows a day once it is over, in the OpenAPI shape', async () => {
    const now = Date.now();
    await admin.get('/api/devices');
    await serverStatistics(server.rastro.ctx).flush();
    const running = await admin.get<StatisticsJson[]>(`/api/statistics?from=${iso(now - DAY_MS)}&to=${iso(now + 7 * DAY_MS)}`);
    expect(running.status).toBe(200);
    expect(running.json).toEqual([]);

    // Two days ago, as two instances flushed it: counts add up, a user both saw counts once.
    const day = dayEnd(now) - 2 * DAY_MS;
    const db = server.rastro.ctx.storage.db;
    await Promise.all([
      addToDay(db, { captureTime: day, counts: counts({ requests: 5, messagesStored: 2 }), users: [1, 2], devices: [[car.id, 'osmand']] }),
      addToDay(db, { captureTime: day, counts: counts({ requests: 4, mailSent: 1 }), users: [2, 3], devices: [[999, 'gt06']] }),
    ]);
    const res = await admin.get<StatisticsJson[]>(`/api/statistics?from=${iso(day)}&to=${iso(now)}`);
    expect(res.status).toBe(200);
    expectResponse('GET', '/statistics', res);
    expect(res.json).toEqual([{
      id: expect.any(Number), attributes: {}, captureTime: new Date(day).toISOString().replace('Z', '+00:00'),
      activeUsers: 3, activeDevices: 2, requests: 9, messagesReceived: 0, messagesStored: 2, mailSent: 1, smsSent: 0,
      geocoderRequests: 0, geolocationRequests: 0, protocols: { gt06: 1, osmand: 1 },
    }]);
    // captureTime bounds are inclusive.
    expect((await admin.get<StatisticsJson[]>(`/api/statistics?from=${iso(day - DAY_MS)}&to=${iso(day - 1)}`)).json).toEqual([]);
    expect((await admin.get<StatisticsJson[]>(`/api/statistics?from=${iso(day - DAY_MS)}&to=${iso(day)}`)).json).toHaveLength(1);
  });

  it('puts counts in the day they were made; keeps what a failed flush could not store for the next', async () => {
    const ctx = server.rastro.ctx;
    const down: KyselyPlugin = {
      transformQuery: () => { throw new Error('database away'); },
      transformResult: async (args) => args.result,
    };
    const storage = { ...ctx.storage, db: ctx.storage.db.withPlugin(down) };
    // Ten days ago, a second before midnight.
    const midnight = dayEnd(Date.now()) - 10 * DAY_MS;
    let clock = midnight - 1000;
    const stats = new ServerStatistics({ storage, log: ctx.log }, () => clock);
    stats.request(user.row.id);
    clock = midnight + 1000;
    stats.request(user.row.id);
    stats.mailSent();
    await stats.flush(); // fails: nothing stored, nothing lost
    storage.db = ctx.storage.db;
    stats.request(424_242); // another user (no foreign key: a day keeps users that went)
    await stats.flush();
    const res = await admin.get<StatisticsJson[]>(`/api/statistics?from=${iso(midnight - DAY_MS)}&to=${iso(midnight + DAY_MS)}`);
    expect(res.json.map((d) => [d.captureTime, d.requests, d.activeUsers, d.mailSent])).toEqual([
      [new Date(midnight).toISOString().replace('Z', '+00:00'), 1, 1, 0],
      [new Date(midnight + DAY_MS).toISOString().replace('Z', '+00:00'), 2, 2, 1],
    ]);
  });

  it('is for administrators: anonymous 401, others refused; from and to are required', async () => {
    const range = `from=${iso(Date.now() - DAY_MS)}&to=${iso(Date.now())}`;
    expect((await server.client().get(`/api/statistics?${range}`)).status).toBe(401);
    const refused = await user.client.get(`/api/statistics?${range}`);
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/^Administrator access required/);
    const missing = await admin.get(`/api/statistics?from=${iso(Date.now())}`);
    expect(missing.status).toBe(400);
    expect(missing.text).toMatch(/^Missing to/);
    expect((await admin.get('/api/statistics?from=yesterday&to=today')).status).toBe(400);
  });

  it('stores what an instance counted when it stops, adding to what the others stored', async () => {
    await serverStatistics(server.rastro.ctx).flush();
    const second = await startTestServer(backend, {}, { shareDatabaseWith: server });
    try {
      const client = await second.admin();
      for (let i = 0; i < 3; i++) await client.get('/api/devices');
      const before = await server.rastro.ctx.storage.db.selectFrom('statistics').select('requests').where('captureTime', '=', dayEnd(Date.now())).executeTakeFirstOrThrow();
      await second.close();
      const after = await server.rastro.ctx.storage.db.selectFrom('statistics').select('requests').where('captureTime', '=', dayEnd(Date.now())).executeTakeFirstOrThrow();
      expect(after.requests - before.requests).toBe(3);
    } finally {
      await second.close();
    }
  });
});

describe('mail statistics', () => {
  it('counts a message once the SMTP server took it', async () => {
    const mailbox = await startMailbox();
    let sent = 0;
    const mailer = new SmtpMailer(mailbox.url, 'rastro@test', () => sent++);
    try {
      await mailer.send({ to: 'someone@test', subject: 'Hello', text: 'Hi' });
      expect(sent).toBe(1);
      expect(mailbox.mails).toHaveLength(1);
    } finally {
      mailer.close();
      await mailbox.close();
    }
  });
});
