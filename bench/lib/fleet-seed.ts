// Synthetic fleet history for the benchmarks (reports, report-isolation): tracks of parked
// and driving vehicles seeded through the live path's own code — the pipeline's order, distance
// and motion steps, then the live motion machine (SegmentMachine) and its segment rows — and
// written with the writer's statements in large transactions, far faster than through the
// OsmAnd port while storing the same rows the live path would.
import type { Storage } from '../../apps/server/src/storage/db.ts';
import { emptyFix } from '../../apps/server/src/ingest/decoded.ts';
import { draftFromFix, putDraftValues, type PositionDraft } from '../../apps/server/src/processing/position-draft.ts';
import { order } from '../../apps/server/src/processing/steps/order.ts';
import { distance } from '../../apps/server/src/processing/steps/distance.ts';
import { motion } from '../../apps/server/src/processing/steps/motion.ts';
import type { Work } from '../../apps/server/src/processing/work.ts';
import type { DeviceEntry } from '../../apps/server/src/processing/device-cache.ts';
import { POSITION_WIDTH, SEGMENT_COLUMNS } from '../../apps/server/src/processing/writer-protocol.ts';
import { insertPositionsQuery, insertSegmentsQuery, upsertMotionStatesQuery } from '../../apps/server/src/processing/writer-sql.ts';
import { MOTION_DEFAULTS } from '../../apps/server/src/motion/motion-state.ts';
import { SegmentMachine, segmentRecord, type Segment } from '../../apps/server/src/motion/segments.ts';

/** One fix every 10 s. */
export const STEP_MS = 10_000;
/** Where seeded tracks start. */
export const START = Date.parse('2025-01-06T00:00:00Z');
const M_PER_DEG = (Math.PI / 180) * 6_378_137;

/** Deterministic pseudo-random numbers (one stream per device). */
export function lcg(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A fleet vehicle: parked (jitter ±5 m) 5–40 min, then driving 10–60 min at 5–30 m/s; one fix every 10 s. */
export function* track(seed: number, count: number, start: number): Generator<{ t: number; lat: number; lon: number; speed: number }> {
  const rnd = lcg(seed);
  let lat = -23.5 + rnd() * 0.5;
  let lon = -46.6 + rnd() * 0.5;
  let t = start;
  let n = 0;
  while (n < count) {
    const park = Math.round((5 + rnd() * 35) * 6);
    for (let i = 0; i < park && n < count; i++, n++, t += STEP_MS) {
      const j = 5 / M_PER_DEG;
      yield { t, lat: lat + (rnd() - 0.5) * 2 * j, lon: lon + (rnd() - 0.5) * 2 * j, speed: 0 };
    }
    const drive = Math.round((10 + rnd() * 50) * 6);
    let heading = rnd() * 2 * Math.PI;
    let mps = 5 + rnd() * 25;
    for (let i = 0; i < drive && n < count; i++, n++, t += STEP_MS) {
      heading += (rnd() - 0.5) * 0.3;
      mps = Math.min(35, Math.max(3, mps + (rnd() - 0.5) * 4));
      lat += (Math.cos(heading) * mps * 10) / M_PER_DEG;
      lon += (Math.sin(heading) * mps * 10) / M_PER_DEG / Math.cos((lat * Math.PI) / 180);
      lat = Math.max(-60, Math.min(60, lat));
      yield { t, lat, lon, speed: mps / 0.514444 };
    }
  }
}

const BATCH = 5000;
const CHUNK = 1000;

/** Seeds one device's track through the live steps and motion machine; returns the count stored. */
export async function seedDevice(storage: Storage, deviceId: number, seed: number, count: number, start: number): Promise<number> {
  const db = storage.db;
  const dialect = storage.dialect;
  const options = { ignoreOdometer: false, fuelCapacity: null };
  let state: { moving: boolean; start: PositionDraft; by: PositionDraft } | null = null;
  const segments: Array<Segment<PositionDraft>> = [];
  const sm = new SegmentMachine<PositionDraft>(MOTION_DEFAULTS, (s) => segments.push(s), (moving, at, by) => {
    state = { moving, start: at, by };
  });
  const entry = { id: deviceId } as DeviceEntry;
  let previous: PositionDraft | null = null;
  let batch: PositionDraft[] = [];
  let stored = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < batch.length; i += CHUNK) {
        const part = batch.slice(i, i + CHUNK);
        const values = new Array<unknown>(part.length * POSITION_WIDTH);
        for (let k = 0, j = 0; j < part.length; j++) k = putDraftValues(values, k, part[j]!);
        const rows = (await trx.executeQuery(insertPositionsQuery(dialect, values))).rows.map((r) => Number(r.id)).sort((x, y) => x - y);
        for (let j = 0; j < part.length; j++) part[j]!.id = rows[j]!;
      }
      for (const p of batch) sm.push(p);
      if (segments.length > 0) {
        const values: unknown[] = [];
        for (const s of segments) {
          const r = segmentRecord(s, options);
          for (const c of SEGMENT_COLUMNS) values.push(c === 'deviceId' ? deviceId : r[c]);
        }
        for (let i = 0; i < values.length; i += CHUNK * SEGMENT_COLUMNS.length) {
          await trx.executeQuery(insertSegmentsQuery(dialect, values.slice(i, i + CHUNK * SEGMENT_COLUMNS.length)));
        }
        segments.length = 0;
      }
      const st = state as { moving: boolean; start: PositionDraft; by: PositionDraft } | null;
      if (st) await trx.executeQuery(upsertMotionStatesQuery(dialect, [deviceId, st.moving ? 1 : 0, st.start.id, st.by.id]));
      const last = batch[batch.length - 1]!;
      await trx.updateTable('devices').set({ positionId: last.id, lastUpdate: last.serverTime }).where('id', '=', deviceId).execute();
    });
    stored += batch.length;
    batch = [];
  };
  for (const p of track(seed, count, start)) {
    const fix = { ...emptyFix('osmand', p.t), latitude: p.lat, longitude: p.lon, speed: p.speed, attributes: {} };
    const draft = draftFromFix(fix, deviceId, p.t);
    const work: Work = { entry, position: draft, previous, latest: false, events: [], dropped: null, now: p.t };
    order.run(work);
    distance.run(work);
    motion.run(work);
    previous = draft;
    batch.push(draft);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return stored;
}

export function deviceRow(uniqueId: string, groupId: number | null) {
  return {
    name: uniqueId, uniqueId, status: null, disabled: 0, lastUpdate: null, positionId: null, groupId, calendarId: null, phone: null,
    model: null, contact: null, category: 'car', expirationTime: null, attributes: '{}', motionState: 0, motionStreak: 0,
    motionPositionId: null, motionTime: null, motionDistance: 0, motionLatitude: 0, motionLongitude: 0, overspeedState: 0,
    overspeedTime: null, overspeedGeofenceId: 0,
  };
}
