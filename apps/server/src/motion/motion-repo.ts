// Reads behind the motion feature: the persisted machine state, the positions needed to put
// a machine back where the live one was (the window before a change and the max speed of the
// open segment), positions after a point, and stored segments — all keyset-paged over
// (deviceId, fixTime, id) or (deviceId, closedTime, id), never a whole range at once.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database, MotionSegmentTable } from '../storage/schema.ts';
import type { PositionRow } from '../positions/position-json.ts';
import type { MotionConfig } from './motion-state.ts';

type Db = Kysely<Database>;

/** A stored trip or stop ('late' marker rows are never returned as segments). */
export type SegmentRow = Selectable<MotionSegmentTable> & { kind: 'trip' | 'stop' };

/** Positions the live machine skipped (late), per device. */
export type LateIds = Map<number, Set<number>>;

/** Condition: the position is not one the live machine skipped (within [from, to] by fixTime). */
export function notLate(deviceId: number, from: number, to: number) {
  return sql<boolean>`"id" not in (select "startPositionId" from "motionSegments" where "deviceId" = ${deviceId} and "kind" = 'late' and "closedTime" >= ${from} and "closedTime" <= ${to})`;
}

/** Ids of the positions the live machine skipped, with from <= fixTime <= to, for these devices (one read per 500 devices). */
export async function lateIdsOf(db: Db, deviceIds: readonly number[], from: number, to: number): Promise<LateIds> {
  const out: LateIds = new Map();
  for (let i = 0; i < deviceIds.length; i += 500) {
    const rows = await db.selectFrom('motionSegments').select(['deviceId', 'startPositionId']).where('kind', '=', 'late')
      .where('deviceId', 'in', deviceIds.slice(i, i + 500)).where('closedTime', '>=', from).where('closedTime', '<=', to).execute();
    for (const r of rows) {
      const d = Number(r.deviceId);
      let set = out.get(d);
      if (!set) out.set(d, (set = new Set()));
      set.add(Number(r.startPositionId));
    }
  }
  return out;
}

/** A place in a device's position order. */
export interface PositionKey {
  fixTime: number;
  id: number;
}

export const MOTION_CHUNK = 2_000;

const toNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Positions of a device after `after` (exclusive, or from `from` inclusive) up to `to` (fixTime, inclusive), in chunks. */
export async function* positionsAfter(
  db: Db, deviceId: number, after: PositionKey | null, from: number, to: number, until: PositionKey | null = null, chunkSize = MOTION_CHUNK,
  /** Size of the first chunk, doubling up to chunkSize (readers that usually stop early). */
  firstChunk = chunkSize,
  /** Positions to leave out (the ones the live machine skipped). */
  skip: ReadonlySet<number> | null = null,
): AsyncGenerator<PositionRow[]> {
  let cursor = after;
  let size = Math.min(firstChunk, chunkSize);
  for (;;) {
    let q = db.selectFrom('positions').selectAll().where('deviceId', '=', deviceId).where('fixTime', '<=', to);
    if (cursor === null) q = q.where('fixTime', '>=', from);
    else {
      const c = cursor;
      q = q.where('fixTime', '>=', c.fixTime).where((eb) => eb.or([eb('fixTime', '>', c.fixTime), eb('id', '>', c.id)]));
    }
    if (until) {
      const u = until;
      q = q.where('fixTime', '<=', u.fixTime).where((eb) => eb.or([eb('fixTime', '<', u.fixTime), eb('id', '<=', u.id)]));
    }
    const rows = (await q.orderBy('fixTime').orderBy('id').limit(size).execute()) as PositionRow[];
    if (rows.length === 0) return;
    yield skip && skip.size > 0 ? rows.filter((r) => !skip.has(r.id)) : rows;
    if (rows.length < size) return;
    const tail = rows[rows.length - 1]!;
    cursor = { fixTime: tail.fixTime, id: tail.id };
    size = Math.min(chunkSize, size * 2);
  }
}

export interface PrimeData {
  moving: boolean;
  start: PositionRow;
  by: PositionRow;
  /** Max speed from start to by (both included). */
  maxSpeed: number;
  /** Positions up to `by` covering minDuration before it (the newest older one included). */
  window: PositionRow[];
}

