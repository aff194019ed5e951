// Reports through HTTP with known answers: tracks posted to the real OsmAnd port go through
// the pipeline (distance, totalDistance) and come back as route, summary (also daily across
// a local midnight) and events; spreadsheets are opened with exceljs. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { Device, Group, Position } from '@rastro/domain/entities';
import { knotsFromMps } from '@rastro/domain/units';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectArrayOf, expectResponse, openApiDocument } from './openapi.ts';
import { osmand } from './ingest-helpers.ts';
import { create, link, makeUser, setServer, type TestUser } from './visibility-fixtures.ts';
import { summaryRows } from '../src/reports/summary.ts';
import { devicesByIds } from '../src/reports/reports-repo.ts';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const SP = 'America/Sao_Paulo';
// 2024-06-01 23:00 in São Paulo (-03:00): the track crosses local midnight at its 7th point.
const T0 = Date.parse('2024-06-02T02:00:00Z');
const MIN = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const q = (ms: number) => encodeURIComponent(iso(ms));
// One leg of 0.01° along a meridian, as the pipeline measures it (haversine, equatorial radius).
const LEG = Math.round(6_378_137 * ((0.01 * Math.PI) / 180) * 100) / 100;

/** Content types the OpenAPI file documents for a path's 200 answer. */
function documentedTypes(apiPath: string): string[] {
  const op = openApiDocument().paths[apiPath]?.get as { responses?: Record<string, { content?: Record<string, unknown> }> } | undefined;
  return Object.keys(op?.responses?.['200']?.content ?? {});
}

interface Summary {
  deviceId: number; deviceName: string; distance: number; averageSpeed: number; maxSpeed: number; spentFuel: number;
  engineHours: number; startTime: string; endTime: string; startOdometer: number; endOdometer: number; startHours: number; endHours: number;
}
interface EventJson { id: number; type: string; eventTime: string; deviceId: number; geofenceId: number; attributes: Record<string, unknown> }

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Track A: 12 points, 10 min apart, 0.01° north each, device odometer +1000 m, engine hours +10 min, fuel used +0.5 l. */
const SPEEDS_A = [0, 12, 20.5, 30, 25, 18, 40, 42.5, 33, 10, 5, 0];
const trackA = SPEEDS_A.map((speed, i) => ({
  t: T0 + i * 10 * MIN, lat: -23.5 + i * 0.01, lon: -46.6, speed,
  extra: `&odometer=${1_000_000 + i * 1000}&hours=${36_000_000 + i * 600_000}&fuelUsed=${100 + i * 0.5}`,
}));

