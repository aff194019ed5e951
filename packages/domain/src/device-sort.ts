// Device list sorting (spec §4, reference §5.3): keys name, lastUpdate and the state sub-kinds
// motion, anchor, locked, ignition, driver, alert. Default name ascending; choosing the same key
// toggles the direction, a new key starts ascending.
//   name        asc = A→Z (accent-insensitive, numbers in numeric order)
//   lastUpdate  asc = most recent first; never-updated devices always last
//   state-*     asc = devices with the flag first; devices without a position always last
// Ties keep name order.
import type { Device, Position } from './entities.ts';

export const STATE_KINDS = ['motion', 'anchor', 'locked', 'ignition', 'driver', 'alert'] as const;
export type StateKind = (typeof STATE_KINDS)[number];
export type SortKey = 'name' | 'lastUpdate' | `state-${StateKind}`;
export const SORT_KEYS: readonly SortKey[] = ['name', 'lastUpdate', ...STATE_KINDS.map((k) => `state-${k}` as const)];
export type SortDirection = 'asc' | 'desc';

export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

export const DEFAULT_SORT: SortState = { key: 'name', direction: 'asc' };

export const isSortKey = (value: unknown): value is SortKey => typeof value === 'string' && (SORT_KEYS as readonly string[]).includes(value);

/** The sort reducer: same key toggles the direction, another key starts ascending. */
export function sortReducer(state: SortState, key: SortKey): SortState {
  if (state.key === key) return { key, direction: state.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}

/** The flag a state sort looks at; null without a position. */
export function stateFlag(kind: StateKind, position: Position | null | undefined, anchored: boolean): boolean | null {
  if (!position) return null;
  const a = position.attributes ?? {};
  switch (kind) {
    case 'motion':
      return a.motion === true;
    case 'anchor':
      return anchored;
    case 'locked':
      return a.blocked === true;
    case 'ignition':
      return a.ignition === true;
    case 'driver':
      return a.driverUniqueId !== undefined && a.driverUniqueId !== null && a.driverUniqueId !== '';
    case 'alert':
      return a.alarm !== undefined && a.alarm !== null && a.alarm !== '' && a.alarm !== false;
  }
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Name order (ascending), ties by id so the order is total. */
export function compareByName(a: { name: string; id: number }, b: { name: string; id: number }): number {
  return collator.compare(a.name ?? '', b.name ?? '') || a.id - b.id;
}

export interface SortContext {
  positions: Readonly<Record<number, Position | undefined>>;
  anchored?: ReadonlySet<number>;
}

const updatedCache = new WeakMap<Device, number>();
/** lastUpdate in ms (NaN when never updated), parsed once per device object. */
export const updatedMs = (d: Device): number => {
  let ms = updatedCache.get(d);
  if (ms === undefined) {
    ms = d.lastUpdate ? Date.parse(d.lastUpdate) : NaN;
    updatedCache.set(d, ms);
  }
  return ms;
};

/** Fleets up to this size use the packed-key sort (seconds × 2^17 + index stays below 2^53). */
const PACK_LIMIT = 131_072;

/**
 * Positions (indices into `devices`, which are in name order) in lastUpdate order: ascending =
 * most recent first; never-updated devices last in both directions; ties keep name order.
 */
export function lastUpdateOrder(devices: readonly Device[], direction: SortDirection): Uint32Array {
  const n = devices.length;
  const out = new Uint32Array(n);
  const never: number[] = [];
  if (n <= PACK_LIMIT) {
    // Fast path: pack (seconds, name index) into one exact float and let the typed array sort
    // natively; ties within the same second keep name order.
    const keys = new Float64Array(n);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const t = updatedMs(devices[i]!);
      if (Number.isNaN(t)) never.push(i);
      else {
        const sec = Math.floor(t / 1000);
        keys[k++] = (direction === 'desc' ? sec : -sec) * PACK_LIMIT + i;
      }
    }
    const sorted = keys.subarray(0, k).sort();
    for (let j = 0; j < k; j++) {
      const v = sorted[j]!;
      out[j] = ((v % PACK_LIMIT) + PACK_LIMIT) % PACK_LIMIT;
    }
    out.set(never, k);
    return out;
  }
  const times = new Float64Array(n);
  const order: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = updatedMs(devices[i]!);
    times[i] = t;
    (Number.isNaN(t) ? never : order).push(i);
  }
  order.sort(direction === 'desc' ? (a, b) => times[a]! - times[b]! || a - b : (a, b) => times[b]! - times[a]! || a - b);
  out.set(order);
  out.set(never, order.length);
  return out;
}

/**
 * Sorts devices that are ALREADY in ascending name order (the list pipeline keeps them so),
 * without re-comparing names: name sorts reverse or keep, the others are stable.
 */
export function sortNameOrdered<T extends Device>(devices: readonly T[], sort: SortState, ctx: SortContext): T[] {
  if (sort.key === 'name') return sort.direction === 'asc' ? devices.slice() : devices.slice().reverse();
  const desc = sort.direction === 'desc';
  if (sort.key === 'lastUpdate') {
    const times = new Float64Array(devices.length);
    const order: number[] = [];
    const never: T[] = [];
    for (let i = 0; i < devices.length; i++) {
      const t = updatedMs(devices[i]!);
      times[i] = t;
      if (Number.isNaN(t)) never.push(devices[i]!);
      else order.push(i);
    }
    order.sort(desc ? (a, b) => times[a]! - times[b]! || a - b : (a, b) => times[b]! - times[a]! || a - b);
    const out: T[] = new Array(order.length);
    for (let i = 0; i < order.length; i++) out[i] = devices[order[i]!]!;
    for (const d of never) out.push(d);
    return out;
  }
  const kind = sort.key.slice('state-'.length) as StateKind;
  const yes: T[] = [];
  const no: T[] = [];
  const none: T[] = [];
  for (const d of devices) {
    const flag = stateFlag(kind, ctx.positions[d.id], ctx.anchored?.has(d.id) ?? false);
    (flag === null ? none : flag ? yes : no).push(d);
  }
  return desc ? no.concat(yes, none) : yes.concat(no, none);
}

/** Sorts any devices (name order first, then the chosen key). */
export function sortDevices<T extends Device>(devices: readonly T[], sort: SortState, ctx: SortContext): T[] {
  return sortNameOrdered(devices.slice().sort(compareByName), sort, ctx);
}
