// The live store: every visible device by id and its latest position by device id, loaded
// once from the REST API and then kept current by the socket (live-session.ts feeds it).
//
// Positions arrive all the time (a 50,000-vehicle fleet sends ~50,000 a second), so the
// positions record is updated in place: a socket message costs O(positions in it), never a copy
// of the whole record. What changes instead:
//   - every position object that is replaced is a new object (per-device selectors such as
//     useLive((s) => s.positions[id]) still see a change by identity);
//   - `positionsVersion` grows with every accepted batch (whole-record readers such as the device
//     list depend on it, not on the record's identity);
//   - subscribePositions(listener) hears exactly the positions accepted in each batch (the map
//     updates only those vehicles).
// Replacing the whole record with setState (e.g. after a delete) is still allowed: readers that
// care compare the record's identity too. Devices change rarely and stay copy-on-write.
import { create } from 'zustand';
import type { Device, Event, Position } from '@rastro/domain/entities';
import type { SocketStatus } from '../api/socket.ts';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** How many recent events the store keeps for the screens that show them. */
export const MAX_EVENTS = 200;

export interface LiveState {
  devices: Record<number, Device>;
  /** Latest position by device id. Updated in place: watch positionsVersion for changes. */
  positions: Record<number, Position>;
  /** Grows whenever positions changes (in place or replaced). */
  positionsVersion: number;
  /** Recent events from the socket, newest first. */
  events: Event[];
  status: LoadStatus;
  socket: SocketStatus;
}

/** A fresh empty state (fresh records: the positions record is mutated, so none can be shared). */
export const emptyLiveState = (): LiveState => ({
  devices: {},
  positions: {},
  positionsVersion: 0,
  events: [],
  status: 'idle',
  socket: 'closed',
});

export const useLive = create<LiveState>(emptyLiveState);

const time = (value: string | undefined | null) => {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? ms : -Infinity;
};

/**
 * -1, 0 or 1 as `a` is before, at or after `b`. Two ISO 8601 times written alike (same length,
 * same zone suffix, as the server writes them) compare as strings, which is much cheaper than
 * parsing: at fleet scale this runs for every position received.
 */
function compareTimes(a: string | undefined | null, b: string | undefined | null): number {
  if (a && b && a.length === b.length && a.length >= 20 && a[10] === 'T' && b[10] === 'T' && sameZone(a, b)) {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const x = time(a);
  const y = time(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Both end in Z, or in the same ±hh:mm offset. */
function sameZone(a: string, b: string): boolean {
  const n = a.length;
  if (a[n - 1] === 'Z') return b[n - 1] === 'Z';
  const sign = a[n - 6];
  return (sign === '+' || sign === '-') && a[n - 3] === ':' && a.endsWith(b.slice(n - 6));
}

/** True when `incoming` should replace `current` (not older by fix time, then server time). */
export function isNewer(incoming: Position, current: Position | undefined): boolean {
  if (!current) return true;
  const byFix = compareTimes(incoming.fixTime, current.fixTime);
  if (byFix !== 0) return byFix > 0;
  return compareTimes(incoming.serverTime, current.serverTime) >= 0;
}

/**
 * Merges positions into `target` in place, the newest one per device winning, and returns the
 * positions that were accepted (empty when nothing changed). O(incoming).
 */
export function mergePositions(target: Record<number, Position>, incoming: readonly Position[]): Position[] {
  const accepted: Position[] = [];
  for (const position of incoming) {
    if (typeof position?.deviceId !== 'number') continue;
    if (!isNewer(position, target[position.deviceId])) continue;
    target[position.deviceId] = position;
    accepted.push(position);
  }
  return accepted;
}

/** Devices merged by id (a socket `devices` message carries whole device objects). */
export function mergeDevices(current: Record<number, Device>, incoming: readonly Device[]): Record<number, Device> {
  if (incoming.length === 0) return current;
  const next = { ...current };
  for (const device of incoming) if (typeof device?.id === 'number') next[device.id] = { ...current[device.id], ...device };
  return next;
}

// ---- per-batch position listeners ----

type PositionsListener = (accepted: readonly Position[]) => void;
const positionListeners = new Set<PositionsListener>();

/**
 * Calls `listener` with the positions accepted by each applyPositions/setLoaded, after the store
 * has them (and after the store's own subscribers ran). Returns the unsubscribe function.
 */
export function subscribePositions(listener: PositionsListener): () => void {
  positionListeners.add(listener);
  return () => positionListeners.delete(listener);
}

function accept(positions: readonly Position[], extra: Partial<LiveState> | null = null): void {
  const s = useLive.getState();
  const accepted = mergePositions(s.positions, positions);
  if (accepted.length === 0 && !extra) return;
  useLive.setState({ ...extra, ...(accepted.length > 0 ? { positionsVersion: s.positionsVersion + 1 } : {}) });
  if (accepted.length > 0) for (const l of [...positionListeners]) l(accepted);
}

export function setLoaded(devices: readonly Device[], positions: readonly Position[]): void {
  const byId: Record<number, Device> = {};
  for (const d of devices) byId[d.id] = d;
  // Socket positions may have arrived first: they stay when newer.
  accept(positions, { devices: byId, status: 'ready' });
}

export function applyDevices(devices: readonly Device[]): void {
  useLive.setState((s) => ({ devices: mergeDevices(s.devices, devices) }));
}

export function applyPositions(positions: readonly Position[]): void {
  accept(positions);
}

export function applyEvents(events: readonly Event[]): void {
  if (events.length === 0) return;
  useLive.setState((s) => ({ events: [...[...events].reverse(), ...s.events].slice(0, MAX_EVENTS) }));
}

export function setLoadStatus(status: LoadStatus): void {
  useLive.setState({ status });
}

export function setSocketStatus(socket: SocketStatus): void {
  useLive.setState({ socket });
}

export function resetLive(): void {
  useLive.setState(emptyLiveState(), true);
}
