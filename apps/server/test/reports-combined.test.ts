// GET /api/reports/combined with known data: one item per covered device — its route as
// [longitude, latitude] by fixTime, the events that have a position except deviceMoving,
// and the positions those events point at — checked against the OpenAPI CombinedReportItem.
// SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Group } from '@rastro/domain/entities';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectArrayOf, expectResponse } from './openapi.ts';
import { addPosition, create, link, makeUser, setServer, type TestUser } from './visibility-fixtures.ts';

const T0 = Date.parse('2024-07-01T12:00:00Z');
const MIN = 60_000;
const q = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
const range = (from: number, to: number) => `from=${q(from)}&to=${q(to)}`;

interface Item {
  deviceId: number;
  route: Array<[number, number]>;
  events: Array<{ id: number; type: string; positionId: number; geofenceId: number }>;
  positions: Array<{ id: number; fixTime: string }>;
}

describe.each(backends)('combined report (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestUser;
  let car: Device;
  let idle: Device;
  let fleet: Group;
  /** Positions of `car` by minute after T0 (stored out of order: the route is by fixTime). */
  const at = new Map<number, number>();
  const event: Record<string, number> = {};

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    fleet = await create<Group>(admin, '/api/groups', { name: 'Fleet' });
    car = await create<Device>(admin, '/api/devices', { name: 'Car', uniqueId: 'comb-car', groupId: fleet.id });
    idle = await create<Device>(admin, '/api/devices', { name: 'Idle', uniqueId: 'comb-idle' });
    user = await makeUser(server, 'combined-user@test');
    await link(server, 'userDevice', user.row.id, car.id);
    await link(server, 'userDevice', user.row.id, idle.id);

    for (const minute of [20, 0, 10, 30, 40]) {
      const p = await addPosition(server, car.id, { fixTime: T0 + minute * MIN, latitude: -23.5 + minute / 1000, longitude: -46.6 - minute / 1000 });
      at.set(minute, p.id);
    }
    // Outside the period asked below.
    at.set(90, (await addPosition(server, car.id, { fixTime: T0 + 90 * MIN })).id);

    const hidden = await create<{ id: number }>(admin, '/api/geofences', { name: 'Depot', area: 'CIRCLE (-23.5 -46.6, 100)' });
    const db = server.rastro.ctx.storage.db;
    const add = async (name: string, type: string, minute: number, positionId: number, geofenceId = 0) => {
      const row = await db
        .insertInto('events')
        .values({ type, eventTime: T0 + minute * MIN, deviceId: car.id, positionId, geofenceId, maintenanceId: 0, attributes: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      event[name] = Number(row.id);
    };
    await add('ignitionOn', 'ignitionOn', 0, at.get(0)!);
    await add('moving', 'deviceMoving', 10, at.get(10)!);
    await add('enter', 'geofenceEnter', 20, at.get(20)!, hidden.id);
    await add('online', 'deviceOnline', 25, 0);
    await add('stopped', 'deviceStopped', 30, at.get(30)!);
    // In the period, but its position (fixTime outside) is not: the event stays, the position does not.
    await add('late', 'alarm', 40, at.get(90)!);
  });

  afterAll(async () => {
    await server?.close();
  });

  const period = range(T0, T0 + 45 * MIN);

  it('answers one item per device: route by fixTime, events with a position but deviceMoving, the positions they point at', async () => {
    const res = await admin.get<Item[]>(`/api/reports/combined?deviceId=${car.id}&deviceId=${idle.id}&${period}`);
    expect(res.status).toBe(200);
    expectResponse('GET', '/reports/combined', res);
    expectArrayOf(res.json, 'CombinedReportItem');
    const [carItem, idleItem] = res.json;
    expect(Object.keys(carItem!)).toEqual(['deviceId', 'route', 'events', 'positions']);
    expect(carItem!.deviceId).toBe(car.id);
    expect(carItem!.route).toEqual([0, 10, 20, 30, 40].map((m) => [-46.6 - m / 1000, -23.5 + m / 1000]));
    expect(carItem!.events.map((e) => e.id)).toEqual([event.ignitionOn, event.enter, event.stopped, event.late]);
    // deviceMoving's position is there (as Traccar: every event's position); the alarm's is outside the period.
    expect(carItem!.positions.map((p) => p.id)).toEqual([0, 10, 20, 30].map((m) => at.get(m)));
    expect(idleItem).toEqual({ deviceId: idle.id, route: [], events: [], positions: [] });
  });

  it('leaves out events about a geofence the caller cannot see, and their position', async () => {
    const res = await user.client.get<Item[]>(`/api/reports/combined?deviceId=${car.id}&${period}`);
    expect(res.status).toBe(200);
    expect(res.json[0]!.events.map((e) => e.id)).toEqual([event.ignitionOn, event.stopped, event.late]);
    expect(res.json[0]!.positions.map((p) => p.id)).toEqual([0, 10, 30].map((m) => at.get(m)));
  });

  it('covers groups and, without ids, every visible device; leaves out devices the caller cannot see', async () => {
    expect((await admin.get<Item[]>(`/api/reports/combined?groupId=${fleet.id}&${period}`)).json.map((i) => i.deviceId)).toEqual([car.id]);
    expect((await user.client.get<Item[]>(`/api/reports/combined?${period}`)).json.map((i) => i.deviceId)).toEqual([car.id, idle.id]);
    const stranger = await makeUser(server, 'combined-stranger@test');
    expect((await stranger.client.get<Item[]>(`/api/reports/combined?deviceId=${car.id}&${period}`)).json).toEqual([]);
  });

  it('checks the request as every report: session, period, period limit', async () => {
    expect((await server.client().get(`/api/reports/combined?deviceId=${car.id}&${period}`)).status).toBe(401);
    const missing = await admin.get(`/api/reports/combined?deviceId=${car.id}&from=${q(T0)}`);
    expect(missing.status).toBe(400);
    expect(missing.text).toMatch(/^Missing to/);
    await setServer(server, { attributes: JSON.stringify({ 'report.periodLimit': 600 }) });
    try {
      const long = await admin.get(`/api/reports/combined?deviceId=${car.id}&${period}`);
      expect(long.status).toBe(400);
      expect(long.text).toMatch(/^Invalid period/);
    } finally {
      await setServer(server, { attributes: '{}' });
    }
  });

  it('is JSON only, as Traccar: no spreadsheet, no mail', async () => {
    const xlsxAccept = await admin.get<Item[]>(`/api/reports/combined?deviceId=${car.id}&${period}`, {
      accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    expect(xlsxAccept.status).toBe(200);
    expect(xlsxAccept.headers.get('content-type')).toMatch(/^application\/json/);
    expect(xlsxAccept.json[0]!.deviceId).toBe(car.id);
    expect((await admin.get(`/api/reports/combined/xlsx?deviceId=${car.id}&${period}`)).status).toBe(404);
    expect((await admin.get(`/api/reports/combined/mail?deviceId=${car.id}&${period}`)).status).toBe(404);
  });
});
