// Trips and stops of a period, from the positions or from the stored segments — same answer.
//
// Slow path (the oracle): replay the state machine over every position of the period
// (Traccar's slow report: the first position's `motion` is the initial state and opens the
// first item; the item still open at the end is closed with the last position).
//
// Fast path: replay only from the period's start until the replay makes a change the live
// machine also made (same kind, same position, decided by the same position) while the replay
// is `settled` — from there both machines are identical, so the live machine's stored
// segments are exactly what the replay would produce. Take the stored segments closed inside
// the period, then put a machine in the live one's state after the last of them
// (MotionMachine.prime, from a few positions) and replay the positions after it to the
// period's end. Reads: the edge positions and one row per segment, never the whole period.
// If no join happens (no stored segments, a period inside one segment) the replay simply
// runs to the end: the slow path.
//
// Late positions (stored after newer ones) are skipped by the live machine and marked ('late'
// rows in motionSegments); every replay skips them too. Exact as long as the device's trip
// settings did not change inside the period.
//
// For the summary (reports/summary.ts): `maxSpeedBySegments(db, deviceId, from, to)` is the
// period's highest position speed computed from the stored segments' maxSpeed for the middle
// and a max() over the edge positions only; `segmentsFor(db, deviceIds, from, to)` streams the
// stored segments (figures: distance, maxSpeed, startOdometer/endOdometer, spentFuel,
// startHours/endHours) closed inside a period, per device, in order. Consecutive segments
// share their boundary position, so a period's distance/fuel/engine hours are still best taken
// from its first and last positions; segments give maxSpeed and per-trip figures.
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { Database, MotionStateTable } from '../storage/schema.ts';
import type { PositionRow } from '../positions/position-json.ts';
import { parseAttributes } from '../http/json.ts';
import { motionOf, type MotionConfig } from './motion-state.ts';
import { SegmentMachine, segmentRecord, type SegmentOptions, type SegmentPoint, type SegmentRecord } from './segments.ts';
import { MOTION_CHUNK, lateIdsOf, notLate, positionsAfter, primeData, segmentChunks, type LateIds, type SegmentRow } from './motion-repo.ts';

export { lateIdsOf, type LateIds };

type Db = Kysely<Database>;

export type ReportPath = 'fast' | 'slow';

export function pointOf(row: PositionRow): SegmentPoint {
  return {
    id: row.id,
    fixTime: row.fixTime,
    latitude: row.latitude,
    longitude: row.longitude,
    speed: row.speed,
    address: row.address,
    attributes: parseAttributes(row.attributes),
  };
}

function recordOf(s: SegmentRow): SegmentRecord {
  return {
    kind: s.kind,
    startTime: s.startTime,
    endTime: s.endTime,
    closedTime: s.closedTime,
    startPositionId: s.startPositionId,
    endPositionId: s.endPositionId,
    openedById: s.openedById,
    closedById: s.closedById,
    startLat: s.startLat,
    startLon: s.startLon,
    endLat: s.endLat,
    endLon: s.endLon,
    startAddress: s.startAddress,
    endAddress: s.endAddress,
    distance: s.distance,
    maxSpeed: s.maxSpeed,
    startOdometer: s.startOdometer,
    endOdometer: s.endOdometer,
    spentFuel: s.spentFuel,
    startHours: s.startHours,
    endHours: s.endHours,
    driverUniqueId: s.driverUniqueId,
  };
}

const joinKey = (trip: boolean, startId: number | null, byId: number | null) => `${trip ? 't' : 's'}:${startId}:${byId}`;

/** Stored segments looked at for the join (the first ones closed in the period). */
const JOIN_CANDIDATES = 256;

/**
 * Trips and stops (both kinds, in order) of one device in [from, to] — see the file comment.
 * Items are yielded as they are produced; memory holds one chunk of positions or segments.
 */
