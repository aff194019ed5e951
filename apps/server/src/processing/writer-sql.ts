// The writer's two hot statements, compiled by hand: a multi-row INSERT … RETURNING id and
// a multi-row device UPDATE. Building them through Kysely's query builder costs an AST node
// per value (16 per position); here the text is joined once per flush and still executed by
// Kysely (`executeQuery`), inside its transaction, on both dialects.
import { CompiledQuery } from 'kysely';
import type { DialectName } from '../storage/db.ts';
import type { PositionColumns } from './position-draft.ts';

export const POSITION_COLUMNS = [
  'deviceId', 'protocol', 'serverTime', 'deviceTime', 'fixTime', 'valid', 'latitude', 'longitude', 'altitude',
  'speed', 'course', 'address', 'accuracy', 'network', 'geofenceIds', 'attributes',
] as const satisfies ReadonlyArray<keyof PositionColumns>;

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

export function insertPositionsQuery(dialect: DialectName, rows: readonly PositionColumns[]): CompiledQuery<{ id: number }> {
  const params: unknown[] = new Array<unknown>(rows.length * POSITION_COLUMNS.length);
  let k = 0;
  for (const row of rows) for (const column of POSITION_COLUMNS) params[k++] = row[column];
  const columns = POSITION_COLUMNS.map((c) => `"${c}"`).join(', ');
  const values = placeholders(dialect, rows.length, POSITION_COLUMNS.length, (p) => `(${p.join(', ')})`);
  return CompiledQuery.raw(`insert into "positions" (${columns}) values ${values} returning "id"`, params);
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