/** What a machine needs to continue right after `byId` decided a change to `moving` at `startId`. */
export async function primeData(db: Db, deviceId: number, config: MotionConfig, moving: boolean, startId: number, byId: number): Promise<PrimeData | null> {
  const rows = (await db.selectFrom('positions').selectAll().where('id', 'in', startId === byId ? [startId] : [startId, byId])
    .where('deviceId', '=', deviceId).execute()) as PositionRow[];
  const start = rows.find((r) => Number(r.id) === startId);
  const by = rows.find((r) => Number(r.id) === byId);
  if (!start || !by) return null;
  // Range bounds spelled out next to the (fixTime, id) tie-breaks, so the index range is used.
  const notAfterBy = (q: ReturnType<typeof base>) =>
    q.where('fixTime', '<=', by.fixTime).where((eb) => eb.or([eb('fixTime', '<', by.fixTime), eb('id', '<=', by.id)]));
  const base = () => db.selectFrom('positions').where('deviceId', '=', deviceId);
  const threshold = by.fixTime - (config.newLogic ? config.minDuration : 0);
  // Positions the live machine skipped are not part of its window or its segment.
  const low = Math.min(start.fixTime, threshold) - 86_400_000;
  const late = (await lateIdsOf(db, [deviceId], low, by.fixTime)).get(deviceId) ?? null;
  const kept = (rows: PositionRow[]) => (late ? rows.filter((r) => !late.has(r.id)) : rows);
  const recent = kept((await notAfterBy(base()).selectAll().where('fixTime', '>', threshold)
    .orderBy('fixTime').orderBy('id').execute()) as PositionRow[]);
  const older = kept((await notAfterBy(base()).selectAll().where('fixTime', '<=', threshold)
    .orderBy('fixTime', 'desc').orderBy('id', 'desc').limit(1 + (late?.size ?? 0)).execute()) as PositionRow[]).slice(0, 1);
  const window = config.newLogic ? [...older, ...recent] : [by];
  const max = await notAfterBy(base())
    .where('fixTime', '>=', start.fixTime)
    .where((eb) => eb.or([eb('fixTime', '>', start.fixTime), eb('id', '>=', start.id)]))
    .where(notLate(deviceId, start.fixTime, by.fixTime))
    .select(sql<number>`max("speed")`.as('maxSpeed'))
    .executeTakeFirst();
  return { moving, start, by, maxSpeed: Number(max?.maxSpeed ?? 0), window };
}

/** The live machine's stored state of a device, ready to prime a machine; `after` = the positions after it up to `until`. */
export async function loadPrimeData(db: Db, deviceId: number, config: MotionConfig, untilId: number | null):
  Promise<(PrimeData & { after: () => AsyncGenerator<PositionRow[]> }) | null> {
  const st = await db.selectFrom('motionStates').selectAll().where('deviceId', '=', deviceId).executeTakeFirst();
  const startId = toNumber(st?.startPositionId);
  const byId = toNumber(st?.decidedById);
  if (!st || startId === null || byId === null) return null;
  const data = await primeData(db, deviceId, config, st.moving === 1, startId, byId);
  if (!data) return null;
  const until = untilId === null
    ? null
    : ((await db.selectFrom('positions').select(['fixTime', 'id']).where('id', '=', untilId).executeTakeFirst()) ?? null);
  const by = data.by;
  return {
    ...data,
    after: async function* () {
      if (!until || until.id === by.id) return;
      const late = (await lateIdsOf(db, [deviceId], by.fixTime, until.fixTime)).get(deviceId) ?? null;
      yield* positionsAfter(db, deviceId, { fixTime: by.fixTime, id: by.id }, 0, until.fixTime, { fixTime: until.fixTime, id: Number(until.id) }, MOTION_CHUNK, MOTION_CHUNK, late);
    },
  };
}

/**
 * Stored segments of a device closed within [from, to] (by the fixTime of the position that
 * closed them), from `first` on (its closedTime and id, inclusive), in order, in chunks.
 */
export async function* segmentChunks(
  db: Db, deviceId: number, from: number, to: number, first: { closedTime: number; id: number } | null = null, chunkSize = MOTION_CHUNK,
): AsyncGenerator<SegmentRow[]> {
  let cursor: { closedTime: number; id: number; inclusive: boolean } | null = first ? { ...first, inclusive: true } : null;
  for (;;) {
    let q = db.selectFrom('motionSegments').selectAll().where('deviceId', '=', deviceId).where('closedTime', '<=', to).where('kind', '!=', 'late');
    if (cursor === null) q = q.where('closedTime', '>=', from);
    else {
      const c = cursor;
      q = q.where('closedTime', '>=', c.closedTime)
        .where((eb) => eb.or([eb('closedTime', '>', c.closedTime), eb('id', c.inclusive ? '>=' : '>', c.id)]));
    }
    const rows = (await q.orderBy('closedTime').orderBy('id').limit(chunkSize).execute()) as SegmentRow[];
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < chunkSize) return;
    const tail = rows[rows.length - 1]!;
    cursor = { closedTime: tail.closedTime, id: tail.id, inclusive: false };
  }
}
