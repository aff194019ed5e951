// Conversions between stored values and API JSON.
import { MAX_JSON_DEPTH, mayNestDeeperThan, scanJson } from './json-scan.ts';

/** Where a stored value that cannot be shown is reported (app.ts points it at the server log). */
export type StoredValueWarning = (details: { field: string; id: number | undefined; value: unknown }) => void;

let warnStoredValue: StoredValueWarning = () => {};
const warned = new Set<string>();
const MAX_WARNED = 1000;

export function onStoredValueWarning(hook: StoredValueWarning): void {
  warnStoredValue = hook;
}

/** Reports an unshowable stored value once per field, row and value (lists repeat it on every read). */
function warnOnce(field: string, id: number | undefined, value: unknown): void {
  const key = `${field}:${id}:${String(value)}`;
  if (warned.has(key)) return;
  if (warned.size >= MAX_WARNED) warned.clear();
  warned.add(key);
  warnStoredValue({ field, id, value });
}

/**
 * An instant as the API writes it (`…+00:00`); a missing one stays null. A stored number no
 * date can represent (a row written before inputs were range-checked) is shown as null too and
 * logged once, so one bad row never breaks a list for everyone. The `number` overload keeps
 * its string type: every instant the server accepts today is representable.
 */
export function toIso(ms: number, field?: string, id?: number): string;
export function toIso(ms: number | null | undefined, field?: string, id?: number): string | null;
export function toIso(ms: number | null | undefined, field = 'instant', id?: number): string | null {
  if (ms === null || ms === undefined) return null;
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) {
    warnOnce(field, id, ms);
    return null;
  }
  return date.toISOString().replace('Z', '+00:00');
}

/**
 * `parseIsoInstant(text)`: an ISO-8601 instant that carries an offset or Z (Traccar refuses
 * zone-less dates), names a real calendar date and lies within 1970–2200, or null. The rule
 * lives in the domain package so the client checks dates the same way.
 */
export { parseIsoInstant } from '@rastro/domain/schemas/instant';

export const toBool = (v: number | boolean | null | undefined): boolean => v === true || v === 1;
export const fromBool = (v: unknown): number => (v === true || v === 1 || v === 'true' ? 1 : 0);

/**
 * A stored `attributes` JSON text as an object; anything else reads as {}. Text nested deeper
 * than a body may be (a row written before bodies were depth-checked) would make the answer's
 * serialisation overflow the stack, so it reads as {} too and is logged once.
 */
export function parseAttributes(text: string | null | undefined, field = 'attributes', id?: number): Record<string, unknown> {
  if (!text) return {};
  if (mayNestDeeperThan(text, MAX_JSON_DEPTH) && scanJson(text, MAX_JSON_DEPTH, { texts: false })?.kind === 'depth') {
    warnOnce(field, id, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    return {};
  }
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
