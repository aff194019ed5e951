import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Device, Event, Position } from '@rastro/domain/entities';
import type { SocketHandle, SocketOptions } from '../api/socket.ts';
import { applyPositions, isNewer, mergeDevices, mergePositions, MAX_EVENTS, resetLive, setLoaded, subscribePositions, useLive } from './live-store.ts';
import { startLiveSession, type LiveApi } from './live-session.ts';
import { subscribeDeviceLogs } from './device-logs.ts';
import { MUTE_KEY, readMuted, useMute } from './mute.ts';

const device = (id: number, extra: Partial<Device> = {}): Device => ({
  id, name: `Vehicle ${id}`, uniqueId: `u${id}`, status: 'online', disabled: false, lastUpdate: null, positionId: null,
  groupId: 0, calendarId: 0, phone: null, model: null, contact: null, category: null, expirationTime: null, attributes: {},
  ...extra,
});

const position = (deviceId: number, fixTime: string, extra: Partial<Position> = {}): Position => ({
  id: Math.floor(Math.random() * 1e9), deviceId, protocol: 'osmand', serverTime: fixTime, deviceTime: fixTime, fixTime,
  valid: true, latitude: -23.5, longitude: -46.6, altitude: 0, speed: 0, course: 0, address: null, accuracy: 0, network: null, geofenceIds: null, attributes: {},
  ...extra,
});

