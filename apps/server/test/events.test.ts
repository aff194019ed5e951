// The events engine over real HTTP: a short OsmAnd track through the real port raises the
// position events (stored with their positions), status and inactivity events are stored
// without one, and every event reads back through GET /api/events/{id} with visibility checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '@rastro/domain/entities';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { createDevice, deviceRow, osmand } from './ingest-helpers.ts';
import { eventsEngine } from '../src/events/engine.ts';
import { expectSchema } from './openapi.ts';

/** Motion events (motion/) are another module's; these tests look at the rest. */
const MOTION = new Set(['deviceMoving', 'deviceStopped']);

describe.each(backends)('events engine (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_EVENT_STATUS_ENABLE: '1' });
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.rastro.ctx.storage.db;
  const eventsOf = async (deviceId: number) =>
    (await db().selectFrom('events').selectAll().where('deviceId', '=', deviceId).orderBy('id').execute()).filter((e) => !MOTION.has(e.type));

  it('a track through the OsmAnd port raises its events, read back by GET /api/events/{id}', async () => {
    const device = await createDevice(server, 'events-1', { attributes: { fuelDropThreshold: 5, speedLimit: 80 } });
    const geofence = await admin.post<{ id: number }>('/api/geofences', { name: 'Yard', area: 'CIRCLE (10 10, 500)', attributes: { speedLimit: 30 } });
    expect(geofence.status).toBe(200);
    expect((await admin.post('/api/permissions', { deviceId: device.id, geofenceId: geofence.json.id })).status).toBe(204);
    await eventsEngine(server.rastro.ctx).geofences.settled();

    const t0 = Math.floor(Date.now() / 1000) - 600;
    const report = async (s: number, query: string) => {
      const res = await osmand(server, `/?id=events-1&timestamp=${t0 + s}&${query}`);
      expect(res.status).toBe(200);
    };
    await report(0, 'lat=9.9&lon=10&speed=10&ignition=false&fuel=50');
    await report(60, 'lat=10&lon=10&speed=40&ignition=true&fuel=44&alarm=sos&driverUniqueId=D1');
    expect((await deviceRow(server, device.id)).overspeedState).toBe(1);
    await report(120, 'lat=10.001&lon=10&speed=45&ignition=true&fuel=44&alarm=sos&driverUniqueId=D1');
    await report(180, 'lat=9.9&lon=10&speed=10&ignition=false&fuel=44&result=relay%20off');
    // Out of order (older than the latest): stored, raises nothing, not even its command result.
    await report(30, 'lat=10&lon=10&speed=90&ignition=true&alarm=tow&result=late');

    const positions = await db().selectFrom('positions').select(['id', 'fixTime', 'geofenceIds']).where('deviceId', '=', device.id).orderBy('id').execute();
    expect(positions.map((p) => (p.geofenceIds ? JSON.parse(p.geofenceIds) : null))).toEqual([null, [geofence.json.id], [geofence.json.id], null, [geofence.json.id]]);
    const [p0, p1, , p3] = positions.map((p) => Number(p.id));
    const row = await deviceRow(server, device.id);
    expect(row.overspeedState).toBe(0);

    const stored = await eventsOf(device.id);
    const brief = stored.map((e) => [e.type, Number(e.positionId), Number(e.geofenceId)]);
    expect(brief).toEqual([
      ['deviceOnline', 0, 0],
      ['deviceOverspeed', p1, geofence.json.id],
      ['deviceFuelDrop', p1, 0],
      ['geofenceEnter', p1, geofence.json.id],
      ['alarm', p1, 0],
      ['ignitionOn', p1, 0],
      ['driverChanged', p1, 0],
      ['commandResult', p3, 0],
      ['geofenceExit', p3, 0 + geofence.json.id],
      ['ignitionOff', p3, 0],
    ]);
    expect(p0).toBeGreaterThan(0);

    const read = await Promise.all(stored.map((e) => admin.get<Event>(`/api/events/${e.id}`)));
    expect(read.map((r) => r.status)).toEqual(stored.map(() => 200));
    for (const r of read) expectSchema(r.json, 'Event');
    const byType = (type: string) => read.map((r) => r.json).find((e) => e.type === type)!;
    expect(byType('deviceOverspeed')).toMatchObject({ deviceId: device.id, positionId: p1, geofenceId: geofence.json.id, maintenanceId: 0, attributes: { speed: 40, speedLimit: 30 } });
    expect(Date.parse(byType('deviceOverspeed').eventTime)).toBe((t0 + 60) * 1000);
    expect(byType('deviceFuelDrop').attributes).toEqual({ before: 50, after: 44 });
    expect(byType('alarm').attributes).toEqual({ alarm: 'sos' });
    expect(byType('driverChanged').attributes).toEqual({ driverUniqueId: 'D1' });
    expect(read.filter((r) => r.json.type === 'commandResult').map((r) => r.json.attributes)).toEqual([{ result: 'relay off' }]);
    expect(Math.abs(Date.parse(byType('deviceOnline').eventTime) - Date.now())).toBeLessThan(60_000);

    // Visibility: a user without the device is refused; a missing event is 404.
    const pw = 'user-pass';
    const user = await admin.post<{ id: number }>('/api/users', { name: 'Events user', email: 'events-user@test', password: pw });
    expect(user.status).toBe(200);
    const client = server.client();
    await client.login('events-user@test', pw);
    expect((await client.get(`/api/events/${stored[0]!.id}`)).status).toBe(400);
    expect((await admin.post('/api/permissions', { userId: user.json.id, deviceId: device.id })).status).toBe(204);
    expect((await client.get<Event>(`/api/events/${stored[0]!.id}`)).json).toMatchObject({ id: Number(stored[0]!.id), type: 'deviceOnline' });
    expect((await admin.get('/api/events/999999999')).status).toBe(404);
    expect((await server.client().get(`/api/events/${stored[0]!.id}`)).status).toBe(401);
  });

  it('a restarted server continues the overspeed episode and the geofence state of the device', async () => {
    const device = await createDevice(server, 'events-3', { attributes: { speedLimit: 50 } });
    const geofence = await admin.post<{ id: number }>('/api/geofences', { name: 'Depot', area: 'CIRCLE (20 20, 500)' });
    expect((await admin.post('/api/permissions', { deviceId: device.id, geofenceId: geofence.json.id })).status).toBe(204);
    await eventsEngine(server.rastro.ctx).geofences.settled();
    const t0 = Math.floor(Date.now() / 1000) - 600;
    expect((await osmand(server, `/?id=events-3&timestamp=${t0}&lat=20&lon=20&speed=70`)).status).toBe(200);
    expect((await deviceRow(server, device.id)).overspeedState).toBe(1);

    // A second server over the same database starts from what the first stored.
    const restarted = await startTestServer(backend, { RASTRO_EVENT_STATUS_ENABLE: '1' }, { shareDatabaseWith: server });
    try {
      expect((await osmand(restarted, `/?id=events-3&timestamp=${t0 + 60}&lat=20.001&lon=20&speed=75`)).status).toBe(200);
      expect((await osmand(restarted, `/?id=events-3&timestamp=${t0 + 120}&lat=21&lon=20&speed=20`)).status).toBe(200);
    } finally {
      await restarted.close();
    }
    const types = (await eventsOf(device.id)).filter((e) => !e.type.startsWith('device') || e.type === 'deviceOverspeed').map((e) => e.type);
    expect(types).toEqual(['deviceOverspeed', 'geofenceEnter', 'geofenceExit']);
    expect((await deviceRow(server, device.id)).overspeedState).toBe(0);
  });

  it('status sweep, inactivity check and queued commands store position-less / linked events', async () => {
    const device = await createDevice(server, 'events-2', { attributes: { deviceInactivityStart: 60_000 } });
    expect((await osmand(server, '/?id=events-2&lat=1&lon=1')).status).toBe(200);
    const processing = server.rastro.ctx.processing!;
    const lastUpdate = (await deviceRow(server, device.id)).lastUpdate!;

    expect(processing.status.sweep(Date.now() + 3_600_000)).toBeGreaterThanOrEqual(1);
    const raised = await processing.inactivity.check(Number(lastUpdate) + 60_000 + 1);
    expect(raised.map((r) => r.entry.id)).toContain(device.id);
    await processing.writer.drain();

    const send = await admin.post<{ id: number }>('/api/commands/send', { deviceId: device.id, type: 'custom', attributes: { data: 'ping' } });
    expect(send.status).toBe(202);
    expect(await osmand(server, '/?id=events-2&lat=1&lon=1')).toEqual({ status: 200, text: 'ping' });

    const stored = await eventsOf(device.id);
    expect(stored.map((e) => e.type)).toEqual(['deviceOnline', 'deviceUnknown', 'deviceInactive', 'deviceOnline', 'queuedCommandSent']);
    const read = await Promise.all(stored.map(async (e) => (await admin.get<Event>(`/api/events/${e.id}`)).json));
    expect(read[1]).toMatchObject({ type: 'deviceUnknown', positionId: 0 });
    expect(read[2]).toMatchObject({ type: 'deviceInactive', positionId: 0, attributes: { lastUpdate: Number(lastUpdate) } });
    expect(read[4]).toMatchObject({ type: 'queuedCommandSent', attributes: { id: send.json.id } });
    expect(read[4]!.positionId).toBe(Number((await deviceRow(server, device.id)).positionId));
  });
});
