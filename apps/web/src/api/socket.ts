// The live socket (/api/socket on the same origin, ws: or wss: like the page; the session
// cookie authenticates it). Each frame is one JSON message ({positions}, {devices}, {events}
// or the {} keepalive). When it closes for any reason a new one opens 5 s later (spec §9), with
// no back-off and no limit, until `close()` is called.
import type { SocketMessage } from '@rastro/domain/entities';

export const SOCKET_RECONNECT_MS = 5_000;

export type SocketStatus = 'connecting' | 'open' | 'closed';

export interface SocketOptions {
  onMessage(message: SocketMessage): void;
  onStatus?(status: SocketStatus): void;
  /** Defaults to the page's origin + /api/socket. */
  url?: string;
  reconnectMs?: number;
  /** For tests: a WebSocket stand-in. */
  WebSocketImpl?: new (url: string) => WebSocket;
}

export interface SocketHandle {
  /** Closes for good (no reconnect). */
  close(): void;
  /** Closes the current connection now and opens a new one at once (e.g. after coming back online). */
  reconnect(): void;
  /** Sends a message (e.g. `{"logs":true}`) if the connection is open; false when it is not. */
  send(text: string): boolean;
}

/** ws://host/api/socket for an http page, wss:// for https. */
export function socketUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/socket`;
}

/** A message we understand, or null (bad JSON or not an object). */
export function parseSocketMessage(data: unknown): SocketMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const value = JSON.parse(data) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as SocketMessage) : null;
  } catch {
    return null;
  }
}

export function connectSocket(options: SocketOptions): SocketHandle {
  const Impl = options.WebSocketImpl ?? WebSocket;
  const url = options.url ?? socketUrl(window.location);
  const delay = options.reconnectMs ?? SOCKET_RECONNECT_MS;
  let socket: WebSocket | null = null;
  let isOpen = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const open = () => {
    timer = null;
    if (stopped) return;
    options.onStatus?.('connecting');
    const ws = new Impl(url);
    socket = ws;
    ws.onopen = () => {
      if (socket !== ws) return;
      isOpen = true;
      options.onStatus?.('open');
    };
    ws.onmessage = (event: MessageEvent) => {
      if (socket !== ws) return;
      const message = parseSocketMessage(event.data);
      if (message) options.onMessage(message);
    };
    // An error is always followed by close; reconnecting happens there.
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      isOpen = false;
      options.onStatus?.('closed');
      if (!stopped && timer === null) timer = setTimeout(open, delay);
    };
  };

  const drop = () => {
    const ws = socket;
    socket = null;
    isOpen = false;
    if (ws) {
      ws.onopen = ws.onmessage = ws.onclose = null;
      try {
        ws.close();
      } catch {
        /* already closed */
      }
    }
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };

  open();
  return {
    close() {
      stopped = true;
      drop();
      options.onStatus?.('closed');
    },
    reconnect() {
      if (stopped) return;
      drop();
      open();
    },
    send(text) {
      if (!socket || !isOpen) return false;
      try {
        socket.send(text);
        return true;
      } catch {
        return false;
      }
    },
  };
}
