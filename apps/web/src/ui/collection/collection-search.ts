// Search and sort of a generic entity list (users, geofences, calendars...): a query matches
// any field's value and any attribute value, case- and accent-insensitively, every term in
// some field (the device list's rule, @rastro/domain/device-search). Secrets are never
// searched. Each entity's search text is built once per object: lists are replaced, not
// mutated, so a keystroke only runs `includes`.
import { normalizeText, parseQuery } from '@rastro/domain/device-search';

/** Fields and attributes never worth searching (secrets). */
const SKIP = new Set(['password', 'token', 'hashedPassword', 'salt']);
/** Separates fields so a term cannot match across two of them. */
const SEP = '\u0001';

function collect(value: unknown, parts: string[], depth: number): void {
  if (typeof value === 'string') {
    if (value) parts.push(value);
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    parts.push(String(value));
  } else if (value && typeof value === 'object' && depth < 2) {
    // Depth 2 reaches `attributes.x` without walking arbitrarily deep JSON.
    for (const [k, v] of Object.entries(value)) if (!SKIP.has(k)) collect(v, parts, depth + 1);
  }
}

const keys = new WeakMap<object, string>();

/** The normalised text a query is matched against, memoised per object. */
export function searchKey(item: object): string {
  let key = keys.get(item);
  if (key === undefined) {
    const parts: string[] = [];
    collect(item, parts, 0);
    key = normalizeText(parts.join(SEP));
    keys.set(item, key);
  }
  return key;
}

export function filterItems<T extends object>(items: readonly T[], query: string): T[] {
  const terms = parseQuery(query);
  if (terms.length === 0) return [...items];
  return items.filter((item) => {
    const key = searchKey(item);
    return terms.every((t) => key.includes(t));
  });
}

export type SortValue = string | number | boolean | null | undefined;
export interface SortState {
  key: string;
  direction: 'asc' | 'desc';
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Empty values last in both directions (nothing to read is never the "first" row). */
export function compareValues(a: SortValue, b: SortValue): number {
  const emptyA = a === null || a === undefined || a === '';
  const emptyB = b === null || b === undefined || b === '';
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return collator.compare(String(a), String(b));
}

/** A stable sort by one column's value; ties keep the server's order. */
export function sortItems<T>(items: readonly T[], valueOf: (item: T) => SortValue, direction: 'asc' | 'desc'): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  return items
    .map((item, index) => ({ item, index, value: valueOf(item) }))
    .sort((x, y) => {
      const emptyX = x.value === null || x.value === undefined || x.value === '';
      const emptyY = y.value === null || y.value === undefined || y.value === '';
      if (emptyX !== emptyY) return emptyX ? 1 : -1;
      return sign * compareValues(x.value, y.value) || x.index - y.index;
    })
    .map((e) => e.item);
}

/** A header click: a new column sorts ascending, the same column flips. */
export function nextSort(current: SortState | null, key: string): SortState {
  return current?.key === key ? { key, direction: current.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: 'asc' };
}
