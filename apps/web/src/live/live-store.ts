// The live store: every visible device by id and its latest position by device id, loaded
// once from the REST API and then kept current by the socket (live-session.ts feeds it).
// Objects are replaced, never mutated, so a subscriber can tell what changed by identity
// (the map updates only the markers whose device or position object changed).
import { create } from 'zustand';
import type { Device, Event, Position } from '@rastro/domain/entities';
import type { SocketStatus } from '../api/socket.ts';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** How many recent events the store keeps for the screens that show them. */
export const MAX_EVENTS = 200;

export interface LiveState {
  devices: Record<number, Device>;
  positions: Record<number, Position>;
  /** Recent events from the socket, newest first. */
  events: Event[];
  status: LoadStatus;
  socket: SocketStatus;
}

export const initialLiveState: LiveState = {
  devices: {},
  positions: {},
  events: [],
  status: 'idle',
  socket: 'closed',
};

export const useLive = create<LiveState>(() => ({ ...initialLiveState }));

const time = (value: string | undefined | null) => {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? ms : -Infinity;
};

/** True when `incoming` should replace `current` (not older by fix time, then server time). */
export function isNewer(incoming: Position, current: Position | undefined): boolean {
  if (!current) return true;
  const a = time(incoming.fixTime);
  const b = time(current.fixTime);
  if (a !== b) return a > b;
  return time(incoming.serverTime) >= time(current.serverTime);
}

/** Positions merged into the map by device, the newest one winning. Same object when nothing changed. */
export function mergePositions(current: Record<number, Position>, incoming: readonly Position[]): Record<number, Position> {
  let next: Record<number, Position> | null = null;
  for (const position of incoming) {
    if (typeof position?.deviceId !== 'number') continue;
    const existing = (next ?? current)[position.deviceId];
    if (!isNewer(position, existing)) continue;
    next ??= { ...current };
    next[position.deviceId] = position;
  }
  return next ?? current;
}

/** Devices merged by id (a socket `devices` message carries whole device objects). */
export function mergeDevices(current: Record<number, Device>, incoming: readonly Device[]): Record<number, Device> {
  if (incoming.length === 0) return current;
  const next = { ...current };
  for (const device of incoming) if (typeof device?.id === 'number') next[device.id] = { ...current[device.id], ...device };
  return next;
}

export function setLoaded(devices: readonly Device[], positions: readonly Position[]): void {
  useLive.setState((s) => {
    const byId: Record<number, Device> = {};
    for (const d of devices) byId[d.id] = d;
    // Socket positions may have arrived first: keep whichever is newer.
    return { devices: byId, positions: mergePositions(s.positions, positions), status: 'ready' };
  });
}

export function applyDevices(devices: readonly Device[]): void {
  useLive.setState((s) => ({ devices: mergeDevices(s.devices, devices) }));
}

export function applyPositions(positions: readonly Position[]): void {
  useLive.setState((s) => {
    const next = mergePositions(s.positions, positions);
    return next === s.positions ? s : { positions: next };
  });
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
  useLive.setState({ ...initialLiveState }, true);
}