export async function* motionSegmentsOf(
  db: Db, deviceId: number, config: MotionConfig, options: SegmentOptions, from: number, to: number, path: ReportPath = 'fast',
  /** The live machine's stored states, read beforehand for many devices at once (motionStatesOf); else read here. */
  states?: MotionStates,
  /** Positions the live machine skipped in [from, to] (lateIdsOf for many devices at once); else read here. */
  lateIds?: LateIds,
): AsyncGenerator<SegmentRecord> {
  const out: SegmentRecord[] = [];
  // Late positions (stored after newer ones) were skipped by the live machine: replays skip them.
  const late = (lateIds ?? (await lateIdsOf(db, [deviceId], from, to))).get(deviceId) ?? null;
  let candidates: Map<string, SegmentRow> | null = null;
  /** The first stored segments closed in the period; all of them when fewer than JOIN_CANDIDATES. */
  let head: SegmentRow[] = [];
  if (path === 'fast') {
    for await (const chunk of segmentChunks(db, deviceId, from, to, null, JOIN_CANDIDATES)) {
      head = chunk;
      candidates = new Map();
      for (const s of chunk) if (s.startTime >= from) candidates.set(joinKey(s.kind === 'trip', s.startPositionId, s.openedById), s);
      break;
    }
  }
  let joined: SegmentRow | null = null;
  // The period starts at or before the live machine's very first position, which it opened
  // stopped: when that position's `motion` is false the replay starts alike, no replay needed.
  const s0 = candidates && candidates.size > 0 ? [...candidates.values()][0]! : null;
  if (s0 && s0.startPositionId !== null && s0.startPositionId === s0.openedById) {
    const first = await edgeRow(db, deviceId, from, to, 'first');
    if (first && Number(first.id) === s0.startPositionId && (s0.kind === 'trip') === motionOf(pointOf(first))) joined = s0;
  }
  const sm: SegmentMachine<SegmentPoint> = new SegmentMachine<SegmentPoint>(
    config,
    (segment) => {
      if (!joined) out.push(segmentRecord(segment, options));
    },
    (moving, at, by) => {
      if (joined || !candidates || !sm.machine.settled) return;
      joined = candidates.get(joinKey(moving, at.id, by.id)) ?? null;
    },
  );
  if (!joined) {
    // Replay from the period's start until the join; first chunks small (it usually comes soon).
    replay: for await (const chunk of positionsAfter(db, deviceId, null, from, to, null, MOTION_CHUNK, 64, late)) {
      for (const row of chunk) {
        sm.push(pointOf(row));
        if (joined) break replay;
      }
      yield* out;
      out.length = 0;
    }
    yield* out;
    out.length = 0;
  }
  if (!joined) {
    const open = sm.openSegment();
    if (open && open.start !== open.end) yield segmentRecord(open, options);
    return;
  }

  // The stored segments from the joined one on, as long as they follow each other.
  let last: SegmentRow | null = null;
  const first: SegmentRow = joined;
  const source = head.length < JOIN_CANDIDATES
    ? [head.slice(head.indexOf(first))]
    : segmentChunks(db, deviceId, from, to, { closedTime: first.closedTime, id: first.id });
  stored: for await (const chunk of source) {
    for (const s of chunk) {
      if (last && (s.startPositionId !== last.endPositionId || s.kind === last.kind)) break stored;
      yield recordOf(s);
      last = s;
    }
  }
  yield* continueAfter(db, deviceId, config, options, last!, to, states, late);
}

export type MotionStates = Map<number, Selectable<MotionStateTable>>;

/** The stored live states of these devices (one read per 500 devices). */
export async function motionStatesOf(db: Db, deviceIds: readonly number[]): Promise<MotionStates> {
  const out: MotionStates = new Map();
  for (let i = 0; i < deviceIds.length; i += 500) {
    const rows = await db.selectFrom('motionStates').selectAll().where('deviceId', 'in', deviceIds.slice(i, i + 500)).execute();
    for (const r of rows) out.set(Number(r.deviceId), r);
  }
  return out;
}

/** First or last position of a device in [from, to] (fixTime, then id). */
async function edgeRow(db: Db, deviceId: number, from: number, to: number, which: 'first' | 'last'): Promise<PositionRow | undefined> {
  const dir = which === 'first' ? 'asc' : 'desc';
  return (await db.selectFrom('positions').selectAll().where('deviceId', '=', deviceId).where('fixTime', '>=', from)
    .where('fixTime', '<=', to).orderBy('fixTime', dir).orderBy('id', dir).limit(1).executeTakeFirst()) as PositionRow | undefined;
}

