import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Device, Event, Position } from '@rastro/domain/entities';
import type { SocketHandle, SocketOptions } from '../api/socket.ts';
import { isNewer, mergeDevices, mergePositions, MAX_EVENTS, resetLive, useLive } from './live-store.ts';
import { startLiveSession, type LiveApi } from './live-session.ts';
import { MUTE_KEY, readMuted, useMute } from './mute.ts';

const device = (id: number, extra: Partial<Device> = {}): Device => ({
  id, name: `Vehicle ${id}`, uniqueId: `u${id}`, status: 'online', disabled: false, lastUpdate: null, positionId: null,
  groupId: null, calendarId: null, phone: null, model: null, contact: null, category: null, expirationTime: null, attributes: {},
  ...extra,
});

const position = (deviceId: number, fixTime: string, extra: Partial<Position> = {}): Position => ({
  id: Math.floor(Math.random() * 1e9), deviceId, protocol: 'osmand', serverTime: fixTime, deviceTime: fixTime, fixTime,
  valid: true, latitude: -23.5, longitude: -46.6, altitude: 0, speed: 0, course: 0, accuracy: 0, attributes: {},
  ...extra,
});

describe('store merging', () => {
  it('keeps the newest position per device', () => {
    const old = position(1, '2026-01-01T10:00:00Z');
    const newer = position(1, '2026-01-01T10:00:05Z');
    expect(isNewer(newer, old)).toBe(true);
    expect(isNewer(old, newer)).toBe(false);
    expect(isNewer(old, undefined)).toBe(true);
    const merged = mergePositions({ 1: newer }, [old, position(2, '2026-01-01T09:00:00Z')]);
    expect(merged[1]).toBe(newer);
    expect(merged[2]?.deviceId).toBe(2);
  });

  it('returns the same object when nothing changed (subscribers can skip)', () => {
    const p = position(1, '2026-01-01T10:00:05Z');
    const current = { 1: p };
    expect(mergePositions(current, [position(1, '2026-01-01T10:00:00Z')])).toBe(current);
    expect(mergeDevices({}, [])).toEqual({});
  });

  it('merges device fields by id without touching the others', () => {
    const a = device(1);
    const b = device(2);
    const next = mergeDevices({ 1: a, 2: b }, [{ ...a, status: 'offline' }]);
    expect(next[1]!.status).toBe('offline');
    expect(next[2]).toBe(b);
  });
});