describe.each(backends)('reports API (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestUser;
  let stranger: TestUser;
  let a: Device; // odometer, hours, fuel
  let b: Device; // plain track: distance from totalDistance
  let c: Device; // posted out of order
  let d: Device; // only through groups
  let f: Device; // events only (never reports, so the events engine adds none of its own)
  let parent: Group;
  const eventIds: number[] = [];

  async function post(device: Device, point: { t: number; lat: number; lon: number; speed: number; extra?: string }) {
    const res = await osmand(server, `/?id=${device.uniqueId}&timestamp=${point.t / 1000}&lat=${point.lat}&lon=${point.lon}&speed=${point.speed}${point.extra ?? ''}`);
    expect(res.status).toBe(200);
  }
  async function stored(deviceId: number, count: number) {
    const db = server.rastro.ctx.storage.db;
    await until(`${count} positions of device ${deviceId}`, async () => {
      const row = await db.selectFrom('positions').select((eb) => eb.fn.countAll<number>().as('n')).where('deviceId', '=', deviceId).executeTakeFirstOrThrow();
      return Number(row.n) >= count ? true : undefined;
    });
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    user = await makeUser(server, 'reports-user@test', {
      attributes: JSON.stringify({ timezone: SP, language: 'es', speedUnit: 'kmh', distanceUnit: 'km' }),
    });
    stranger = await makeUser(server, 'reports-stranger@test');
    parent = await create<Group>(admin, '/api/groups', { name: 'Fleet' });
    const child = await create<Group>(admin, '/api/groups', { name: 'Fleet / North', groupId: parent.id });
    a = await create<Device>(admin, '/api/devices', { name: 'Alpha', uniqueId: 'rep-a' });
    b = await create<Device>(admin, '/api/devices', { name: 'Bravo', uniqueId: 'rep-b' });
    c = await create<Device>(admin, '/api/devices', { name: 'Charlie', uniqueId: 'rep-c' });
    d = await create<Device>(admin, '/api/devices', { name: 'Delta', uniqueId: 'rep-d', groupId: child.id });
    f = await create<Device>(admin, '/api/devices', { name: 'Foxtrot', uniqueId: 'rep-f' });
    await link(server, 'userDevice', user.row.id, a.id);
    await link(server, 'userDevice', user.row.id, b.id);
    await link(server, 'userDevice', user.row.id, c.id);
    await link(server, 'userDevice', user.row.id, f.id);
    await link(server, 'userGroup', user.row.id, parent.id);

    for (const p of trackA) await post(a, p);
    for (let i = 0; i < 5; i++) await post(b, { t: T0 + i * MIN, lat: -23.5 + i * 0.01, lon: -46.6, speed: 10 + i });
    for (const m of [30, 10, 20]) await post(c, { t: T0 + m * MIN, lat: -23.6, lon: -46.7, speed: m });
    await post(d, { t: T0, lat: -23.7, lon: -46.8, speed: 7 });
    await post(d, { t: T0 + MIN, lat: -23.7, lon: -46.8, speed: 3 });
    await stored(a.id, trackA.length);
    await stored(b.id, 5);
    await stored(c.id, 3);
    await stored(d.id, 2);

    // Events (the events engine writes these; here they are arranged directly).
    const db = server.rastro.ctx.storage.db;
    const geofence = await create<{ id: number }>(admin, '/api/geofences', { name: 'Hidden', area: 'CIRCLE (-23.5 -46.6, 100)' });
    const events = [
      { type: 'deviceMoving', eventTime: T0 + 10 * MIN, geofenceId: 0, attributes: '{}' },
      { type: 'alarm', eventTime: T0 + 20 * MIN, geofenceId: 0, attributes: JSON.stringify({ alarm: 'sos' }) },
      { type: 'alarm', eventTime: T0 + 30 * MIN, geofenceId: 0, attributes: JSON.stringify({ alarm: 'overspeed' }) },
      { type: 'geofenceEnter', eventTime: T0 + 40 * MIN, geofenceId: geofence.id, attributes: '{}' },
      { type: 'deviceStopped', eventTime: T0 + 300 * MIN, geofenceId: 0, attributes: '{}' },
    ];
    for (const e of events) {
      const row = await db.insertInto('events').values({ ...e, deviceId: f.id, positionId: 0, maintenanceId: 0 }).returning('id').executeTakeFirstOrThrow();
      eventIds.push(Number(row.id));
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const range = (from: number, to: number) => `from=${q(from)}&to=${q(to)}`;
  const whole = range(T0 - MIN, T0 + 200 * MIN);

  describe('validation and access', () => {
    it('refuses a missing, malformed or reversed period with a clear 400', async () => {
      for (const kind of ['route', 'summary', 'events']) {
        const missing = await user.client.get(`/api/reports/${kind}?deviceId=${a.id}&to=${q(T0)}`);
        expect(missing.status).toBe(400);
        expect(missing.text).toMatch(/^Missing from/);
        const bad = await user.client.get(`/api/reports/${kind}?deviceId=${a.id}&from=${q(T0)}&to=yesterday`);
        expect(bad.status).toBe(400);
        expect(bad.text).toMatch(/^Invalid to/);
        const zoneless = await user.client.get(`/api/reports/${kind}?deviceId=${a.id}&from=2024-06-01T10:00:00&to=${q(T0)}`);
        expect(zoneless.status).toBe(400);
        const reversed = await user.client.get(`/api/reports/${kind}?deviceId=${a.id}&${range(T0, T0 - 1)}`);
        expect(reversed.status).toBe(400);
        expect(reversed.text).toMatch(/^Invalid period - from must not be later than to/);
        // Not a number at all: Traccar's 404.
        const bogusId = await user.client.get(`/api/reports/${kind}?deviceId=abc&${whole}`);
        expect(bogusId.status).toBe(404);
      }
    });

    it('needs a session; refuses users without reports', async () => {
      expect((await server.client().get(`/api/reports/summary?deviceId=${a.id}&${whole}`)).status).toBe(401);
      const restricted = await makeUser(server, 'reports-none@test', { disableReports: 1 });
      await link(server, 'userDevice', restricted.row.id, a.id);
      const res = await restricted.client.get(`/api/reports/route?deviceId=${a.id}&${whole}`);
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/^Reports are disabled/);
      await setServer(server, { disableReports: 1 });
      try {
        expect((await user.client.get(`/api/reports/summary?deviceId=${a.id}&${whole}`)).status).toBe(400);
        expect((await admin.get(`/api/reports/summary?deviceId=${a.id}&${whole}`)).status).toBe(200);
      } finally {
        await setServer(server, { disableReports: 0 });
      }
    });

    it('refuses a period longer than the server attribute report.periodLimit (seconds)', async () => {
      await setServer(server, { attributes: JSON.stringify({ 'report.periodLimit': 3600 }) });
      try {
        const long = await user.client.get(`/api/reports/route?deviceId=${a.id}&${range(T0, T0 + 3_600_001)}`);
        expect(long.status).toBe(400);
        expect(long.text).toMatch(/^Invalid period - reports cover at most 3600 seconds/);
        expect((await user.client.get(`/api/reports/route?deviceId=${a.id}&${range(T0, T0 + 3_600_000)}`)).status).toBe(200);
      } finally {
        await setServer(server, { attributes: '{}' });
      }
    });

    it('leaves out devices the caller cannot see, as Traccar', async () => {
      const res = await stranger.client.get<Position[]>(`/api/reports/route?deviceId=${a.id}&${whole}`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual([]);
      expect((await stranger.client.get(`/api/reports/summary?groupId=${parent.id}&${whole}`)).json).toEqual([]);
      expect((await stranger.client.get(`/api/reports/events?deviceId=${f.id}&${whole}`)).json).toEqual([]);
    });

    it('expands groups to their subgroups\' devices; no ids means every visible device', async () => {
      const byGroup = await user.client.get<Summary[]>(`/api/reports/summary?groupId=${parent.id}&${whole}`);
      expect(byGroup.json.map((s) => s.deviceId)).toEqual([d.id]);
      const mixed = await user.client.get<Summary[]>(`/api/reports/summary?groupId=${parent.id}&deviceId=${b.id}&deviceId=${b.id}&${whole}`);
      expect(mixed.json.map((s) => s.deviceName)).toEqual(['Bravo', 'Delta']);
      const all = await user.client.get<Summary[]>(`/api/reports/summary?${whole}`);
      expect(all.json.map((s) => s.deviceName)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
    });
  });

  describe('route', () => {
    it('answers positions by fixTime within inclusive bounds, per device (contract: Position)', async () => {
      const res = await user.client.get<Position[]>(`/api/reports/route?deviceId=${a.id}&deviceId=${c.id}&${range(T0 + 10 * MIN, T0 + 30 * MIN)}`);
      expect(res.status).toBe(200);
      // Streamed: no length known in advance.
      expect(res.headers.get('transfer-encoding')).toBe('chunked');
      expect(res.headers.get('content-length')).toBeNull();
      expectResponse('get', '/reports/route', res);
      expectArrayOf(res.json, 'Position', { minLength: 6 });
      expect(res.json.map((p) => [p.deviceId, p.fixTime])).toEqual([
        [a.id, iso(T0 + 10 * MIN).replace('Z', '+00:00')],
        [a.id, iso(T0 + 20 * MIN).replace('Z', '+00:00')],
        [a.id, iso(T0 + 30 * MIN).replace('Z', '+00:00')],
        // Charlie's points were posted 30, 10, 20: the report orders them.
        [c.id, iso(T0 + 10 * MIN).replace('Z', '+00:00')],
        [c.id, iso(T0 + 20 * MIN).replace('Z', '+00:00')],
        [c.id, iso(T0 + 30 * MIN).replace('Z', '+00:00')],
      ]);
      expect(res.json[0]).toMatchObject({ speed: 12, latitude: -23.49, attributes: { odometer: 1_001_000 } });
    });

    it('is empty for a period without positions', async () => {
      const res = await user.client.get<Position[]>(`/api/reports/route?deviceId=${a.id}&${range(T0 - 100 * MIN, T0 - MIN)}`);
      expect(res.status).toBe(200);
      expect(res.json).toEqual([]);
    });
  });

  describe('summary', () => {
    it('distance from the device odometer, max speed, engine hours, average speed = distance / engine hours, fuel', async () => {
      const res = await user.client.get<Summary[]>(`/api/reports/summary?deviceId=${a.id}&${whole}`);
      expect(res.status).toBe(200);
      expectResponse('get', '/reports/summary', res);
      expectArrayOf(res.json, 'ReportSummary', { minLength: 1 });
      const s = res.json[0]!;
      const engineHours = 11 * 600_000;
      expect(s).toMatchObject({
        deviceId: a.id, deviceName: 'Alpha', distance: 11_000, maxSpeed: 42.5, engineHours,
        startOdometer: 1_000_000, endOdometer: 1_011_000, startHours: 36_000_000, endHours: 36_000_000 + engineHours,
        startTime: iso(T0).replace('Z', '+00:00'), endTime: iso(T0 + 110 * MIN).replace('Z', '+00:00'), spentFuel: 5.5,
      });
      expect(s.averageSpeed).toBeCloseTo(knotsFromMps(11_000 / (engineHours / 1000)), 9);
      expect(s.averageSpeed).toBeCloseTo(3.2397, 3);
    });

    it('distance from totalDistance when there is no odometer; averageSpeed 0 without engine hours', async () => {
      const res = await user.client.get<Summary[]>(`/api/reports/summary?deviceId=${b.id}&${whole}`);
      const s = res.json[0]!;
      expect(s.distance).toBeCloseTo(4 * LEG, 1);
      expect(s).toMatchObject({ maxSpeed: 14, engineHours: 0, averageSpeed: 0, startOdometer: 0 });
      expect(s.endOdometer).toBeCloseTo(4 * LEG, 1);
    });

    it('report.ignoreOdometer (device attribute) takes the distance from totalDistance', async () => {
      const e = await create<Device>(admin, '/api/devices', { name: 'Echo', uniqueId: 'rep-e', attributes: { 'report.ignoreOdometer': true } });
      for (let i = 0; i < 3; i++) await post(e, { t: T0 + i * MIN, lat: -23.5 + i * 0.01, lon: -46.6, speed: 5, extra: `&odometer=${1_000_000 + i * 5_000}` });
      await stored(e.id, 3);
      const res = await admin.get<Summary[]>(`/api/reports/summary?deviceId=${e.id}&${whole}`);
      expect(res.json[0]!.distance).toBeCloseTo(2 * LEG, 1);
      expect(res.json[0]!.startOdometer).toBe(0);
    });

    it('a sub-range reads only its own edges', async () => {
      const res = await user.client.get<Summary[]>(`/api/reports/summary?deviceId=${a.id}&${range(T0 + 15 * MIN, T0 + 45 * MIN)}`);
      // Points 2, 3, 4: two legs, speeds 20.5, 30, 25.
      expect(res.json[0]).toMatchObject({ distance: 2000, maxSpeed: 30, engineHours: 1_200_000 });
    });

    it('daily=true splits at midnight of the user\'s time zone (São Paulo), not UTC', async () => {
      const res = await user.client.get<Summary[]>(`/api/reports/summary?deviceId=${a.id}&daily=true&${whole}`);
      expect(res.status).toBe(200);
      expectArrayOf(res.json, 'ReportSummary');
      // Points 0–5 are on June 1 (23:00–23:50 local), points 6–11 on June 2 (00:00–00:50 local).
      // As in Traccar, a day runs to the next midnight included: point 6 (00:00) closes June 1
      // and opens June 2, so the days' distances add up to the period's.
      expect(res.json.map((s) => [s.startTime, s.endTime, s.distance, s.maxSpeed, s.engineHours])).toEqual([
        [iso(T0).replace('Z', '+00:00'), iso(T0 + 60 * MIN).replace('Z', '+00:00'), 6000, 40, 3_600_000],
        [iso(T0 + 60 * MIN).replace('Z', '+00:00'), iso(T0 + 110 * MIN).replace('Z', '+00:00'), 5000, 42.5, 3_000_000],
      ]);
      // The admin has no time zone: the server's decides; set it to UTC and the track is one day.
      await setServer(server, { attributes: JSON.stringify({ timezone: 'UTC' }) });
      try {
        const utc = await admin.get<Summary[]>(`/api/reports/summary?deviceId=${a.id}&daily=true&${whole}`);
        expect(utc.json).toHaveLength(1);
        expect(utc.json[0]).toMatchObject({ distance: 11_000 });
      } finally {
        await setServer(server, { attributes: '{}' });
      }
    });

    // Alpha's track goes through the live motion machine, which stores segments (a stop at its
    // start, today): the fast path then joins stored segments with position edges.
    it('over HTTP, path=slow (full scan) answers what the default fast path answers', async () => {
      for (const query of [whole, `daily=true&${whole}`, range(T0 + 15 * MIN, T0 + 65 * MIN), `daily=true&${range(T0 + 55 * MIN, T0 + 65 * MIN)}`]) {
        const fast = await user.client.get<Summary[]>(`/api/reports/summary?${query}`);
        const slow = await user.client.get<Summary[]>(`/api/reports/summary?path=slow&${query}`);
        expect(fast.json.length).toBeGreaterThan(0);
        expect(slow.json).toEqual(fast.json);
      }
      expect((await user.client.get(`/api/reports/summary?path=quick&${whole}`)).status).toBe(400);
    });

    it('fast path equals the streaming scan (whole and daily)', async () => {
      const db = server.rastro.ctx.storage.db;
      const devices = await devicesByIds(db, [a.id, b.id, c.id, d.id]);
      for (const daily of [null, { timeZone: SP }, { timeZone: 'Asia/Kolkata' }]) {
        for (const [from, to] of [[T0 - MIN, T0 + 200 * MIN], [T0 + 15 * MIN, T0 + 65 * MIN], [T0 + 60 * MIN, T0 + 60 * MIN]] as const) {
          const fast = [];
          for await (const s of summaryRows(db, devices, from, to, {}, daily, 'fast')) fast.push(s);
          const scan = [];
          for await (const s of summaryRows(db, devices, from, to, {}, daily, 'scan')) scan.push(s);
          expect(fast).toEqual(scan);
        }
      }
    });
  });

  describe('events', () => {
    const types = (list: EventJson[]) => list.map((e) => e.type);

    it('every type by default, with type=allEvents or %, in eventTime order (contract: Event)', async () => {
      for (const filter of ['', '&type=allEvents', '&type=%25']) {
        const res = await admin.get<EventJson[]>(`/api/reports/events?deviceId=${f.id}${filter}&${range(T0, T0 + 300 * MIN)}`);
        expect(res.status).toBe(200);
        expectResponse('get', '/reports/events', res);
        expectArrayOf(res.json, 'Event');
        expect(types(res.json)).toEqual(['deviceMoving', 'alarm', 'alarm', 'geofenceEnter', 'deviceStopped']);
      }
    });

    it('filters by repeated or comma-separated type, by alarm, and by period', async () => {
      const alarms = await user.client.get<EventJson[]>(`/api/reports/events?deviceId=${f.id}&type=alarm&${whole}`);
      expect(alarms.json.map((e) => e.attributes.alarm)).toEqual(['sos', 'overspeed']);
      const two = await user.client.get<EventJson[]>(`/api/reports/events?deviceId=${f.id}&type=alarm&type=deviceMoving&${whole}`);
      expect(types(two.json)).toEqual(['deviceMoving', 'alarm', 'alarm']);
      const comma = await user.client.get<EventJson[]>(`/api/reports/events?deviceId=${f.id}&type=deviceMoving,alarm&${whole}`);
      expect(types(comma.json)).toEqual(['deviceMoving', 'alarm', 'alarm']);
      const sos = await user.client.get<EventJson[]>(`/api/reports/events?deviceId=${f.id}&type=alarm&alarm=sos&${whole}`);
      expect(sos.json.map((e) => e.id)).toEqual([eventIds[1]]);
      const period = await user.client.get<EventJson[]>(`/api/reports/events?deviceId=${f.id}&${range(T0 + 20 * MIN, T0 + 30 * MIN)}`);
      expect(period.json.map((e) => e.id)).toEqual([eventIds[1], eventIds[2]]);
      const none = await user.client.get<EventJson[]>(`/api/reports/events?deviceId=${f.id}&type=ignitionOn&${whole}`);
      expect(none.json).toEqual([]);
    });

    it('drops events of geofences the caller cannot see', async () => {
      const res = await user.client.get<EventJson[]>(`/api/reports/events?deviceId=${f.id}&${range(T0, T0 + 300 * MIN)}`);
      expect(types(res.json)).toEqual(['deviceMoving', 'alarm', 'alarm', 'deviceStopped']);
    });
  });

  describe('spreadsheets', () => {
    async function workbook(res: { status: number; headers: Headers }, body: ArrayBuffer) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain(XLSX);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(body);
      return wb;
    }
    async function download(client: TestClient, path: string, headers: Record<string, string> = { accept: XLSX }) {
      const res = await fetch(server.url + path, { headers: { ...headers, cookie: client.cookie ?? '' } });
      const body = await res.arrayBuffer();
      return { res, body };
    }
    const row = (ws: ExcelJS.Worksheet, n: number) => (ws.getRow(n).values as unknown[]).slice(1);

    it('summary: one sheet, Spanish headers, km/h and km, times in São Paulo', async () => {
      const { res, body } = await download(user.client, `/api/reports/summary?deviceId=${a.id}&deviceId=${b.id}&${whole}`);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="resumen_2024-06-01_2024-06-02.xlsx"');
      expect(documentedTypes('/reports/summary')).toContain(XLSX);
      const wb = await workbook(res, body);
      expect(wb.worksheets.map((w) => w.name)).toEqual(['Resumen']);
      const ws = wb.worksheets[0]!;
      expect(row(ws, 1)).toEqual([
        'Dispositivo', 'Inicio', 'Fin', 'Distancia (km)', 'Odómetro inicial (km)', 'Odómetro final (km)',
        'Velocidad media (km/h)', 'Velocidad máxima (km/h)', 'Horas de motor', 'Combustible gastado (l)',
      ]);
      const alpha = row(ws, 2);
      expect(alpha[0]).toBe('Alpha');
      // 23:00 on June 1 in São Paulo, written as the wall clock.
      expect((alpha[1] as Date).toISOString()).toBe('2024-06-01T23:00:00.000Z');
      expect((alpha[2] as Date).toISOString()).toBe('2024-06-02T00:50:00.000Z');
      expect(alpha[3]).toBe(11);
      expect(alpha[4]).toBe(1000);
      expect(alpha[6]).toBeCloseTo(6, 2); // 3.2397 kn × 1.852
      expect(alpha[7]).toBe(78.71); // 42.5 kn × 1.852
      // 1 h 50 min of engine hours as an Excel duration ([h]:mm:ss; exceljs reads it back as a time of day 0).
      expect((alpha[8] as Date).toISOString()).toBe('1899-12-30T01:50:00.000Z');
      expect(alpha[9]).toBe(5.5);
      expect(row(ws, 3)[0]).toBe('Bravo');
      expect(ws.rowCount).toBe(3);
    });

    it('route: one sheet per device, by name; /xlsx path form; language from Accept-Language when the user has none', async () => {
      await setServer(server, { attributes: JSON.stringify({ timezone: 'UTC', speedUnit: 'kn' }) });
      try {
        const { res, body } = await download(admin, `/api/reports/route/xlsx?deviceId=${c.id}&deviceId=${a.id}&${range(T0, T0 + 20 * MIN)}`, { 'accept-language': 'en-US,en;q=0.8' });
        expect(res.headers.get('content-disposition')).toBe('attachment; filename="route_2024-06-02_2024-06-02.xlsx"');
        expect(documentedTypes('/reports/route/{type}')).toContain(XLSX);
        const wb = await workbook(res, body);
        expect(wb.worksheets.map((w) => w.name)).toEqual(['Alpha', 'Charlie']);
        const alpha = wb.getWorksheet('Alpha')!;
        expect(row(alpha, 1)).toEqual(['Fix time', 'Latitude', 'Longitude', 'Speed (kn)', 'Course', 'Altitude (m)', 'Total distance (mi)', 'Address']);
        expect(alpha.rowCount).toBe(4);
        expect((row(alpha, 2)[0] as Date).toISOString()).toBe('2024-06-02T02:00:00.000Z');
        expect(row(alpha, 3).slice(1, 4)).toEqual([-23.49, -46.6, 12]);
        expect(wb.getWorksheet('Charlie')!.rowCount).toBe(3);
      } finally {
        await setServer(server, { attributes: '{}' });
      }
    });

    it('events: Portuguese by the user\'s tarkan.lang, event names translated', async () => {
      const pt = await makeUser(server, 'reports-pt@test', { attributes: JSON.stringify({ 'tarkan.lang': 'pt-BR', timezone: SP }) });
      await link(server, 'userDevice', pt.row.id, f.id);
      const { res, body } = await download(pt.client, `/api/reports/events?deviceId=${f.id}&type=alarm&type=deviceMoving&${whole}`);
      const wb = await workbook(res, body);
      expect(wb.worksheets.map((w) => w.name)).toEqual(['Foxtrot']);
      const ws = wb.worksheets[0]!;
      expect(row(ws, 1)).toEqual(['Hora', 'Tipo', 'Alarme', 'Cerca virtual']);
      expect(row(ws, 2).slice(0, 2)).toEqual([new Date('2024-06-01T23:10:00.000Z'), 'Em movimento']);
      expect(row(ws, 3).slice(1, 3)).toEqual(['Alarme', 'sos']);
      expect(ws.rowCount).toBe(4);
    });

    it('events: the geofence column names the geofence', async () => {
      const { res, body } = await download(admin, `/api/reports/events/xlsx?deviceId=${f.id}&type=geofenceEnter&${whole}`, { 'accept-language': 'en' });
      const ws = (await workbook(res, body)).worksheets[0]!;
      expect(row(ws, 1)).toEqual(['Time', 'Type', 'Alarm', 'Geofence']);
      expect(row(ws, 2).slice(1)).toEqual(['Entered geofence', undefined, 'Hidden']);
    });

    it('an empty report is still a workbook with its headers', async () => {
      const { res, body } = await download(user.client, `/api/reports/summary?deviceId=${a.id}&${range(T0 - 100 * MIN, T0 - MIN)}`);
      const wb = await workbook(res, body);
      expect(wb.worksheets).toHaveLength(1);
      expect(wb.worksheets[0]!.rowCount).toBe(1);
    });
  });
});