describe('store merging', () => {
  it('keeps the newest position per device', () => {
    const old = position(1, '2026-01-01T10:00:00Z');
    const newer = position(1, '2026-01-01T10:00:05Z');
    expect(isNewer(newer, old)).toBe(true);
    expect(isNewer(old, newer)).toBe(false);
    expect(isNewer(old, undefined)).toBe(true);
    // Written alike they compare as text; written differently they are parsed.
    const at = (fixTime: string, serverTime = fixTime) => position(1, fixTime, { serverTime });
    expect(isNewer(at('2026-01-01T10:00:05.120+00:00'), at('2026-01-01T10:00:05.119+00:00'))).toBe(true);
    expect(isNewer(at('2026-01-01T09:00:06.000-03:00'), at('2026-01-01T12:00:05.000+00:00'))).toBe(true);
    expect(isNewer(at('2026-01-01T12:00:05Z'), at('2026-01-01T09:00:06-03:00'))).toBe(false);
    expect(isNewer(at('2026-01-01T10:00:05Z', '2026-01-01T10:00:07Z'), at('2026-01-01T10:00:05Z', '2026-01-01T10:00:06Z'))).toBe(true);
    expect(isNewer(at('2026-01-01T10:00:05Z', '2026-01-01T10:00:05Z'), at('2026-01-01T10:00:05Z', '2026-01-01T10:00:06Z'))).toBe(false);
    const target: Record<number, Position> = { 1: newer };
    const accepted = mergePositions(target, [old, position(2, '2026-01-01T09:00:00Z')]);
    expect(target[1]).toBe(newer);
    expect(target[2]?.deviceId).toBe(2);
    expect(accepted.map((p) => p.deviceId)).toEqual([2]);
  });

  it('accepts nothing when nothing is newer (subscribers can skip)', () => {
    const p = position(1, '2026-01-01T10:00:05Z');
    const current = { 1: p };
    expect(mergePositions(current, [position(1, '2026-01-01T10:00:00Z')])).toEqual([]);
    expect(current[1]).toBe(p);
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

describe('store updates in place (O(message), not O(fleet))', () => {
  afterEach(() => resetLive());

  it('keeps the positions record, bumps positionsVersion and tells listeners only what was accepted', () => {
    setLoaded([device(1), device(2)], [position(1, '2026-01-01T10:00:00Z'), position(2, '2026-01-01T10:00:00Z')]);
    const record = useLive.getState().positions;
    const version = useLive.getState().positionsVersion;
    const heard: number[][] = [];
    const stop = subscribePositions((accepted) => heard.push(accepted.map((p) => p.deviceId)));
    const selected: Array<Position | undefined> = [];
    const stopSelector = useLive.subscribe((s) => selected.push(s.positions[2]));

    const fresh = position(2, '2026-01-01T10:00:05Z', { latitude: -22 });
    applyPositions([fresh, position(1, '2026-01-01T09:00:00Z')]);
    expect(useLive.getState().positions).toBe(record);
    expect(record[2]).toBe(fresh);
    expect(useLive.getState().positionsVersion).toBe(version + 1);
    expect(heard).toEqual([[2]]);
    expect(selected.at(-1)).toBe(fresh);

    // Nothing newer: no store update, no listener call.
    applyPositions([position(2, '2026-01-01T10:00:01Z')]);
    expect(useLive.getState().positionsVersion).toBe(version + 1);
    expect(heard).toHaveLength(1);
    stop();
    stopSelector();
  });

  it('a reset starts from fresh records (the old one is not reused)', () => {
    applyPositions([position(7, '2026-01-01T10:00:00Z')]);
    const before = useLive.getState().positions;
    resetLive();
    expect(useLive.getState().positions).not.toBe(before);
    expect(useLive.getState().positions[7]).toBeUndefined();
    expect(useLive.getState().positionsVersion).toBe(0);
  });

  it('touches only the message, however large the fleet', () => {
    const fleet: Position[] = [];
    for (let i = 1; i <= 50_000; i++) fleet.push(position(i, '2026-01-01T10:00:00Z'));
    setLoaded([], fleet);
    const spread = vi.spyOn(Object, 'keys');
    const t0 = performance.now();
    for (let k = 0; k < 200; k++) applyPositions([position(1 + k, '2026-01-01T10:01:00Z')]);
    const perMessage = (performance.now() - t0) / 200;
    expect(spread).not.toHaveBeenCalled();
    spread.mockRestore();
    expect(perMessage).toBeLessThan(5);
  });
});

describe('live session', () => {
  let socket: SocketOptions | null;
  let closed: boolean;
  let reconnects: number;
  let sent: string[];
  const connect = (options: SocketOptions): SocketHandle => {
    socket = options;
    options.onStatus?.('connecting');
    return { close: () => (closed = true), reconnect: () => (reconnects += 1), send: (text) => (sent.push(text), true) };
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
    sent = [];
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

  it('asks for raw device logs while a view listens, again after a reconnect, and hands the frames over', async () => {
    const session = startLiveSession({ isAdmin: true, api: fakeApi(), connect });
    socket!.onStatus?.('open');
    expect(sent).toEqual([]);
    const got: unknown[] = [];
    const stop = subscribeDeviceLogs((frames) => got.push(...frames));
    const second = subscribeDeviceLogs(() => undefined);
    expect(sent).toEqual(['{"logs":true}']);
    const frame = { protocol: 'gt06', host: '10.0.0.1:4000', uniqueId: '123', deviceId: 1, data: '78780d01', time: 1 };
    socket!.onMessage({ logs: [frame] });
    expect(got).toEqual([frame]);
    socket!.onStatus?.('closed');
    socket!.onStatus?.('open');
    expect(sent).toEqual(['{"logs":true}', '{"logs":true}']);
    stop();
    expect(sent).toHaveLength(2);
    second();
    expect(sent).toEqual(['{"logs":true}', '{"logs":true}', '{"logs":false}']);
    session.stop();
    // Without a session nothing is sent; the next session asks at once for an earlier listener.
    const late = subscribeDeviceLogs(() => undefined);
    expect(sent).toHaveLength(3);
    const next = startLiveSession({ isAdmin: true, api: fakeApi(), connect });
    expect(sent).toEqual(['{"logs":true}', '{"logs":true}', '{"logs":false}', '{"logs":true}']);
    late();
    next.stop();
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