describe('live session', () => {
  let socket: SocketOptions | null;
  let closed: boolean;
  let reconnects: number;
  const connect = (options: SocketOptions): SocketHandle => {
    socket = options;
    options.onStatus?.('connecting');
    return { close: () => (closed = true), reconnect: () => (reconnects += 1) };
  };
  const fakeApi = (overrides: Partial<LiveApi> = {}): LiveApi & { byId: number[][] } => {
    const byId: number[][] = [];
    return {
      byId,
      devices: vi.fn(async () => [device(1), device(2)]),
      positions: async () => [position(1, '2026-01-01T10:00:00Z')],
      devicesById: async (ids) => {
        byId.push(ids);
        return ids.map((id) => device(id, { status: 'offline' }));
      },
      ...overrides,
    };
  };

  beforeEach(() => {
    socket = null;
    closed = false;
    reconnects = 0;
    resetLive();
  });
  afterEach(() => vi.useRealTimers());

  it('loads every device for administrators (all=true) and the latest positions', async () => {
    const liveApi = fakeApi();
    const session = startLiveSession({ isAdmin: true, api: liveApi, connect });
    expect(useLive.getState().status).toBe('loading');
    await vi.waitFor(() => expect(useLive.getState().status).toBe('ready'));
    expect(liveApi.devices).toHaveBeenCalledWith(true);
    expect(Object.keys(useLive.getState().devices)).toEqual(['1', '2']);
    expect(useLive.getState().positions[1]?.fixTime).toBe('2026-01-01T10:00:00Z');
    session.stop();
    expect(closed).toBe(true);
    expect(useLive.getState().status).toBe('idle');
  });

  it('applies socket positions and devices, keeping a socket position newer than the REST one', async () => {
    let release: (p: Position[]) => void = () => undefined;
    const liveApi = fakeApi({ positions: () => new Promise((r) => (release = r)) });
    const session = startLiveSession({ isAdmin: false, api: liveApi, connect });
    expect(liveApi.devices).toHaveBeenCalledWith(false);
    socket!.onStatus?.('open');
    socket!.onMessage({ positions: [position(1, '2026-01-01T10:00:09Z', { latitude: -23.9 })] });
    release([position(1, '2026-01-01T10:00:00Z')]);
    await vi.waitFor(() => expect(useLive.getState().status).toBe('ready'));
    expect(useLive.getState().positions[1]?.latitude).toBe(-23.9);
    expect(useLive.getState().socket).toBe('open');
    socket!.onMessage({ devices: [device(2, { name: 'Renamed' })] });
    expect(useLive.getState().devices[2]?.name).toBe('Renamed');
    socket!.onMessage({});
    session.stop();
  });

  it('refreshes the devices of events 500 ms later, in one request', async () => {
    vi.useFakeTimers();
    const liveApi = fakeApi();
    const seen: Event[][] = [];
    const session = startLiveSession({ isAdmin: true, api: liveApi, connect, onEvents: (e) => seen.push(e) });
    await vi.waitFor(() => expect(useLive.getState().status).toBe('ready'));
    const event = (id: number, deviceId: number): Event => ({
      id, type: 'deviceOnline', eventTime: '2026-01-01T10:00:00Z', deviceId, positionId: 0, geofenceId: 0, maintenanceId: 0, attributes: {},
    });
    socket!.onMessage({ events: [event(1, 1)] });
    socket!.onMessage({ events: [event(2, 2), event(3, 1)] });
    expect(useLive.getState().events.map((e) => e.id)).toEqual([3, 2, 1]);
    expect(seen).toHaveLength(2);
    vi.advanceTimersByTime(499);
    expect(liveApi.byId).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(liveApi.byId).toEqual([[1, 2]]);
    await vi.waitFor(() => expect(useLive.getState().devices[1]?.status).toBe('offline'));
    session.stop();
  });

  it('keeps at most MAX_EVENTS events', () => {
    const session = startLiveSession({ isAdmin: true, api: fakeApi(), connect });
    const many = Array.from({ length: MAX_EVENTS + 20 }, (_, i) => ({ id: i, type: 'alarm', eventTime: '', deviceId: 0, positionId: 0, geofenceId: 0, maintenanceId: 0, attributes: {} }));
    socket!.onMessage({ events: many });
    expect(useLive.getState().events).toHaveLength(MAX_EVENTS);
    expect(useLive.getState().events[0]!.id).toBe(MAX_EVENTS + 19);
    session.stop();
  });

  it('shows the error state when loading fails and loads again on reload()', async () => {
    let fail = true;
    const liveApi = fakeApi({
      positions: async () => {
        if (fail) throw new Error('offline');
        return [];
      },
    });
    const session = startLiveSession({ isAdmin: true, api: liveApi, connect });
    await vi.waitFor(() => expect(useLive.getState().status).toBe('error'));
    fail = false;
    await session.reload();
    expect(useLive.getState().status).toBe('ready');
    session.stop();
  });

  it('reconnects at once when the browser comes back online after a drop', () => {
    const session = startLiveSession({ isAdmin: true, api: fakeApi(), connect });
    socket!.onStatus?.('open');
    window.dispatchEvent(new window.Event('online'));
    expect(reconnects).toBe(0);
    socket!.onStatus?.('closed');
    window.dispatchEvent(new window.Event('online'));
    expect(reconnects).toBe(1);
    session.stop();
  });
});

describe('mute', () => {
  beforeEach(() => localStorage.clear());

  it('stores a real boolean and reads it back', () => {
    useMute.getState().setMuted(true);
    expect(localStorage.getItem(MUTE_KEY)).toBe('true');
    expect(readMuted()).toBe(true);
    useMute.getState().toggle();
    expect(localStorage.getItem(MUTE_KEY)).toBe('false');
    expect(useMute.getState().muted).toBe(false);
  });

  it('reads old or broken values safely: only true mutes', () => {
    const storage = (value: string | null) => ({ getItem: () => value });
    expect(readMuted(storage(null))).toBe(false);
    expect(readMuted(storage('false'))).toBe(false);
    expect(readMuted(storage('"true"'))).toBe(false);
    expect(readMuted(storage('garbage'))).toBe(false);
    expect(readMuted(storage('true'))).toBe(true);
    expect(readMuted(null)).toBe(false);
  });
});
