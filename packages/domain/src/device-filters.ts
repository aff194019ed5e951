// Device filters (spec §4, reference §5.3) and the list pipeline that applies them, counts and
// sorts in one pass. A device is shown only when it passes every filter:
//   free-text query · combined status · category hide-list · state (attribute device.state) ·
//   advanced filters (all of them) · show-only-one-device.
// Devices whose uniqueId is `deleted-x-y` are never shown. Counts per status are taken over the
// searched set (query only), so the chips tell how many a status filter would show.
import type { Device, Position } from './entities.ts';
import { addToCounts, emptyCounts, matchesStatus, type StatusCounts, type StatusFilter } from './device-counts.ts';
import { deviceSearchKey, matchesTerms, normalizeText, parseQuery } from './device-search.ts';
import { compareByName, lastUpdateOrder, sortNameOrdered, type SortDirection, type SortState } from './device-sort.ts';

export type AdvancedFilterType = 'anchor' | 'driver' | 'ignition' | 'locked' | 'gps_brand' | 'gps_model' | 'technology';
export const ADVANCED_FILTER_TYPES: readonly AdvancedFilterType[] = ['anchor', 'driver', 'ignition', 'locked', 'gps_brand', 'gps_model', 'technology'];
export const BOOLEAN_ADVANCED: readonly AdvancedFilterType[] = ['anchor', 'driver', 'ignition', 'locked'];

export type AdvancedFilter =
  | { type: 'anchor' | 'driver' | 'ignition' | 'locked'; value: boolean }
  | { type: 'gps_brand' | 'gps_model' | 'technology'; value: string };

export interface DeviceFilters {
  query: string;
  status: StatusFilter;
  /** Category keys to hide; an empty category counts as "default". */
  hiddenCategories: readonly string[];
  /** Value of the device attribute device.state, or null for any. */
  state: string | null;
  advanced: readonly AdvancedFilter[];
  /** Show only this device (e.g. while its route is shown); null = off. */
  onlyDeviceId: number | null;
}

export const EMPTY_FILTERS: DeviceFilters = { query: '', status: 'all', hiddenCategories: [], state: null, advanced: [], onlyDeviceId: null };

/** True when any filter besides the query is set. */
export function hasFilters(f: DeviceFilters): boolean {
  return f.status !== 'all' || f.hiddenCategories.length > 0 || f.state !== null || f.advanced.length > 0 || f.onlyDeviceId !== null;
}

/** True when anything (query included) can hide a device. */
export const isFiltering = (f: DeviceFilters): boolean => hasFilters(f) || f.query.trim() !== '';

/** uniqueId `deleted-x-y` (exactly three dash-separated parts, the first "deleted"). */
export function isDeletedDevice(device: { uniqueId: string }): boolean {
  const id = device.uniqueId;
  if (typeof id !== 'string' || !id.startsWith('deleted-')) return false;
  return id.split('-').length === 3;
}

export const categoryOf = (device: { category?: string | null }): string => device.category || 'default';

/** Device attribute read by the gps filters (device.gpsBrand, device.model, device.technology). */
const ADVANCED_ATTRIBUTE: Record<'gps_brand' | 'gps_model' | 'technology', string> = {
  gps_brand: 'device.gpsBrand',
  gps_model: 'device.model',
  technology: 'device.technology',
};

const sameText = (a: unknown, b: string) => typeof a === 'string' || typeof a === 'number'
  ? normalizeText(String(a)).trim() === normalizeText(b).trim()
  : false;

export function passesAdvanced(filter: AdvancedFilter, device: Device, position: Position | null | undefined, anchored: boolean): boolean {
  const a = position?.attributes ?? {};
  switch (filter.type) {
    case 'anchor':
      return anchored === filter.value;
    case 'driver': {
      const has = a.driverUniqueId !== undefined && a.driverUniqueId !== null && a.driverUniqueId !== '';
      return has === filter.value;
    }
    case 'ignition':
      return (a.ignition === true) === filter.value;
    case 'locked':
      return (a.blocked === true) === filter.value;
    default:
      return sameText(device.attributes?.[ADVANCED_ATTRIBUTE[filter.type]], filter.value);
  }
}

