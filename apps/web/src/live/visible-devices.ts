// Which devices pass the device-list filters (spec §4: "a marker is hidden when it fails any
// filter"), and the small store holding those filters, the list's sort and grouping.
// The map reads only this:
//   getVisibleDeviceIds(): Set<number> | null   — null = nothing hidden, show every device
//   subscribeVisibleDeviceIds(listener)         — called when that set changes; returns unsubscribe
//   useVisibleDeviceIds()                       — the same as a React hook
// The free-text query is kept in localStorage `query`; grouping in localStorage `mapPref`
// (key `groups`, reference §5.13).
import { useSyncExternalStore } from 'react';
import { create } from 'zustand';
import type { StatusFilter } from '@rastro/domain/device-counts';
import { EMPTY_FILTERS, visibleIds, type AdvancedFilter, type AdvancedFilterType, type DeviceFilters } from '@rastro/domain/device-filters';
import { DEFAULT_SORT, isSortKey, sortReducer, type SortKey, type SortState } from '@rastro/domain/device-sort';
import { useLive } from './live-store.ts';

export const QUERY_STORAGE_KEY = 'query';
export const MAP_PREF_KEY = 'mapPref';
const SORT_STORAGE_KEY = 'rastro.deviceSort';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode: the value lives for this page only */
  }
}