/** The live machine's state right after stored segment `s` closed, replayed to `to`. */
async function* continueAfter(
  db: Db, deviceId: number, config: MotionConfig, options: SegmentOptions, s: SegmentRow, to: number, states: MotionStates | undefined,
  late: ReadonlySet<number> | null,
): AsyncGenerator<SegmentRecord> {
  if (s.endPositionId === null || s.closedById === null) return;
  // The live machine made no change since `s` closed (its stored state is still the segment
  // opened then): it saw every position after it without changing, so a replay would not
  // either — the open segment runs to the period's last position.
  const st = states ? states.get(deviceId) : await db.selectFrom('motionStates').selectAll().where('deviceId', '=', deviceId).executeTakeFirst();
  if (st && Number(st.startPositionId) === s.endPositionId && Number(st.decidedById) === s.closedById) {
    // Two reads: the period's last position with the highest speed from the open segment's
    // start to the period's end, and the start and decider rows.
    const q = s.endPositionId;
    const last = (await db.selectFrom('positions').selectAll()
      .select(sql<number | null>`(select max("speed") from "positions" where "deviceId" = ${deviceId} and "fixTime" >= ${s.endTime} and "fixTime" <= ${to} and ("fixTime" > ${s.endTime} or "id" >= ${q}) and ${notLate(deviceId, s.endTime, to)})`.as('tailMaxSpeed'))
      .where('deviceId', '=', deviceId).where('fixTime', '>=', s.endTime).where('fixTime', '<=', to).where(notLate(deviceId, s.endTime, to))
      .orderBy('fixTime', 'desc').orderBy('id', 'desc').limit(1)
      .executeTakeFirst()) as (PositionRow & { tailMaxSpeed: number | null }) | undefined;
    if (!last || Number(last.id) === q) return;
    const rows = (await db.selectFrom('positions').selectAll().where('id', 'in', [q, s.closedById]).execute()) as PositionRow[];
    const startRow = rows.find((r) => Number(r.id) === q);
    const byRow = rows.find((r) => Number(r.id) === s.closedById);
    if (startRow && byRow) {
      const start = pointOf(startRow);
      const maxSpeed = Number(last.tailMaxSpeed ?? 0);
      yield segmentRecord({ trip: s.kind !== 'trip', start, end: pointOf(last), openedBy: pointOf(byRow), closedBy: pointOf(last), maxSpeed }, options);
      return;
    }
  }
  const prime = await primeData(db, deviceId, config, s.kind !== 'trip', s.endPositionId, s.closedById);
  if (!prime) return;
  const out: SegmentRecord[] = [];
  const sm = new SegmentMachine<SegmentPoint>(config, (segment) => out.push(segmentRecord(segment, options)));
  const start = pointOf(prime.start);
  const by = prime.by.id === prime.start.id ? start : pointOf(prime.by);
  const window = prime.window.map((r) => (r.id === start.id ? start : r.id === by.id ? by : pointOf(r)));
  sm.prime(prime.moving, start, by, prime.maxSpeed, window);
  for await (const chunk of positionsAfter(db, deviceId, { fixTime: prime.by.fixTime, id: prime.by.id }, 0, to, null, MOTION_CHUNK, MOTION_CHUNK, late)) {
    for (const row of chunk) sm.push(pointOf(row));
    yield* out;
    out.length = 0;
  }
  const open = sm.openSegment();
  if (open && open.start !== open.end) yield segmentRecord(open, options);
}

/** Stored segments of the devices closed inside [from, to] and starting in it, per device in order. */
export async function* segmentsFor(db: Db, deviceIds: readonly number[], from: number, to: number): AsyncGenerator<SegmentRow> {
  for (const deviceId of deviceIds) {
    for await (const chunk of segmentChunks(db, deviceId, from, to)) for (const s of chunk) if (s.startTime >= from) yield s;
  }
}

async function maxSpeedBetween(db: Db, deviceId: number, from: number, to: number): Promise<number | null> {
  if (to < from) return null;
  const row = await db.selectFrom('positions').select(sql<number | null>`max("speed")`.as('m'))
    .where('deviceId', '=', deviceId).where('fixTime', '>=', from).where('fixTime', '<=', to).executeTakeFirst();
  return row?.m === null || row?.m === undefined ? null : Number(row.m);
}

