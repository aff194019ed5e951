// Trips and stops with known answers (issue 5, point 5): synthetic tracks go through the real
// pipeline (the OsmAnd port for one, pipeline.submit for the long ones), the live motion step
// stores events and segments, and /api/reports/trips and /stops are checked over HTTP — the
// fast path (stored segments + replayed edges) equal to the slow path (full replay) for many
// periods. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Group } from '@rastro/domain/entities';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { osmand } from './ingest-helpers.ts';
import { expectArrayOf } from './openapi.ts';
import { create, link, makeUser, type TestUser } from './visibility-fixtures.ts';
import { motionSegmentsOf, motionStatesOf, prepareFast } from '../src/motion/motion-report.ts';
import { MOTION_DEFAULTS } from '../src/motion/motion-state.ts';
import { emptyFix } from '../src/ingest/decoded.ts';

// 22:00 UTC: tracks cross midnight.
const T0 = Date.parse('2024-03-09T22:00:00Z');
const M_PER_DEG = (Math.PI / 180) * 6_378_137;
const BASE_LAT = -23.5;
const iso = (ms: number) => new Date(ms).toISOString();
const times = (items: Array<{ startTime: string; endTime: string }>) => items.map((i) => [Date.parse(i.startTime) / 1000 - T0 / 1000, Date.parse(i.endTime) / 1000 - T0 / 1000]);
const q = (ms: number) => encodeURIComponent(iso(ms));
const at = (s: number) => T0 + s * 1000;

interface Point {
  t: number; // seconds from T0
  x: number; // metres north of the start
  speed: number; // knots
  attributes?: Record<string, unknown>;
}

/** A track: positions every `step` seconds along a meridian. */
class Track {
  readonly points: Point[] = [];
  t = 0;
  x = 0;
  private n = 0;
  constructor(private readonly step = 30) {
    this.add(0);
  }
  add(speed: number, attributes?: Record<string, unknown>, jitter = 0): this {
    this.n++;
    const wobble = jitter ? ((((this.n * 7919) % 13) / 12) - 0.5) * 2 * jitter : 0;
    this.points.push({ t: this.t, x: this.x + wobble, speed, ...(attributes ? { attributes } : {}) });
    return this;
  }
  park(seconds: number, attributes?: Record<string, unknown>, jitter = 0): this {
    for (let s = 0; s < seconds; s += this.step) {
      this.t += this.step;
      this.add(0, attributes, jitter);
    }
    return this;
  }
  drive(seconds: number, mps: number, attributes?: Record<string, unknown>): this {
    for (let s = 0; s < seconds; s += this.step) {
      this.t += this.step;
      this.x += mps * this.step;
      this.add(mps / 0.514444, attributes);
    }
    return this;
  }
  jump(seconds: number, metres: number, speed: number, attributes?: Record<string, unknown>): this {
    this.t += seconds;
    this.x += metres;
    return this.add(speed, attributes);
  }
}

interface TripJson {
  deviceId: number; startTime: string; endTime: string; distance: number; duration: number; maxSpeed: number; averageSpeed: number;
  startPositionId: number; endPositionId: number; startLat: number; endLat: number; startOdometer: number; endOdometer: number;
}
interface StopJson { deviceId: number; startTime: string; endTime: string; duration: number; positionId: number; latitude: number; engineHours: number }

/** Track A (new logic): parked, a trip with a 2-minute halt inside, a jittery stop, a trip across midnight, a 2-hour gap with a 30 km jump. */
const trackA = new Track()
  .park(1200)
  .drive(900, 12)
  .park(120)
  .drive(600, 12)
  .park(3780, undefined, 10)
  .drive(1200, 12)
  .park(1800)
  .jump(7200, 30_000, 0)
  .park(1200);
// Expected (reasoned from reference A.4, checked against Traccar's own answers): starts
// back-dated to the last parked position, stops confirmed minDuration (180 s) after the last
// move plus one report (each position is judged against the window as it stood after the
// previous one), the gap is one trip.
const tripsA = [[1200, 3030], [6600, 8010], [9600, 16800]];
const stopsA = [[0, 1200], [3030, 6600], [8010, 9600], [16800, 18000]];

/** Track B (old logic with ignition): candidate-dated starts/stops, ignition off ends a stop at once, a no-data gap ends a trip. */
const off = { ignition: false };
const on = { ignition: true };
const trackB = new Track()
  .park(600, off)
  .drive(600, 10, on)
  .park(90, on)
  .park(600, off)
  .drive(600, 10, on)
  .jump(7200, 600, 19, on)
  .drive(600, 10, on)
  .park(600, off);
