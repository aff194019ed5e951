// Readers for the fields of a JSON request body (devices, groups and later objects), each
// throwing a 400 that names the field, so bad input never reaches the database.
import { badRequest } from '../http/errors.ts';
import { parseIsoInstant } from '../http/json.ts';

export type Body = Record<string, unknown>;

/** The body as an object, or a 400. */
export function objectBody(body: unknown): Body {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('Invalid body - a JSON object is expected');
  }
  return body as Body;
}

export const has = (body: Body, key: string): boolean => body[key] !== undefined;

/** A required, non-blank string (trimmed). */
export function requiredText(body: Body, key: string, label: string): string {
  const value = body[key];
  if (typeof value !== 'string' && typeof value !== 'number') throw badRequest(`${label} is required - fill in the ${key} field`);
  const text = String(value).trim();
  if (text === '') throw badRequest(`${label} is required - fill in the ${key} field`);
  if (text.length > 512) throw badRequest(`${label} is too long - at most 512 characters`);
  return text;
}

/** An optional string; empty becomes null. */
export function optionalText(body: Body, key: string): string | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' && typeof value !== 'number') throw badRequest(`Invalid ${key} - a text is expected`);
  const text = String(value).trim();
  if (text.length > 4096) throw badRequest(`Invalid ${key} - at most 4096 characters`);
  return text === '' ? null : text;
}

export function optionalBool(body: Body, key: string): number {
  const value = body[key];
  if (value === undefined || value === null || value === false || value === 0) return 0;
  if (value === true || value === 1) return 1;
  if (value === 'true') return 1;
  if (value === 'false') return 0;
  throw badRequest(`Invalid ${key} - true or false is expected`);
}

/** A reference to another object: 0 / null / absent mean "none". */
export function optionalRef(body: Body, key: string): number | null {
  const value = body[key];
  if (value === undefined || value === null || value === 0 || value === '0' || value === '') return null;
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) throw badRequest(`Invalid ${key} - an id is expected`);
  return n;
}

/** An ISO date with offset, or null. */
export function optionalInstant(body: Body, key: string): number | null {
  const value = body[key];
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  const ms = typeof value === 'string' ? parseIsoInstant(value) : null;
  if (ms === null) throw badRequest(`Invalid ${key} - an ISO date with offset is expected, like 2024-05-01T10:00:00Z`);
  return ms;
}

/** The `attributes` object, stored as JSON text. */
export function attributesText(body: Body): string {
  const value = body.attributes;
  if (value === undefined || value === null) return '{}';
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('Invalid attributes - a JSON object is expected');
  const text = JSON.stringify(value);
  if (text.length > 256 * 1024) throw badRequest('Invalid attributes - too large');
  return text;
}

/** A finite, non-negative number, or undefined when absent. */
export function optionalAmount(body: Body, key: string): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) throw badRequest(`Invalid ${key} - a number of at least 0 is expected`);
  return n;
}