function readMapPref(): Record<string, unknown> {
  try {
    const v = JSON.parse(read(MAP_PREF_KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function readSort(): SortState {
  try {
    const v = JSON.parse(read(SORT_STORAGE_KEY) ?? 'null') as Partial<SortState> | null;
    if (v && isSortKey(v.key) && (v.direction === 'asc' || v.direction === 'desc')) return { key: v.key, direction: v.direction };
  } catch {
    /* default */
  }
  return DEFAULT_SORT;
}

export interface DeviceFilterState {
  filters: DeviceFilters;
  sort: SortState;
  /** Group the list by device group (remembered). */
  grouped: boolean;
  /** Group names by id (for the search); set by whoever loads groups. */
  groupNames: ReadonlyMap<number, string> | undefined;
  /** Devices with an anchor geofence; set by whoever loads geofences. */
  anchored: ReadonlySet<number> | undefined;
}

const initialState = (): DeviceFilterState => ({
  filters: { ...EMPTY_FILTERS, query: read(QUERY_STORAGE_KEY) ?? '' },
  sort: readSort(),
  grouped: readMapPref().groups === true,
  groupNames: undefined,
  anchored: undefined,
});

export const useDeviceFilters = create<DeviceFilterState>(initialState);

const setFilters = (patch: Partial<DeviceFilters>) => useDeviceFilters.setState((s) => ({ filters: { ...s.filters, ...patch } }));

export function setQuery(query: string): void {
  write(QUERY_STORAGE_KEY, query);
  setFilters({ query });
}
export const setStatusFilter = (status: StatusFilter) => setFilters({ status });
export const setStateFilter = (state: string | null) => setFilters({ state });
export const setOnlyDevice = (onlyDeviceId: number | null) => setFilters({ onlyDeviceId });

export function toggleCategory(category: string): void {
  const hidden = useDeviceFilters.getState().filters.hiddenCategories;
  setFilters({ hiddenCategories: hidden.includes(category) ? hidden.filter((c) => c !== category) : [...hidden, category] });
}

/** Sets (or with value null removes) the advanced filter of one type. */
export function setAdvancedFilter(type: AdvancedFilterType, value: boolean | string | null): void {
  const rest = useDeviceFilters.getState().filters.advanced.filter((f) => f.type !== type);
  const next = value === null || value === '' ? rest : [...rest, { type, value } as AdvancedFilter];
  setFilters({ advanced: next });
}

/** Clears every filter and the query (show-only-one-device stays: it belongs to the route view). */
export function clearFilters(): void {
  write(QUERY_STORAGE_KEY, '');
  useDeviceFilters.setState((s) => ({ filters: { ...EMPTY_FILTERS, onlyDeviceId: s.filters.onlyDeviceId } }));
}

export function chooseSort(key: SortKey): void {
  const sort = sortReducer(useDeviceFilters.getState().sort, key);
  write(SORT_STORAGE_KEY, JSON.stringify(sort));
  useDeviceFilters.setState({ sort });
}

export function setGrouped(grouped: boolean): void {
  write(MAP_PREF_KEY, JSON.stringify({ ...readMapPref(), groups: grouped }));
  useDeviceFilters.setState({ grouped });
}

export const setGroupNames = (groupNames: ReadonlyMap<number, string>) => useDeviceFilters.setState({ groupNames });
export const setAnchored = (anchored: ReadonlySet<number>) => useDeviceFilters.setState({ anchored });

/** For tests: back to the stored values. */
export function resetDeviceFilters(): void {
  useDeviceFilters.setState(initialState(), true);
}

// --- The visible set ---------------------------------------------------------------------------

/** Filters that look at positions (others ignore position updates). */
const usesPositions = (f: DeviceFilters) =>
  f.status === 'moving' || f.status === 'stopped' || f.advanced.some((a) => a.type === 'driver' || a.type === 'ignition' || a.type === 'locked');

interface Inputs {
  devices: unknown;
  /** The positions record and its version (it is updated in place), or null when no filter reads positions. */
  positions: unknown;
  positionsVersion: number;
  filters: DeviceFilters;
  groupNames: unknown;
  anchored: unknown;
}
let lastInputs: Inputs | null = null;
let lastResult: Set<number> | null = null;

function sameSet(a: Set<number> | null, b: Set<number> | null): boolean {
  if (a === b) return true;
  if (!a || !b || a.size !== b.size) return false;
  for (const id of a) if (!b.has(id)) return false;
  return true;
}

/** The ids of devices passing every filter, or null when every device shows. */
export function getVisibleDeviceIds(): Set<number> | null {
  const { devices, positions, positionsVersion } = useLive.getState();
  const { filters, groupNames, anchored } = useDeviceFilters.getState();
  const byPosition = usesPositions(filters);
  const inputs: Inputs = { devices, positions: byPosition ? positions : null, positionsVersion: byPosition ? positionsVersion : -1, filters, groupNames, anchored };
  const l = lastInputs;
  if (l && l.devices === inputs.devices && l.positions === inputs.positions && l.positionsVersion === inputs.positionsVersion && l.filters === inputs.filters &&
    l.groupNames === inputs.groupNames && l.anchored === inputs.anchored) return lastResult;
  const next = visibleIds(devices, filters, { positions, groupNames, anchored });
  lastInputs = inputs;
  // Keep the same object while the set is the same, so subscribers can compare by identity.
  if (!sameSet(next, lastResult)) lastResult = next;
  return lastResult;
}

const listeners = new Set<() => void>();
let unsubscribeStores: (() => void) | null = null;
let notified: Set<number> | null = null;

function check(): void {
  const now = getVisibleDeviceIds();
  if (now === notified) return;
  notified = now;
  for (const l of [...listeners]) l();
}

/** Calls `listener` whenever the visible set changes; returns the unsubscribe function. */
export function subscribeVisibleDeviceIds(listener: () => void): () => void {
  listeners.add(listener);
  if (!unsubscribeStores) {
    notified = getVisibleDeviceIds();
    const a = useLive.subscribe(check);
    const b = useDeviceFilters.subscribe(check);
    unsubscribeStores = () => {
      a();
      b();
    };
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && unsubscribeStores) {
      unsubscribeStores();
      unsubscribeStores = null;
    }
  };
}

export function useVisibleDeviceIds(): Set<number> | null {
  return useSyncExternalStore(subscribeVisibleDeviceIds, getVisibleDeviceIds);
}