const tripsB = [[630, 1230], [1920, 2490], [9690, 10320]];

describe.each(backends)('trips and stops (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestUser;
  let a: Device;
  let b: Device;
  let c: Device;
  let hidden: Device;
  let group: Group;

  async function submit(device: Device, track: Track | Point[], into: TestServer = server) {
    const pipeline = into.rastro.ctx.processing!.pipeline;
    const points = Array.isArray(track) ? track : track.points;
    const all = points.map((p) => pipeline.submit({
      uniqueId: device.uniqueId,
      fix: {
        ...emptyFix('osmand', at(p.t)), latitude: BASE_LAT + p.x / M_PER_DEG, longitude: -46.6, speed: p.speed,
        attributes: { ...(p.attributes ?? {}) },
      },
    }));
    const results = await Promise.all(all);
    expect(results.every((r) => r.kind === 'stored')).toBe(true);
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    user = await makeUser(server, 'trips-user@test');
    group = await create<Group>(admin, '/api/groups', { name: 'Trips fleet' });
    const sub = await create<Group>(admin, '/api/groups', { name: 'Trips fleet / sub', groupId: group.id });
    a = await create<Device>(admin, '/api/devices', { name: 'Alpha', uniqueId: 'trip-a' });
    b = await create<Device>(admin, '/api/devices', {
      name: 'Bravo', uniqueId: 'trip-b', groupId: sub.id,
      attributes: { 'report.trip.newLogic': false, 'report.trip.useIgnition': true },
    });
    c = await create<Device>(admin, '/api/devices', { name: 'Charlie', uniqueId: 'trip-c' });
    hidden = await create<Device>(admin, '/api/devices', { name: 'Hidden', uniqueId: 'trip-h' });
    await link(server, 'userDevice', user.row.id, a.id);
    await link(server, 'userDevice', user.row.id, c.id);
    await link(server, 'userGroup', user.row.id, group.id);
    await submit(a, trackA);
    await submit(b, trackB);
    await submit(hidden, trackA); // has trips of its own: a leak would show in the reports
    // Device C through the real OsmAnd port: a short trip.
    const small = new Track(60).park(600).drive(600, 15).park(600);
    for (const p of small.points) {
      const res = await osmand(server, `/?id=trip-c&timestamp=${at(p.t) / 1000}&lat=${BASE_LAT + p.x / M_PER_DEG}&lon=-46.6&speed=${p.speed}`);
      expect(res.status).toBe(200);
    }
    await server.rastro.ctx.processing!.writer.drain();
  }, 120_000);

  afterAll(async () => {
    await server?.close();
  });

  const range = (from: number, to: number) => `from=${q(from)}&to=${q(to)}`;
  const whole = range(at(-60), at(30_000));
  const get = async <T>(path: string, client = admin) => {
    const res = await client.get<T>(path);
    expect(res.status, res.text).toBe(200);
    return res.json;
  };

  it('new logic: trips and stops with known times, distances from totalDistance, events dated at the segment ends', async () => {
    const trips = await get<TripJson[]>(`/api/reports/trips?deviceId=${a.id}&${whole}`);
    expectArrayOf(trips, 'ReportTrips', { minLength: 3 });
    expect(times(trips)).toEqual(tripsA);
    // Trip 1: 900 s + 600 s at 12 m/s (plus the jitter of the first 180 s parked).
    expect(trips[0]!.distance).toBeGreaterThanOrEqual(18_000);
    expect(trips[0]!.distance).toBeLessThan(18_000 + 7 * 20);
    expect(trips[0]!.maxSpeed).toBeCloseTo(12 / 0.514444, 6);
    expect(trips[0]!.duration).toBe(1830_000);
    expect(Math.abs(trips[1]!.distance - 14_400)).toBeLessThan(25); // from a jittery parking spot
    expect(trips[2]!.distance).toBeCloseTo(30_000, 0);
    expect(trips[2]!.endLat - trips[2]!.startLat).toBeCloseTo(30_000 / M_PER_DEG, 8);
    for (const t of trips) {
      expect(t.endOdometer - t.startOdometer).toBeCloseTo(t.distance, 1);
      expect(t.averageSpeed).toBeCloseTo((t.distance / (t.duration / 1000)) * 1.94384, 9); // Traccar's factor
    }
    const stops = await get<StopJson[]>(`/api/reports/stops?deviceId=${a.id}&${whole}`);
    expectArrayOf(stops, 'ReportStops', { minLength: 4 });
    expect(times(stops)).toEqual(stopsA);
    // Events: one per change, referencing the segment boundaries.
    const db = server.rastro.ctx.storage.db;
    const events = await db.selectFrom('events').selectAll().where('deviceId', '=', a.id)
      .where('type', 'in', ['deviceMoving', 'deviceStopped']).orderBy('id').execute();
    expect(events.map((e) => [e.type, Number(e.eventTime)])).toEqual(
      tripsA.flatMap(([s, e]) => [['deviceMoving', at(s!)], ['deviceStopped', at(e!)]]),
    );
    expect(events.filter((e) => e.type === 'deviceMoving').map((e) => Number(e.positionId))).toEqual(trips.map((t) => t.startPositionId));
    expect(events.filter((e) => e.type === 'deviceStopped').map((e) => Number(e.positionId))).toEqual(trips.map((t) => t.endPositionId));
  });

  it('old logic with ignition: candidate-dated changes, ignition off ends a stop at once, a data gap ends a trip', async () => {
    const trips = await get<TripJson[]>(`/api/reports/trips?groupId=${group.id}&${whole}`);
    expect(trips.every((t) => t.deviceId === b.id)).toBe(true);
    expect(times(trips)).toEqual(tripsB);
    expect(trips[0]!.distance).toBeCloseTo(5700, 0); // from the candidate (30 s in) to the stop candidate
  });

  it('fast path equals slow path for periods cutting trips and stops anywhere', async () => {
    const cuts = [-60, 0, 600, 1199, 1200, 1500, 2100, 2900, 3030, 3031, 4000, 6600, 7000, 7200, 8010, 9000, 9600, 12_000, 16_800, 17_000, 30_000];
    const periods: Array<[number, number]> = [];
    for (let i = 0; i < cuts.length; i++) for (let j = i + 1; j < cuts.length; j += 3) periods.push([cuts[i]!, cuts[j]!]);
    periods.push([7200 - 86_400, 7200], [7200, 7200 + 86_400]); // the days either side of midnight
    for (const device of [a, b, c]) {
      for (const [from, to] of periods) {
        for (const kind of ['trips', 'stops']) {
          const path = `/api/reports/${kind}?deviceId=${device.id}&${range(at(from), at(to))}`;
          const fast = await get<unknown[]>(path);
          const slow = await get<unknown[]>(`${path}&path=slow`);
          expect(fast, `${kind} ${device.name} ${from}..${to}`).toEqual(slow);
        }
      }
    }
  }, 120_000);

  it('the fast path reads stored segments (the join happens) and gives what the slow path gives', async () => {
    const db = server.rastro.ctx.storage.db;
    const options = { ignoreOdometer: false, fuelCapacity: null };
    const collect = async (path: 'fast' | 'slow') => {
      const out = [];
      for await (const s of motionSegmentsOf(db, a.id, MOTION_DEFAULTS, options, at(0), at(30_000), path)) out.push(s);
      return out;
    };
    const stored = await db.selectFrom('motionSegments').selectAll().where('deviceId', '=', a.id).orderBy('id').execute();
    expect(stored.map((s) => [s.kind, Number(s.startTime), Number(s.endTime)])).toEqual([
      ['stop', at(0), at(1200)], ['trip', at(1200), at(3030)], ['stop', at(3030), at(6600)], ['trip', at(6600), at(8010)],
      ['stop', at(8010), at(9600)], ['trip', at(9600), at(16_800)],
    ]);
    expect(await collect('fast')).toEqual(await collect('slow'));
    // The batched preparation answers for devices whose period starts at the live machine's start.
    const prepared = await prepareFast(db, [a.id, b.id, c.id].map((id) => ({ id, options })), at(-60), at(30_000), await motionStatesOf(db, [a.id, b.id, c.id]), new Map());
    expect(prepared.get(a.id)).toEqual(await (async () => {
      const out = [];
      for await (const s of motionSegmentsOf(db, a.id, MOTION_DEFAULTS, options, at(-60), at(30_000), 'slow')) out.push(s);
      return out;
    })());
    expect(prepared.size).toBeGreaterThanOrEqual(2);
  });

  it('groups expand to their subgroups\' devices; a device the caller cannot see is left out, as in every report', async () => {
    const all = await get<TripJson[]>(`/api/reports/trips?${whole}`, user.client);
    expect([...new Set(all.map((t) => t.deviceId))].sort()).toEqual([a.id, b.id, c.id].sort());
    const byGroup = await get<StopJson[]>(`/api/reports/stops?groupId=${group.id}&${whole}`, user.client);
    expect(new Set(byGroup.map((s) => s.deviceId))).toEqual(new Set([b.id]));
    const hiddenOnly = await user.client.get<TripJson[]>(`/api/reports/trips?deviceId=${hidden.id}&${whole}`);
    expect(hiddenOnly.status).toBe(200);
    expect(hiddenOnly.json).toEqual([]);
    expect((await get<TripJson[]>(`/api/reports/trips?deviceId=${hidden.id}&${whole}`)).length).toBeGreaterThan(0); // admin sees them
    const mixed = await get<TripJson[]>(`/api/reports/trips?deviceId=${hidden.id}&deviceId=${a.id}&${whole}`, user.client);
    expect(new Set(mixed.map((t) => t.deviceId))).toEqual(new Set([a.id]));
    for (const kind of ['trips', 'stops']) {
      const xlsx = await admin.get(`/api/reports/${kind}/xlsx?deviceId=${a.id}&${whole}`);
      expect(xlsx.status).toBe(200);
    }
    const bad = await admin.get(`/api/reports/trips?deviceId=${a.id}&${whole}&path=medium`);
    expect(bad.status).toBe(400);
  });
  it('a restarted server restores the motion state and continues the segments as if never stopped', async () => {
    const e = await create<Device>(admin, '/api/devices', { name: 'Echo', uniqueId: 'trip-e' });
    const f = await create<Device>(admin, '/api/devices', { name: 'Foxtrot', uniqueId: 'trip-f' });
    await submit(f, trackA);
    // Echo: the first part through this server, the rest through a second instance over the same
    // database (a fresh motion step: it restores the state stored with the last position), cut
    // in the middle of the first trip, and again inside a stop.
    const second = await startTestServer(backend, {}, { shareDatabaseWith: server });
    const third = await startTestServer(backend, {}, { shareDatabaseWith: server });
    try {
      const cut1 = trackA.points.findIndex((p) => p.t === 2500);
      const cut2 = trackA.points.findIndex((p) => p.t === 5000);
      await submit(e, trackA.points.slice(0, cut1));
      await server.rastro.ctx.processing!.writer.drain();
      await submit(e, trackA.points.slice(cut1, cut2), second);
      await second.rastro.ctx.processing!.writer.drain();
      await submit(e, trackA.points.slice(cut2), third);
      await third.rastro.ctx.processing!.writer.drain();
    } finally {
      await third.close();
      await second.close();
    }
    const db = server.rastro.ctx.storage.db;
    const figures = async (deviceId: number) => (await db.selectFrom('motionSegments').selectAll().where('deviceId', '=', deviceId).orderBy('id').execute())
      .map((r) => [r.kind, Number(r.startTime), Number(r.endTime), Number(r.closedTime), r.distance, r.maxSpeed]);
    expect(await figures(e.id)).toEqual(await figures(f.id));
    const trips = await get<TripJson[]>(`/api/reports/trips?deviceId=${e.id}&${whole}`);
    expect(times(trips)).toEqual(tripsA);
  }, 60_000);

  it('a position posted late creates no event and changes no segment; fast and slow paths both skip it', async () => {
    const db = server.rastro.ctx.storage.db;
    const count = async () => Number((await db.selectFrom('motionSegments').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deviceId', '=', c.id).where('kind', '!=', 'late').executeTakeFirstOrThrow()).n);
    const events = async () => Number((await db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deviceId', '=', c.id).executeTakeFirstOrThrow()).n);
    const before = [await count(), await events()];
    const tripsBefore = await get<TripJson[]>(`/api/reports/trips?deviceId=${c.id}&${whole}`);
    expect(before[0]).toBeGreaterThan(0);
    // Far away and fast, in the middle of the stop before the trip: a replay that used it would see a trip.
    const res = await osmand(server, `/?id=trip-c&timestamp=${at(300) / 1000}&lat=${BASE_LAT + 0.05}&lon=-46.6&speed=80`);
    expect(res.status).toBe(200);
    await server.rastro.ctx.processing!.writer.drain();
    expect([await count(), await events()]).toEqual(before);
    const marks = await db.selectFrom('motionSegments').selectAll().where('deviceId', '=', c.id).where('kind', '=', 'late').execute();
    expect(marks).toHaveLength(1);
    for (const [from, to] of [[-60, 30_000], [0, 1000], [250, 900], [400, 30_000]] as const) {
      for (const kind of ['trips', 'stops']) {
        const path = `/api/reports/${kind}?deviceId=${c.id}&${range(at(from), at(to))}`;
        expect(await get<unknown[]>(path), `${kind} ${from}..${to}`).toEqual(await get<unknown[]>(`${path}&path=slow`));
      }
    }
    expect(await get<TripJson[]>(`/api/reports/trips?deviceId=${c.id}&${whole}`)).toEqual(tripsBefore);
  });
});