export interface FilterContext {
  positions: Readonly<Record<number, Position | undefined>>;
  /** Group names by id, for the search. */
  groupNames?: ReadonlyMap<number, string>;
  /** Devices that have an anchor geofence. */
  anchored?: ReadonlySet<number>;
}

const groupNameOf = (device: Device, ctx: FilterContext) => (device.groupId ? ctx.groupNames?.get(device.groupId) ?? '' : '');

/** Every filter except the query (already normalised terms are checked by the caller). */
export function passesNonQueryFilters(device: Device, filters: DeviceFilters, ctx: FilterContext): boolean {
  if (filters.onlyDeviceId !== null && device.id !== filters.onlyDeviceId) return false;
  const position = ctx.positions[device.id];
  if (!matchesStatus(filters.status, device, position)) return false;
  if (filters.hiddenCategories.length > 0 && filters.hiddenCategories.includes(categoryOf(device))) return false;
  if (filters.state !== null && device.attributes?.['device.state'] !== filters.state) return false;
  if (filters.advanced.length > 0) {
    const anchored = ctx.anchored?.has(device.id) ?? false;
    for (const f of filters.advanced) if (!passesAdvanced(f, device, position, anchored)) return false;
  }
  return true;
}

/** One device against every filter. */
export function passesFilters(device: Device, filters: DeviceFilters, ctx: FilterContext): boolean {
  if (isDeletedDevice(device)) return false;
  const terms = parseQuery(filters.query);
  if (terms.length > 0 && !matchesTerms(deviceSearchKey(device, groupNameOf(device, ctx)), terms)) return false;
  return passesNonQueryFilters(device, filters, ctx);
}

// ---------------------------------------------------------------------------------------------
// The list pipeline.

export type DeviceSource = Readonly<Record<number, Device>> | readonly Device[];

interface Prepared {
  source: DeviceSource;
  groupNames: ReadonlyMap<number, string> | undefined;
  /** Non-deleted devices in ascending name order. */
  devices: Device[];
  keys: string[];
  /** How many devices of the source are lazily deleted (never shown). */
  deleted: number;
  /** lastUpdate orders (indices into devices), built on first use. */
  orders: Partial<Record<SortDirection, Uint32Array>>;
}

let lastPrepared: Prepared | null = null;

const valuesOf = (source: DeviceSource): Device[] => (Array.isArray(source) ? (source as Device[]) : Object.values(source));

/**
 * Devices in name order with their search keys, memoised on the source object. When only some
 * device objects changed (same ids, same names) the previous order is reused, so a socket
 * update does not re-sort 50,000 names.
 */
export function prepareDevices(source: DeviceSource, groupNames?: ReadonlyMap<number, string>): Prepared {
  const prev = lastPrepared;
  if (prev && prev.source === source && prev.groupNames === groupNames) return prev;
  const values = valuesOf(source);
  const all = values.filter((d) => !isDeletedDevice(d));
  const gctx: FilterContext = { positions: {}, groupNames };
  let devices: Device[] | null = null;
  if (prev && prev.groupNames === groupNames && prev.devices.length === all.length) {
    const byId = new Map<number, Device>();
    for (const d of all) byId.set(d.id, d);
    const next: Device[] = new Array(prev.devices.length);
    let ok = true;
    for (let i = 0; i < prev.devices.length; i++) {
      const old = prev.devices[i]!;
      const d = byId.get(old.id);
      if (!d || d.name !== old.name) {
        ok = false;
        break;
      }
      next[i] = d;
    }
    if (ok) devices = next;
  }
  devices ??= all.sort(compareByName);
  const keys = devices.map((d) => deviceSearchKey(d, groupNameOf(d, gctx)));
  lastPrepared = { source, groupNames, devices, keys, deleted: values.length - all.length, orders: {} };
  return lastPrepared;
}

export interface DeviceListResult {
  /** Devices passing every filter, sorted. */
  devices: Device[];
  /** Counts per status over the searched set. */
  counts: StatusCounts;
  /** Devices before any filter (deleted ones excluded). */
  total: number;
}