/**
 * Highest speed (knots) of a device's positions with from <= fixTime <= to, or null without
 * positions: the stored segments' maxSpeed where they cover the period (following each other),
 * a max() over the positions elsewhere (the edges, and any break between segments).
 */
export async function maxSpeedBySegments(db: Db, deviceId: number, from: number, to: number): Promise<number | null> {
  let best: number | null = null;
  const take = (v: number | null) => {
    if (v !== null && (best === null || v > best)) best = v;
  };
  let cursor = from;
  for await (const chunk of segmentChunks(db, deviceId, from, to)) {
    for (const s of chunk) {
      if (s.startTime < cursor) continue;
      // Positions between the covered part and this segment (edge or break), then the segment.
      if (s.startTime > cursor) take(await maxSpeedBetween(db, deviceId, cursor, s.startTime));
      take(s.maxSpeed);
      cursor = s.endTime;
    }
  }
  take(await maxSpeedBetween(db, deviceId, cursor, to));
  // Late positions are in no segment (the live machine skipped them) but are positions of the period.
  const late = await db.selectFrom('positions').select(sql<number | null>`max("speed")`.as('m')).where('deviceId', '=', deviceId)
    .where('id', 'in', (eb) => eb.selectFrom('motionSegments').select('startPositionId').where('deviceId', '=', deviceId)
      .where('kind', '=', 'late').where('closedTime', '>=', from).where('closedTime', '<=', to))
    .executeTakeFirst();
  take(late?.m === null || late?.m === undefined ? null : Number(late.m));
  return best;
}

/** A device of a many-device report, with its settings. */
export interface DeviceJob {
  id: number;
  options: SegmentOptions;
}

/** Head segments read per device when preparing a batch (a device with more takes motionSegmentsOf). */
const PREPARED_HEAD = 256;

/**
 * The fast path for many devices with fewer statements: for the common case — the period
 * starts at or before the live machine's first position and the machine made no change since
 * the last segment closed in the period — a device's answer is its stored segments plus the
 * open segment, and the reads of all devices of the batch are shared: one segment read per
 * device, then three statements for the whole batch (first positions; last positions with the
 * open segment's highest speed; the open segments' start and decider rows). Devices outside
 * that case are left out of the map: the caller runs motionSegmentsOf for them (same answer).
 */
