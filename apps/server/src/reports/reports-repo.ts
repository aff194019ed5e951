// Reads behind the reports: which devices a request covers, positions and events of a device
// in a period, streamed in chunks. Ranges are never loaded whole: every read is a keyset page
// over (deviceId, fixTime, id) — or (deviceId, eventTime, id) — of at most `chunkSize` rows, so
// memory stays bounded by one chunk however long the period is.
import type { Kysely, Selectable } from 'kysely';
import type { Database, DeviceTable } from '../storage/schema.ts';
import { notDeletedDevice } from '../access/visibility.ts';
import type { PositionRow } from '../positions/position-json.ts';
import type { EventRow } from '../events/event-json.ts';

/** Rows read per query while streaming a range. */
export const REPORT_CHUNK_SIZE = 2_000;

export type ReportDevice = Pick<Selectable<DeviceTable>, 'id' | 'name' | 'groupId' | 'attributes'>;
export type { EventRow };

type Db = Kysely<Database>;

export interface ChunkOptions {
  chunkSize?: number;
  /** Stop after this many rows in all (the route report's per-device cap). */
  limit?: number;
}

type PositionColumn = keyof PositionRow & string;

/**
 * The keyset walk every position read below shares: `columns` (plus fixTime and id, its keys)
 * of one device's positions with from <= fixTime <= to, oldest first (ties by id), in chunks of
 * at most `chunkSize`, `limit` rows in all. Each chunk is one indexed query resuming after the
 * last row of the previous one.
 */
async function* keysetChunks<C extends PositionColumn>(
  db: Db, deviceId: number, from: number, to: number, columns: readonly C[] | 'all', chunkSize: number, limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<Array<Pick<PositionRow, C | 'fixTime' | 'id'>>> {
  let remaining = limit;
  let after: { fixTime: number; id: number } | null = null;
  while (remaining > 0) {
    const size = Math.min(chunkSize, remaining);
    const base = db.selectFrom('positions');
    const selected = columns === 'all' ? base.selectAll() : base.select([...new Set<PositionColumn>(['id', 'fixTime', ...columns])]);
    let query = selected.where('deviceId', '=', deviceId).where('fixTime', '<=', to);
    if (after === null) query = query.where('fixTime', '>=', from);
    else {
      const last: { fixTime: number; id: number } = after;
      query = query
        .where('fixTime', '>=', last.fixTime)
        .where((eb) => eb.or([eb('fixTime', '>', last.fixTime), eb('id', '>', last.id)]));
    }
    const rows = (await query.orderBy('fixTime').orderBy('id').limit(size).execute()) as Array<Pick<PositionRow, C | 'fixTime' | 'id'>>;
    if (rows.length === 0) return;
    yield rows;
    remaining -= rows.length;
    if (rows.length < size) return;
    const tail = rows[rows.length - 1]!;
    after = { fixTime: tail.fixTime, id: tail.id };
  }
}

/** Positions of one device with from <= fixTime <= to, oldest first (ties by id), as chunks. */
export async function* positionChunks(db: Db, deviceId: number, from: number, to: number, options: ChunkOptions = {}): AsyncGenerator<PositionRow[]> {
  yield* keysetChunks(db, deviceId, from, to, 'all', options.chunkSize ?? REPORT_CHUNK_SIZE, options.limit) as AsyncGenerator<PositionRow[]>;
}

/** Speeds of one device's positions in a period, chunked like `positionChunks` but reading three columns. */
export async function* speedChunks(db: Db, deviceId: number, from: number, to: number, chunkSize = REPORT_CHUNK_SIZE * 5): AsyncGenerator<number[]> {
  for await (const rows of keysetChunks(db, deviceId, from, to, ['speed'], chunkSize)) yield rows.map((r) => r.speed);
}

/** Longitude and latitude of one device's positions in a period, chunked like `positionChunks` (the combined report's route). */
export async function* coordinateChunks(db: Db, deviceId: number, from: number, to: number, limit: number, chunkSize = REPORT_CHUNK_SIZE * 5): AsyncGenerator<Array<[number, number]>> {
  for await (const rows of keysetChunks(db, deviceId, from, to, ['longitude', 'latitude'], chunkSize, limit)) {
    yield rows.map((r): [number, number] => [r.longitude, r.latitude]);
  }
}

/** Positions of one device among `ids` whose fixTime lies in the period, by fixTime (ties by id). */
export async function positionsByIdsIn(db: Db, deviceId: number, ids: number[], from: number, to: number): Promise<PositionRow[]> {
  const out: PositionRow[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    out.push(
      ...(await db
        .selectFrom('positions')
        .selectAll()
        .where('id', 'in', ids.slice(i, i + 500))
        .where('deviceId', '=', deviceId)
        .where('fixTime', '>=', from)
        .where('fixTime', '<=', to)
        .execute()),
    );
  }
  return out.sort((a, b) => a.fixTime - b.fixTime || a.id - b.id);
}

/** The first (or last) position of a device in a period: one indexed lookup. */
export function edgePosition(db: Db, deviceId: number, from: number, to: number, which: 'first' | 'last'): Promise<PositionRow | undefined> {
  const dir = which === 'first' ? 'asc' : 'desc';
  return db
    .selectFrom('positions')
    .selectAll()
    .where('deviceId', '=', deviceId)
    .where('fixTime', '>=', from)
    .where('fixTime', '<=', to)
    .orderBy('fixTime', dir)
    .orderBy('id', dir)
    .limit(1)
    .executeTakeFirst();
}

/** Highest speed of a device in a period, computed by the database (null without positions). */
export async function maxSpeedIn(db: Db, deviceId: number, from: number, to: number): Promise<number | null> {
  const row = await db
    .selectFrom('positions')
    .select((eb) => eb.fn.max('speed').as('max'))
    .where('deviceId', '=', deviceId)
    .where('fixTime', '>=', from)
    .where('fixTime', '<=', to)
    .executeTakeFirst();
  return row?.max === null || row?.max === undefined ? null : Number(row.max);
}

export interface EventFilter {
  /** Event types to keep; null = every type. */
  types: Set<string> | null;
  /** For `alarm` events: alarm values to keep; null = every alarm. */
  alarms: Set<string> | null;
}

/** Events of one device with from <= eventTime <= to, oldest first, as chunks (types filtered in SQL). */
export async function* eventChunks(db: Db, deviceId: number, from: number, to: number, types: Set<string> | null, chunkSize = REPORT_CHUNK_SIZE): AsyncGenerator<EventRow[]> {
  if (types !== null && types.size === 0) return;
  let after: { eventTime: number; id: number } | null = null;
  for (;;) {
    let query = db.selectFrom('events').selectAll().where('deviceId', '=', deviceId).where('eventTime', '<=', to);
    if (types !== null) query = query.where('type', 'in', [...types]);
    if (after === null) query = query.where('eventTime', '>=', from);
    else {
      const last: { eventTime: number; id: number } = after;
      query = query
        .where('eventTime', '>=', last.eventTime)
        .where((eb) => eb.or([eb('eventTime', '>', last.eventTime), eb('id', '>', last.id)]));
    }
    const rows = await query.orderBy('eventTime').orderBy('id').limit(chunkSize).execute();
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < chunkSize) return;
    const tail = rows[rows.length - 1]!;
    after = { eventTime: tail.eventTime, id: tail.id };
  }
}

