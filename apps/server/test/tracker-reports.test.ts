// What reports and the device detail need from trackers (issue 11, points 5 and 7), over real
// HTTP on both backends: engine hours accumulated from ignition (summary engineHours and
// averageSpeed), the driver id kept with driverChanged, fixes dated in the future stored but
// never the latest, the device's decoder.timezone applied to device-clock dates, and the
// clock check of GET /api/devices/{id}/clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceClock } from '@rastro/domain/device-clock';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { createDevice, deviceRow, osmand, positionsOf, recordLive } from './ingest-helpers.ts';
import { emptyFix } from '../src/ingest/decoded.ts';

const H = 3_600_000;
const M = 60_000;
const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());

describe.each(backends)('tracker data for reports and clocks (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A fix through the real pipeline, as a binary protocol hands it over. */
  async function submit(uniqueId: string, fix: Partial<ReturnType<typeof emptyFix>>) {
    return server.rastro.ctx.processing!.pipeline.submit({ uniqueId, fix: { ...emptyFix('gt06', Date.now()), ...fix } });
  }

  const clockOf = async (id: number) => (await admin.get<DeviceClock>(`/api/devices/${id}/clock`)).json;

  it('accumulates engine hours from ignition: the summary shows about an hour and a non-zero average speed', async () => {
    const d = await createDevice(server, 'hours-1');
    const start = Math.floor((Date.now() - 2 * H) / 1000) * 1000;
    // An hour with the engine on, driving east, one report every 5 minutes.
    for (let i = 0; i <= 12; i++) {
      const t = start + i * 5 * M;
      const res = await osmand(server, `/?id=hours-1&timestamp=${t / 1000}&lat=-23.5&lon=${(-46.6 + i * 0.01).toFixed(4)}&speed=20&ignition=true`);
      expect(res.status).toBe(200);
    }
    const stored = await positionsOf(server, d.id);
    expect(stored.map((p) => (JSON.parse(p.attributes) as { hours: number }).hours)).toEqual(Array.from({ length: 13 }, (_, i) => i * 5 * M));

    const res = await admin.get<Array<{ engineHours: number; averageSpeed: number; distance: number; startHours: number; endHours: number }>>(
      `/api/reports/summary?deviceId=${d.id}&from=${iso(start - M)}&to=${iso(start + 2 * H)}`,
    );
    expect(res.status).toBe(200);
    const [summary] = res.json;
    expect(summary!.engineHours).toBe(H);
    expect(summary).toMatchObject({ startHours: 0, endHours: H });
    expect(summary!.distance).toBeGreaterThan(10_000);
    // distance / engine hours, in knots: ~12 km in an hour is ~6.5 kn.
    expect(summary!.averageSpeed).toBeGreaterThan(5);
    expect(summary!.averageSpeed).toBeLessThan(8);
  });

  it('keeps the driver id (iButton / RFID) on positions and raises driverChanged', async () => {
    const d = await createDevice(server, 'driver-1');
    const t = Date.now() - 10 * M;
    await submit('driver-1', { fixTime: t, deviceTime: t, latitude: 1, longitude: 1, attributes: { driverUniqueId: '01A2B3C4D5' } });
    await submit('driver-1', { fixTime: t + M, deviceTime: t + M, latitude: 1, longitude: 1, attributes: { driverUniqueId: '01A2B3C4D5' } });
    await submit('driver-1', { fixTime: t + 2 * M, deviceTime: t + 2 * M, latitude: 1, longitude: 1, attributes: { driverUniqueId: '99' } });
    const stored = await positionsOf(server, d.id);
    expect(stored.map((p) => (JSON.parse(p.attributes) as { driverUniqueId: string }).driverUniqueId)).toEqual(['01A2B3C4D5', '01A2B3C4D5', '99']);
    const events = await server.rastro.ctx.storage.db.selectFrom('events').selectAll().where('deviceId', '=', d.id).where('type', '=', 'driverChanged').orderBy('id').execute();
    expect(events.map((e) => [JSON.parse(e.attributes).driverUniqueId, e.positionId])).toEqual([
      ['01A2B3C4D5', stored[0]!.id],
      ['99', stored[2]!.id],
    ]);
  });

  it('stores a fix dated in the future but never makes it the latest, and the clock check says the clock is ahead', async () => {
    const d = await createDevice(server, 'future-1');
    const now = Date.now();
    expect((await osmand(server, `/?id=future-1&timestamp=${Math.floor((now - M) / 1000)}&lat=1&lon=1`)).status).toBe(200);
    const good = (await deviceRow(server, d.id)).positionId;
    expect(good).not.toBeNull();
    expect((await clockOf(d.id)).state).toBe('ok');

    const live = recordLive(server);
    // A tracker set to UTC+8 that thinks it is UTC.
    expect((await osmand(server, `/?id=future-1&timestamp=${Math.floor((now + 8 * H) / 1000)}&lat=2&lon=2`)).status).toBe(200);
    live.stop();
    const stored = await positionsOf(server, d.id);
    expect(stored).toHaveLength(2);
    const row = await deviceRow(server, d.id);
    expect(row.positionId).toBe(good);
    expect(row.status).toBe('online');
    expect(live.positions()).toEqual([]);
    expect((await admin.get<Array<{ id: number }>>(`/api/positions?deviceId=${d.id}`)).json.map((p) => p.id)).toEqual([good]);

    const clock = await clockOf(d.id);
    expect(clock).toMatchObject({ deviceId: d.id, state: 'ahead', tolerance: 600_000, timezone: null, timezoneValid: true });
    expect(Math.abs(clock.offset! - 8 * H)).toBeLessThan(5_000);

    // Nine minutes ahead is within the tolerance: the latest.
    expect((await osmand(server, `/?id=future-1&timestamp=${Math.floor((Date.now() + 9 * M) / 1000)}&lat=3&lon=3`)).status).toBe(200);
    expect((await deviceRow(server, d.id)).positionId).not.toBe(good);
    // A good latest received after the future fix: put right.
    expect((await clockOf(d.id)).state).toBe('ok');
  });

  it('the tolerance follows filter.future of the device (0 turns the rule off)', async () => {
    const d = await createDevice(server, 'future-2', { attributes: { 'filter.future': 0 } });
    expect((await osmand(server, `/?id=future-2&timestamp=${Math.floor((Date.now() + 2 * H) / 1000)}&lat=1&lon=1`)).status).toBe(200);
    expect((await deviceRow(server, d.id)).positionId).not.toBeNull();
    expect((await clockOf(d.id)).tolerance).toBeNull();
    const e = await createDevice(server, 'future-3', { attributes: { 'filter.future': 30 } });
    expect((await osmand(server, `/?id=future-3&timestamp=${Math.floor((Date.now() + 2 * M) / 1000)}&lat=1&lon=1`)).status).toBe(200);
    expect((await deviceRow(server, e.id)).positionId).toBeNull();
    expect((await clockOf(e.id)).state).toBe('ahead');
  });

  it('applies decoder.timezone to device-clock dates (GT06, H02), then the fix is the latest', async () => {
    const d = await createDevice(server, 'tz-1');
    const utcNow = Math.floor(Date.now() / 1000) * 1000;
    // The tracker's clock shows Shanghai time, and its dates carry no zone.
    const shanghaiWall = utcNow + 8 * H;
    await submit('tz-1', { clock: 'device', fixTime: shanghaiWall, deviceTime: shanghaiWall, latitude: 1, longitude: 1 });
    expect((await deviceRow(server, d.id)).positionId).toBeNull();
    expect((await clockOf(d.id)).state).toBe('ahead');

    const put = await admin.put(`/api/devices/${d.id}`, { id: d.id, name: 'tz-1', uniqueId: 'tz-1', attributes: { 'decoder.timezone': 'Asia/Shanghai' } });
    expect(put.status).toBe(200);
    await server.rastro.ctx.processing!.devices.find('tz-1');
    await waitFor(async () => {
      await submit('tz-1', { clock: 'device', fixTime: shanghaiWall + 1000, deviceTime: shanghaiWall + 1000, latitude: 1, longitude: 1 });
      return (await deviceRow(server, d.id)).positionId !== null;
    });
    const [latest] = (await admin.get<Array<{ fixTime: string }>>(`/api/positions?deviceId=${d.id}`)).json;
    expect(Date.parse(latest!.fixTime)).toBeGreaterThanOrEqual(utcNow + 1000);
    expect(Date.parse(latest!.fixTime)).toBeLessThan(utcNow + 60_000);
    expect(await clockOf(d.id)).toMatchObject({ state: 'ok', timezone: 'Asia/Shanghai', timezoneValid: true });

    // Inherited from the group; fixed offsets too. UTC dates are never shifted.
    const group = await admin.post<{ id: number }>('/api/groups', { name: 'Local clocks', attributes: { 'decoder.timezone': 'GMT-3' } });
    const g = await createDevice(server, 'tz-2', { groupId: group.json.id });
    const saoPauloWall = utcNow - 3 * H;
    await submit('tz-2', { clock: 'device', fixTime: saoPauloWall, deviceTime: saoPauloWall, latitude: 1, longitude: 1 });
    await submit('tz-2', { fixTime: utcNow + 5000, deviceTime: utcNow + 5000, latitude: 1, longitude: 1 });
    expect((await positionsOf(server, g.id)).map((p) => p.fixTime)).toEqual([utcNow, utcNow + 5000]);
  });

  it('says when decoder.timezone is not understood (dates are then read as UTC)', async () => {
    const d = await createDevice(server, 'tz-3', { attributes: { 'decoder.timezone': 'Brasilia' } });
    const t = Date.now() - M;
    await submit('tz-3', { clock: 'device', fixTime: t, deviceTime: t, latitude: 1, longitude: 1 });
    expect((await positionsOf(server, d.id)).map((p) => p.fixTime)).toEqual([t]);
    expect(await clockOf(d.id)).toMatchObject({ timezone: 'Brasilia', timezoneValid: false });
  });

  it('behind: the latest fixes keep the same offset hours behind the server', async () => {
    const d = await createDevice(server, 'behind-1');
    const now = Date.now();
    // Received 5 minutes apart, each dated 3 hours before it arrived (a tracker on Brasília time).
    await storeAt(d.id, now - 5 * M, now - 5 * M - 3 * H);
    const id = await storeAt(d.id, now, now - 3 * H);
    await server.rastro.ctx.storage.db.updateTable('devices').set({ positionId: id }).where('id', '=', d.id).execute();
    const clock = await clockOf(d.id);
    expect(clock.state).toBe('behind');
    expect(Math.round(clock.offset! / M)).toBe(-180);

    // A backlog: fixes an hour apart that arrived together is no clock problem.
    const e = await createDevice(server, 'behind-2');
    await storeAt(e.id, now - 1000, now - 2 * H);
    const last = await storeAt(e.id, now, now - H);
    await server.rastro.ctx.storage.db.updateTable('devices').set({ positionId: last }).where('id', '=', e.id).execute();
    expect((await clockOf(e.id)).state).toBe('ok');
  });

  it('answers the clock only for devices the caller sees', async () => {
    const d = await createDevice(server, 'clock-private');
    const res = await admin.post('/api/users', { name: 'Clock user', email: 'clock-user@test', password: 'clock-pass' });
    expect(res.status).toBe(200);
    const user = server.client();
    await user.login('clock-user@test', 'clock-pass');
    expect((await user.get(`/api/devices/${d.id}/clock`)).status).toBe(400);
    expect((await admin.get('/api/devices/999999/clock')).status).toBe(404);
    expect((await admin.get(`/api/devices/${d.id}/clock`)).json).toMatchObject({ state: 'unknown', offset: null });
  });

  async function storeAt(deviceId: number, serverTime: number, fixTime: number): Promise<number> {
    const row = await server.rastro.ctx.storage.db
      .insertInto('positions')
      .values({
        deviceId, protocol: 'h02', serverTime, deviceTime: fixTime, fixTime, valid: 1, latitude: 1, longitude: 1, altitude: 0, speed: 0,
        course: 0, address: null, accuracy: 0, network: null, geofenceIds: null, attributes: '{}',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
