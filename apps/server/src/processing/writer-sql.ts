// The writer's statements, compiled by hand. Building them through Kysely's query builder
// costs an AST node per value (16 per position); here the text is joined once per flush.
// PostgreSQL runs multi-row statements through Kysely (`executeQuery`, inside its transaction);
// the SQLite writer thread prepares the single-row forms once and runs them per row.
import { CompiledQuery } from 'kysely';
import type { DialectName } from '../storage/db.ts';
import { DEVICE_COLUMN_NAME, EVENT_COLUMNS, MOTION_STATE_COLUMNS, POSITION_COLUMNS, SEGMENT_COLUMNS, type WriterThreadInit } from './writer-protocol.ts';

export { POSITION_COLUMNS, EVENT_COLUMNS };

const quoted = (columns: readonly string[]) => columns.map((c) => `"${c}"`).join(', ');

/** Placeholder list `(?, ?, …)` or `($1, $2, …)` for `rows` rows of `width` values. */
function placeholders(dialect: DialectName, rows: number, width: number, wrap: (p: string[]) => string): string {
  const out: string[] = new Array<string>(rows);
  let n = 1;
  for (let r = 0; r < rows; r++) {
    const row: string[] = new Array<string>(width);
    for (let c = 0; c < width; c++) row[c] = dialect === 'postgres' ? `$${n++}` : '?';
    out[r] = wrap(row);
  }
  return out.join(', ');
}

/** Multi-row INSERT … RETURNING id; `params` holds POSITION_COLUMNS values row after row. */
export function insertPositionsQuery(dialect: DialectName, params: readonly unknown[]): CompiledQuery<{ id: number }> {
  const rows = params.length / POSITION_COLUMNS.length;
  const values = placeholders(dialect, rows, POSITION_COLUMNS.length, (p) => `(${p.join(', ')})`);
  return CompiledQuery.raw(`insert into "positions" (${quoted(POSITION_COLUMNS)}) values ${values} returning "id"`, [...params]);
}

/** Multi-row INSERT … RETURNING id of events; `params` holds EVENT_COLUMNS values row after row. */
export function insertEventsQuery(dialect: DialectName, params: readonly unknown[]): CompiledQuery<{ id: number }> {
  const rows = params.length / EVENT_COLUMNS.length;
  const values = placeholders(dialect, rows, EVENT_COLUMNS.length, (p) => `(${p.join(', ')})`);
  return CompiledQuery.raw(`insert into "events" (${quoted(EVENT_COLUMNS)}) values ${values} returning "id"`, [...params]);
}

/** Multi-row INSERT of trip/stop segments (SEGMENT_COLUMNS values, references already resolved). */
export function insertSegmentsQuery(dialect: DialectName, params: readonly unknown[]): CompiledQuery {
  const rows = params.length / SEGMENT_COLUMNS.length;
  const values = placeholders(dialect, rows, SEGMENT_COLUMNS.length, (p) => `(${p.join(', ')})`);
  return CompiledQuery.raw(`insert into "motionSegments" (${quoted(SEGMENT_COLUMNS)}) values ${values}`, [...params]);
}

const UPSERT_MOTION_STATE_TAIL = ` on conflict ("deviceId") do update set "moving" = excluded."moving", ` +
  `"startPositionId" = excluded."startPositionId", "decidedById" = excluded."decidedById"`;

/** Multi-row upsert of motion states (one row per device; MOTION_STATE_COLUMNS values, references resolved). */
export function upsertMotionStatesQuery(dialect: DialectName, params: readonly unknown[]): CompiledQuery {
  const rows = params.length / MOTION_STATE_COLUMNS.length;
  const values = placeholders(dialect, rows, MOTION_STATE_COLUMNS.length, (p) => `(${p.join(', ')})`);
  return CompiledQuery.raw(`insert into "motionStates" (${quoted(MOTION_STATE_COLUMNS)}) values ${values}${UPSERT_MOTION_STATE_TAIL}`, [...params]);
}

export interface DeviceStateRow {
  id: number;
  status: string | null;
  lastUpdate: number | null;
  positionId: number | null;
}

export function updateDevicesQuery(dialect: DialectName, rows: readonly DeviceStateRow[]): CompiledQuery {
  const params: unknown[] = [];
  for (const r of rows) params.push(r.id, r.status, r.lastUpdate, r.positionId);
  // Casts give PostgreSQL the column types of the VALUES list; SQLite accepts them too.
  const values = placeholders(dialect, rows.length, 4, ([id, status, lastUpdate, positionId]) =>
    `(cast(${id} as bigint), cast(${status} as text), cast(${lastUpdate} as bigint), cast(${positionId} as bigint))`);
  return CompiledQuery.raw(
    `with v ("id", "status", "lastUpdate", "positionId") as (values ${values}) ` +
      `update "devices" set "status" = v."status", "lastUpdate" = v."lastUpdate", "positionId" = v."positionId" ` +
      // The IN lets SQLite walk the listed ids by primary key instead of scanning every device.
      `from v where "devices"."id" = v."id" and "devices"."id" in (select "id" from v)`,
    params,
  );
}

/**
 * Groups `deviceColumns` triples (id, column, value) into one UPDATE per device and column set:
 * `{ sql, params }` with `?` placeholders (SQLite) or `$n` (PostgreSQL). Later values win.
 */
export function deviceColumnUpdates(dialect: DialectName, triples: readonly unknown[]): Array<{ sql: string; params: unknown[] }> {
  const byDevice = new Map<number, Map<string, unknown>>();
  for (let k = 0; k + 2 < triples.length; k += 3) {
    const id = triples[k] as number;
    const column = triples[k + 1] as string;
    if (!DEVICE_COLUMN_NAME.test(column)) throw new Error(`invalid device column ${JSON.stringify(column)}`);
    let columns = byDevice.get(id);
    if (!columns) byDevice.set(id, (columns = new Map()));
    columns.set(column, triples[k + 2]);
  }
  const out: Array<{ sql: string; params: unknown[] }> = [];
  for (const [id, columns] of byDevice) {
    let n = 1;
    const p = () => (dialect === 'postgres' ? `$${n++}` : '?');
    const sets = [...columns.keys()].map((c) => `"${c}" = ${p()}`).join(', ');
    out.push({ sql: `update "devices" set ${sets} where "id" = ${p()}`, params: [...columns.values(), id] });
  }
  return out;
}

/** The single-row statements the SQLite writer thread prepares once; updateDevice takes status, lastUpdate, positionId, id. */
export function sqliteWriterStatements(): WriterThreadInit['statements'] {
  const row = (n: number) => `(${new Array<string>(n).fill('?').join(', ')})`;
  return {
    insertPosition: `insert into "positions" (${quoted(POSITION_COLUMNS)}) values ${row(POSITION_COLUMNS.length)}`,
    insertEvent: `insert into "events" (${quoted(EVENT_COLUMNS)}) values ${row(EVENT_COLUMNS.length)}`,
    updateDevice: `update "devices" set "status" = ?, "lastUpdate" = ?, "positionId" = ? where "id" = ?`,
    insertSegment: `insert into "motionSegments" (${quoted(SEGMENT_COLUMNS)}) values ${row(SEGMENT_COLUMNS.length)}`,
    upsertMotionState: `insert into "motionStates" (${quoted(MOTION_STATE_COLUMNS)}) values ${row(MOTION_STATE_COLUMNS.length)}${UPSERT_MOTION_STATE_TAIL}`,
  };
}