interface QueryMatch {
  prepared: Prepared;
  query: string;
  /** 1 where the device at that index matches the query. */
  mask: Uint8Array;
  /** Matching indices in name order. */
  matched: Uint32Array;
}

let lastMatch: QueryMatch | null = null;

/**
 * The devices matching a query, memoised; when the query only grew (typing on), only the
 * previous matches are tested again, so each keystroke costs less than the one before.
 */
function matchQuery(prepared: Prepared, rawQuery: string): QueryMatch | null {
  const query = normalizeText(rawQuery).replace(/\s+/g, ' ').trimStart();
  const terms = parseQuery(rawQuery);
  if (terms.length === 0) return null;
  const prev = lastMatch;
  if (prev && prev.prepared === prepared && prev.query === query) return prev;
  const { keys } = prepared;
  const n = keys.length;
  const mask = new Uint8Array(n);
  const matched: number[] = [];
  if (prev && prev.prepared === prepared && prev.query !== '' && query.startsWith(prev.query)) {
    for (const i of prev.matched) {
      if (matchesTerms(keys[i]!, terms)) {
        mask[i] = 1;
        matched.push(i);
      }
    }
  } else {
    for (let i = 0; i < n; i++) {
      if (matchesTerms(keys[i]!, terms)) {
        mask[i] = 1;
        matched.push(i);
      }
    }
  }
  lastMatch = { prepared, query, mask, matched: Uint32Array.from(matched) };
  return lastMatch;
}

/** Filters, counts and sorts in one pass over the prepared name order. */
export function buildDeviceList(source: DeviceSource, filters: DeviceFilters, sort: SortState, ctx: FilterContext): DeviceListResult {
  const prepared = prepareDevices(source, ctx.groupNames);
  const { devices } = prepared;
  const match = matchQuery(prepared, filters.query);
  const counts = emptyCounts();
  const shown: Device[] = [];
  const others = hasFilters(filters);
  const visit = (i: number) => {
    const d = devices[i]!;
    const position = ctx.positions[d.id];
    addToCounts(counts, d, position);
    if (!others || passesNonQueryFilters(d, filters, ctx)) shown.push(d);
  };
  if (sort.key === 'lastUpdate') {
    // A precomputed order, so a keystroke never sorts.
    const order = (prepared.orders[sort.direction] ??= lastUpdateOrder(devices, sort.direction));
    const mask = match?.mask;
    for (let j = 0; j < order.length; j++) {
      const i = order[j]!;
      if (!mask || mask[i]) visit(i);
    }
  } else {
    const reverse = sort.key === 'name' && sort.direction === 'desc';
    if (match) {
      const m = match.matched;
      if (reverse) for (let j = m.length - 1; j >= 0; j--) visit(m[j]!);
      else for (let j = 0; j < m.length; j++) visit(m[j]!);
    } else if (reverse) {
      for (let i = devices.length - 1; i >= 0; i--) visit(i);
    } else {
      for (let i = 0; i < devices.length; i++) visit(i);
    }
  }
  const sorted = sort.key === 'name' || sort.key === 'lastUpdate' ? shown : sortNameOrdered(shown, sort, ctx);
  return { devices: sorted, counts, total: devices.length };
}

/** Ids of the devices passing every filter; null when nothing is hidden (every device shows). */
export function visibleIds(source: DeviceSource, filters: DeviceFilters, ctx: FilterContext): Set<number> | null {
  const prepared = prepareDevices(source, ctx.groupNames);
  const { devices, deleted } = prepared;
  if (!isFiltering(filters) && deleted === 0) return null;
  const match = matchQuery(prepared, filters.query);
  const others = hasFilters(filters);
  const ids = new Set<number>();
  const visit = (i: number) => {
    const d = devices[i]!;
    if (!others || passesNonQueryFilters(d, filters, ctx)) ids.add(d.id);
  };
  if (match) for (const i of match.matched) visit(i);
  else for (let i = 0; i < devices.length; i++) visit(i);
  return ids;
}
