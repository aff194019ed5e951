// Query parameters of Traccar's list endpoints (`all`, `userId`, `groupId`, `deviceId`,
// `keyword`, `limit`, `offset`, `excludeAttributes`, repeatable `id`), parsed once with a
// clear message on bad input, plus the keyword filter every list applies the same way.
import { sql, type Expression, type SqlBool } from 'kysely';
import { badRequest, notFound } from '../http/errors.ts';
import { parseIsoInstant } from '../http/json.ts';

export type Query = Record<string, string | string[] | undefined>;

/** The last value of a parameter (a repeated scalar keeps the last, like Jersey). */
export function single(query: Query, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/**
 * A period bound (`from` / `to`) as an ISO instant with an offset; missing or malformed → 400
 * naming it and saying what `subject` (reports, statistics) needs.
 */
export function isoBound(query: Query, name: 'from' | 'to', subject: string): number {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') {
    throw badRequest(`Missing ${name} - ${subject} need from and to as ISO dates with an offset, like 2024-05-01T10:00:00Z`);
  }
  const ms = parseIsoInstant(raw);
  if (ms === null) throw badRequest(`Invalid ${name} "${raw.slice(0, 40)}" - an ISO date with an offset is expected, like 2024-05-01T10:00:00Z`);
  return ms;
}

/** Every value of a repeatable parameter. */
export function many(query: Query, name: string): string[] {
  const value = query[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export function boolParam(query: Query, name: string): boolean {
  return single(query, name)?.trim().toLowerCase() === 'true';
}

function toInt(name: string, raw: string, min: number): number {
  const text = raw.trim();
  if (!/^-?\d{1,15}$/.test(text)) throw badRequest(`Invalid ${name} - "${raw}" is not a whole number`);
  const value = Number(text);
  if (value < min) throw badRequest(`Invalid ${name} - must be at least ${min}`);
  return value;
}

/**
 * A number read from the query string. Text that is no number at all (`deviceId=abc`) is a
 * 404, as Traccar's JAX-RS resources answer a query parameter they cannot convert; a number
 * out of range is a 400 like any other bad value.
 */
export function queryInt(name: string, raw: string, min: number): number {
  if (!/^-?\d+$/.test(raw.trim())) throw notFound(`Invalid ${name} - "${raw}" is not a whole number`);
  return toInt(name, raw, min);
}

/** A whole-number parameter, or undefined when absent or empty. */
export function intParam(query: Query, name: string, min = 0): number | undefined {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') return undefined;
  return queryInt(name, raw, min);
}

/** Every value of a repeatable id parameter (`id=1&id=2`). */
export function idsParam(query: Query, name: string): number[] {
  return many(query, name)
    .filter((v) => v.trim() !== '')
    .map((v) => queryInt(name, v, 1));
}

/** A path id (`/api/devices/:id`). */
export function pathId(raw: string): number {
  return toInt('id', raw, 1);
}

/** LIMIT value meaning "no limit" (SQLite cannot OFFSET without a LIMIT). */
export const NO_LIMIT = Number.MAX_SAFE_INTEGER;

export interface ListParams {
  all: boolean;
  userId: number | undefined;
  keyword: string | undefined;
  limit: number | undefined;
  offset: number | undefined;
  excludeAttributes: boolean;
}

export function listParams(query: Query): ListParams {
  const keyword = single(query, 'keyword')?.trim();
  const limit = intParam(query, 'limit');
  return {
    all: boolParam(query, 'all'),
    // 0 means "not given" in Traccar's clients.
    userId: intParam(query, 'userId') || undefined,
    keyword: keyword ? keyword : undefined,
    // Traccar pages only with a positive limit.
    limit: limit && limit > 0 ? limit : undefined,
    offset: intParam(query, 'offset'),
    excludeAttributes: boolParam(query, 'excludeAttributes'),
  };
}

/**
 * Case-insensitive substring match of `keyword` over trusted column references, identical on
 * SQLite and PostgreSQL (`lower(...) like` with the wildcards of the keyword escaped).
 */
export function keywordMatch(columns: string[], keyword: string): Expression<SqlBool> {
  const pattern = `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const parts = columns.map((c) => sql<SqlBool>`lower(coalesce(${sql.ref(c)}, '')) like ${pattern} escape '\\'`);
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}