/** Devices by id (not lazily deleted), by name then id. */
export async function devicesByIds(db: Db, ids: number[]): Promise<ReportDevice[]> {
  const out: ReportDevice[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    out.push(
      ...(await db
        .selectFrom('devices')
        .select(['id', 'name', 'groupId', 'attributes'])
        .where('id', 'in', ids.slice(i, i + 500))
        .where(notDeletedDevice('devices.uniqueId'))
        .execute()),
    );
  }
  return out.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** Ids of the devices in the given groups and in every group below them (any depth, cycles safe). */
export async function deviceIdsInGroups(db: Db, groupIds: number[]): Promise<number[]> {
  if (groupIds.length === 0) return [];
  const groups = await db.selectFrom('groups').select(['id', 'groupId']).execute();
  const children = new Map<number, number[]>();
  for (const g of groups) {
    if (g.groupId === null) continue;
    const list = children.get(g.groupId) ?? [];
    list.push(g.id);
    children.set(g.groupId, list);
  }
  const seen = new Set<number>();
  const queue = [...groupIds];
  while (queue.length > 0) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(children.get(id) ?? []));
  }
  const ids = [...seen];
  const out: number[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('devices').select('id').where('groupId', 'in', ids.slice(i, i + 500)).execute();
    out.push(...rows.map((r) => r.id));
  }
  return out;
}

/** Names of geofences by id (ids are few: those events of one chunk name). */
export function geofenceNames(db: Db, ids: number[]): Promise<Array<{ id: number; name: string }>> {
  return db.selectFrom('geofences').select(['id', 'name']).where('id', 'in', ids.slice(0, 500)).execute();
}

/** Geofence ids a user may see (direct links only, as Traccar); used to drop events of hidden geofences. */
export async function visibleGeofenceIds(db: Db, userId: number): Promise<Set<number>> {
  const rows = await db.selectFrom('userGeofence').select('propertyId').where('ownerId', '=', userId).execute();
  return new Set(rows.map((r) => Number(r.propertyId)));
}
