// Geofence crossings people can trust (issue 14 item 3) over the real OsmAnd port on SQLite
// and PostgreSQL: a small zone between two sparse fixes still raises geofenceEnter then
// geofenceExit; a vehicle parked on a fence line does not storm; dwell time and exit buffer
// come from the geofence's attributes; invalid and out-of-order fixes fire nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsEngine } from '../src/events/engine.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { createDevice, osmand } from './ingest-helpers.ts';

const M_PER_DEG = (Math.PI / 180) * 6_378_137;
/** The point `north` / `east` metres from (lat, lon), as "lat=..&lon=..". */
const at = (lat: number, lon: number, north: number, east: number) =>
  `lat=${(lat + north / M_PER_DEG).toFixed(7)}&lon=${(lon + east / (M_PER_DEG * Math.cos((lat * Math.PI) / 180))).toFixed(7)}`;

describe.each(backends)('geofence crossings (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  const t0 = Math.floor(Date.now() / 1000) - 3600;

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.rastro.ctx.storage.db;
  const zoneEvents = async (deviceId: number) =>
    (await db().selectFrom('events').select(['type', 'positionId', 'geofenceId']).where('deviceId', '=', deviceId).where('type', 'like', 'geofence%').orderBy('id').execute())
      .map((e) => [e.type, Number(e.positionId), Number(e.geofenceId)] as const);
  const positionIds = async (deviceId: number) =>
    (await db().selectFrom('positions').select(['id', 'geofenceIds']).where('deviceId', '=', deviceId).orderBy('id').execute())
      .map((p) => ({ id: Number(p.id), geofenceIds: p.geofenceIds ? (JSON.parse(p.geofenceIds) as number[]) : null }));

  async function zone(deviceId: number, name: string, area: string, attributes: Record<string, unknown> = {}): Promise<number> {
    const res = await admin.post<{ id: number }>('/api/geofences', { name, area, attributes });
    expect(res.status).toBe(200);
    expect((await admin.post('/api/permissions', { deviceId, geofenceId: res.json.id })).status).toBe(204);
    await eventsEngine(server.rastro.ctx).geofences.settled();
    return res.json.id;
  }

  const send = async (uniqueId: string, s: number, query: string) => {
    const res = await osmand(server, `/?id=${uniqueId}&timestamp=${t0 + s}&${query}`);
    expect(res.status).toBe(200);
  };

  it('two sparse fixes straddling a small zone raise enter then exit, for a polygon, an anchor-sized circle and a line corridor', async () => {
    const device = await createDevice(server, 'cross-1');
    const [lat, lon] = [-23.6, -46.7];
    const c = (n: number, e: number) => at(lat, lon, n, e).replace('lat=', '').replace('&lon=', ' ');
    const yard = await zone(device.id, 'Yard', `POLYGON ((${c(0, 0)}, ${c(60, 0)}, ${c(60, 60)}, ${c(0, 60)}, ${c(0, 0)}))`);
    const anchor = await zone(device.id, 'Anchor', `CIRCLE (${c(30, 1030)}, 20)`);
    const road = await zone(device.id, 'Road', `LINESTRING (${c(-500, 2030)}, ${c(500, 2030)})`, { polylineDistance: 15 });
    const far = await zone(device.id, 'Far', `CIRCLE (${c(300, 1000)}, 20)`);

    // Fixes every ~1 km along the 30 m parallel: none lies in a zone.
    await send('cross-1', 0, `${at(lat, lon, 30, -500)}&speed=60`);
    await send('cross-1', 60, `${at(lat, lon, 30, 500)}&speed=60`);
    await send('cross-1', 120, `${at(lat, lon, 30, 1500)}&speed=60`);
    await send('cross-1', 180, `${at(lat, lon, 30, 2500)}&speed=60`);
    const positions = await positionIds(device.id);
    expect(positions.map((p) => p.geofenceIds)).toEqual([null, null, null, null]);
    const [, p1, p2, p3] = positions.map((p) => p.id);
    expect(await zoneEvents(device.id)).toEqual([
      ['geofenceEnter', p1, yard], ['geofenceExit', p1, yard],
      ['geofenceEnter', p2, anchor], ['geofenceExit', p2, anchor],
      ['geofenceEnter', p3, road], ['geofenceExit', p3, road],
    ]);
    expect((await zoneEvents(device.id)).some((e) => e[2] === far)).toBe(false);

  });

  it('a vehicle parked on the fence line with GPS drift fires one enter and no exit', async () => {
    const device = await createDevice(server, 'cross-2');
    const [lat, lon] = [-22.9, -43.2];
    const depot = await zone(device.id, 'Depot', `CIRCLE (${lat} ${lon}, 100)`);
    // Around the east edge (100 m), ±6 m: inside, outside, inside, …
    const drift = [94, 106, 97, 104, 95, 108, 99, 103, 96, 105];
    for (const [i, east] of drift.entries()) await send('cross-2', i * 30, `${at(lat, lon, 0, east)}&speed=0`);
    expect((await zoneEvents(device.id)).map((e) => e[0])).toEqual(['geofenceEnter']);
    // Driving away beyond the buffer is an exit.
    await send('cross-2', 400, `${at(lat, lon, 0, 300)}&speed=20`);
    expect((await zoneEvents(device.id)).map((e) => [e[0], e[2]])).toEqual([['geofenceEnter', depot], ['geofenceExit', depot]]);
  });

  it('dwellTime and exitBuffer attributes tune the zone', async () => {
    const device = await createDevice(server, 'cross-3');
    const [lat, lon] = [-25.4, -49.3];
    const gate = await zone(device.id, 'Gate', `CIRCLE (${lat} ${lon}, 50)`, { dwellTime: 60, exitBuffer: 30 });
    await send('cross-3', 0, `${at(lat, lon, 0, 0)}`);
    await send('cross-3', 30, `${at(lat, lon, 0, 10)}`);
    expect(await zoneEvents(device.id)).toEqual([]); // 30 s inside: not yet
    await send('cross-3', 70, `${at(lat, lon, 0, 5)}`);
    await send('cross-3', 100, `${at(lat, lon, 0, 75)}`); // 25 m out: within the 30 m buffer
    await send('cross-3', 130, `${at(lat, lon, 0, 90)}`); // 40 m out
    const ids = (await positionIds(device.id)).map((p) => p.id);
    expect(await zoneEvents(device.id)).toEqual([['geofenceEnter', ids[2], gate], ['geofenceExit', ids[4], gate]]);
    // A zone with a dwell time is not "crossed" by a pass between two fixes.
    await send('cross-3', 200, `${at(lat, lon, 0, -500)}`);
    expect(await zoneEvents(device.id)).toHaveLength(2);
  });

  it('invalid and out-of-order fixes never fire events', async () => {
    const device = await createDevice(server, 'cross-4');
    const [lat, lon] = [-15.8, -47.9];
    const base = await zone(device.id, 'Base', `CIRCLE (${lat} ${lon}, 100)`);
    await send('cross-4', 0, `${at(lat, lon, 0, 500)}`);
    await send('cross-4', 60, `${at(lat, lon, 0, 0)}&valid=false`); // inside, but flagged invalid
    await send('cross-4', 120, `${at(lat, lon, 0, 520)}`);
    // Late fix (older than the latest) inside the zone.
    await send('cross-4', 90, `${at(lat, lon, 0, 0)}`);
    expect(await zoneEvents(device.id)).toEqual([]);
    const positions = await positionIds(device.id);
    expect(positions.map((p) => p.geofenceIds)).toEqual([null, null, null, [base]]);
    // The jump 500 m → 520 m east does not cut the zone; the invalid fix's position is not used as an end.
    await send('cross-4', 180, `${at(lat, lon, 0, -500)}`);
    const last = (await positionIds(device.id)).at(-1)!.id;
    expect(await zoneEvents(device.id)).toEqual([['geofenceEnter', last, base], ['geofenceExit', last, base]]);
  });
});
