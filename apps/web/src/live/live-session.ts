// Starts live data for the signed-in session: the socket first (so nothing is missed), then
// GET /api/devices (all=true for administrators: Traccar lists only directly linked devices
// without it) and GET /api/positions. Socket messages update the store; events also refresh
// their devices 500 ms later (spec §9), batched into one request. Stops when the shell goes
// away or a shared session expires.
import type { Device, Event, Position, SocketMessage } from '@rastro/domain/entities';
import { api } from '../api/http.ts';
import { connectSocket, type SocketHandle, type SocketOptions, type SocketStatus } from '../api/socket.ts';
import { applyDevices, applyEvents, applyPositions, resetLive, setLoaded, setLoadStatus, setSocketStatus } from './live-store.ts';
import { bindDeviceLogs, deliverDeviceLogs, deviceLogsWanted } from './device-logs.ts';

export const EVENT_REFRESH_MS = 500;

export interface LiveApi {
  devices(isAdmin: boolean): Promise<Device[]>;
  devicesById(ids: number[]): Promise<Device[]>;
  positions(): Promise<Position[]>;
}

export const httpLiveApi: LiveApi = {
  devices: (isAdmin) => api.get<Device[]>('/devices', isAdmin ? { all: true } : undefined),
  devicesById: (ids) => api.get<Device[]>('/devices', { id: ids }),
  positions: () => api.get<Position[]>('/positions'),
};

export interface LiveSessionOptions {
  isAdmin: boolean;
  api?: LiveApi;
  connect?: (options: SocketOptions) => SocketHandle;
  /** Receives each socket event after the store (notifications plug in here later). */
  onEvents?: (events: Event[]) => void;
}

export interface LiveSession {
  stop(): void;
  /** Loads devices and positions again (the "try again" of the error state). */
  reload(): Promise<void>;
}

export function startLiveSession(options: LiveSessionOptions): LiveSession {
  const liveApi = options.api ?? httpLiveApi;
  let stopped = false;
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  const pendingRefresh = new Set<number>();

  const refreshDevices = () => {
    refreshTimer = null;
    const ids = [...pendingRefresh];
    pendingRefresh.clear();
    if (stopped || ids.length === 0) return;
    liveApi.devicesById(ids).then((devices) => !stopped && applyDevices(devices), () => undefined);
  };

  const onMessage = (message: SocketMessage) => {
    if (stopped) return;
    if (Array.isArray(message.positions)) applyPositions(message.positions);
    if (Array.isArray(message.devices)) applyDevices(message.devices);
    if (Array.isArray(message.logs) && message.logs.length > 0) deliverDeviceLogs(message.logs);
    if (Array.isArray(message.events) && message.events.length > 0) {
      applyEvents(message.events);
      for (const e of message.events) if (typeof e.deviceId === 'number' && e.deviceId > 0) pendingRefresh.add(e.deviceId);
      if (pendingRefresh.size > 0 && refreshTimer === null) refreshTimer = setTimeout(refreshDevices, EVENT_REFRESH_MS);
      options.onEvents?.(message.events);
    }
  };

  let socketStatus: SocketStatus = 'connecting';
  const socket = (options.connect ?? connectSocket)({
    onMessage,
    onStatus: (status) => {
      socketStatus = status;
      if (!stopped) setSocketStatus(status);
      // A new connection starts without the log wish: ask again.
      if (status === 'open' && deviceLogsWanted()) socket.send(JSON.stringify({ logs: true }));
    },
  });
  bindDeviceLogs((wanted) => socket.send(JSON.stringify({ logs: wanted })));

  const load = async () => {
    setLoadStatus('loading');
    try {
      const [devices, positions] = await Promise.all([liveApi.devices(options.isAdmin), liveApi.positions()]);
      if (!stopped) setLoaded(devices, positions);
    } catch {
      if (!stopped) setLoadStatus('error');
    }
  };
  void load();

  // Back online after a drop: do not wait for the 5 s timer.
  const online = () => {
    if (socketStatus === 'closed') socket.reconnect();
  };
  window.addEventListener('online', online);

  return {
    stop() {
      if (stopped) return;
      stopped = true;
      window.removeEventListener('online', online);
      bindDeviceLogs(null);
      if (refreshTimer !== null) clearTimeout(refreshTimer);
      socket.close();
      resetLive();
    },
    reload: load,
  };
}