export async function prepareFast(
  db: Db, jobs: readonly DeviceJob[], from: number, to: number, states: MotionStates, late: LateIds,
): Promise<Map<number, SegmentRecord[]>> {
  const out = new Map<number, SegmentRecord[]>();
  interface Candidate { job: DeviceJob; chain: SegmentRow[]; s0: SegmentRow }
  const candidates: Candidate[] = [];
  for (const job of jobs) {
    const head: SegmentRow[] = [];
    for await (const chunk of segmentChunks(db, job.id, from, to, null, PREPARED_HEAD)) {
      head.push(...chunk);
      break;
    }
    if (head.length === 0 || head.length >= PREPARED_HEAD) continue;
    const i0 = head.findIndex((s) => s.startTime >= from);
    if (i0 < 0) continue;
    const s0 = head[i0]!;
    if (s0.startPositionId === null || s0.startPositionId !== s0.openedById) continue;
    const chain: SegmentRow[] = [s0];
    for (let i = i0 + 1; i < head.length; i++) {
      const prev = chain[chain.length - 1]!;
      const s = head[i]!;
      if (s.startPositionId !== prev.endPositionId || s.kind === prev.kind) break;
      chain.push(s);
    }
    const sn = chain[chain.length - 1]!;
    const st = states.get(job.id);
    if (!st || Number(st.startPositionId) !== sn.endPositionId || Number(st.decidedById) !== sn.closedById || sn.endPositionId === null) continue;
    candidates.push({ job, chain, s0 });
  }
  if (candidates.length === 0) return out;

  // First position of each device in the period: it must be where the live machine started,
  // and the replay must start in the same state (the live machine starts stopped; a replay in
  // the state of the first position's `motion`).
  const ids = candidates.map((c) => c.job.id);
  const first = (eb: ExpressionBuilder<Database & { d: Database['devices'] }, 'd'>) => eb.selectFrom('positions as p')
    .whereRef('p.deviceId', '=', 'd.id').where('p.fixTime', '>=', from).where('p.fixTime', '<=', to).orderBy('p.fixTime').orderBy('p.id').limit(1);
  const firsts = await db.selectFrom('devices as d').where('d.id', 'in', ids)
    .select((eb) => ['d.id as deviceId', first(eb).select('p.id').as('firstId'), first(eb).select('p.attributes').as('firstAttributes')])
    .execute();
  const firstOf = new Map(firsts.map((r) => [
    Number(r.deviceId),
    r.firstId === null ? null : { id: Number(r.firstId), motion: parseAttributes(r.firstAttributes ?? '{}').motion === true },
  ]));
  const joined = candidates.filter((c) => {
    const f = firstOf.get(c.job.id);
    return f !== null && f !== undefined && f.id === c.s0.startPositionId && f.motion === (c.s0.kind === 'trip');
  });
  if (joined.length === 0) return out;

  // The period's last position after each open segment's start, and the highest speed from that start.
  const tails = new Map<number, { lastId: number | null; maxSpeed: number | null }>();
  const lateFree = (deviceId: number) => (late.get(deviceId)?.size ?? 0) === 0;
  // Devices with late positions in the period take the per-device path (rare).
  const plain = joined.filter((c) => lateFree(c.job.id));
  if (plain.length === 0) return out;
  const values = sql.join(plain.map((c) => {
    const sn = c.chain[c.chain.length - 1]!;
    return sql`(${sql`cast(${c.job.id} as bigint)`}, ${sql`cast(${sn.endTime} as bigint)`}, ${sql`cast(${sn.endPositionId} as bigint)`})`;
  }));
  const tailRows = await sql<{ deviceId: number; lastId: number | null; maxSpeed: number | null }>`
    with v ("deviceId", "t0", "q") as (values ${values})
    select v."deviceId",
      (select p."id" from "positions" p where p."deviceId" = v."deviceId" and p."fixTime" >= v."t0" and p."fixTime" <= ${to}
        order by p."fixTime" desc, p."id" desc limit 1) as "lastId",
      (select max(p."speed") from "positions" p where p."deviceId" = v."deviceId" and p."fixTime" >= v."t0" and p."fixTime" <= ${to}
        and (p."fixTime" > v."t0" or p."id" >= v."q")) as "maxSpeed"
    from v`.execute(db);
  for (const r of tailRows.rows) tails.set(Number(r.deviceId), { lastId: r.lastId === null ? null : Number(r.lastId), maxSpeed: r.maxSpeed === null ? null : Number(r.maxSpeed) });

  // The rows the open segments are built from.
  const wanted = new Set<number>();
  for (const c of plain) {
    const sn = c.chain[c.chain.length - 1]!;
    const t = tails.get(c.job.id);
    if (!t || t.lastId === null) continue;
    wanted.add(sn.endPositionId!);
    wanted.add(sn.closedById!);
    wanted.add(t.lastId);
  }
  const rows = new Map<number, PositionRow>();
  const list = [...wanted];
  for (let i = 0; i < list.length; i += 500) {
    for (const r of (await db.selectFrom('positions').selectAll().where('id', 'in', list.slice(i, i + 500)).execute()) as PositionRow[]) {
      rows.set(Number(r.id), r);
    }
  }
  for (const c of plain) {
    const sn = c.chain[c.chain.length - 1]!;
    const t = tails.get(c.job.id);
    if (!t || t.lastId === null || sn.closedById === null) continue;
    const startRow = rows.get(sn.endPositionId!);
    const byRow = rows.get(sn.closedById);
    const lastRow = rows.get(t.lastId);
    if (!startRow || !byRow || !lastRow) continue;
    const records = c.chain.map(recordOf);
    if (lastRow.id !== startRow.id) {
      const start = pointOf(startRow);
      records.push(segmentRecord({
        trip: sn.kind !== 'trip', start, end: pointOf(lastRow), openedBy: pointOf(byRow), closedBy: pointOf(lastRow), maxSpeed: t.maxSpeed ?? 0,
      }, c.job.options));
    }
    out.set(c.job.id, records);
  }
  return out;
}
