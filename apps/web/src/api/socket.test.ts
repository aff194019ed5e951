import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectSocket, parseSocketMessage, socketUrl, type SocketStatus } from './socket.ts';

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  sent: string[] = [];
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close() {
    this.closed = true;
  }
  send(text: string) {
    this.sent.push(text);
  }
  // Test helpers: what the server does.
  serverOpens() {
    this.onopen?.();
  }
  serverSends(data: unknown) {
    this.onmessage?.({ data: typeof data === 'string' ? data : JSON.stringify(data) });
  }
  serverDrops() {
    this.closed = true;
    this.onclose?.();
  }
}

const Impl = FakeSocket as unknown as new (url: string) => WebSocket;

describe('socket client', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.all = [];
  });
  afterEach(() => vi.useRealTimers());

  it('builds the same-origin URL with ws: or wss:', () => {
    expect(socketUrl({ protocol: 'http:', host: 'localhost:8082' })).toBe('ws://localhost:8082/api/socket');
    expect(socketUrl({ protocol: 'https:', host: 'track.example.com' })).toBe('wss://track.example.com/api/socket');
  });

  it('parses JSON objects and ignores anything else', () => {
    expect(parseSocketMessage('{"positions":[]}')).toEqual({ positions: [] });
    expect(parseSocketMessage('{}')).toEqual({});
    expect(parseSocketMessage('[1]')).toBeNull();
    expect(parseSocketMessage('nope')).toBeNull();
    expect(parseSocketMessage(42)).toBeNull();
  });

  it('hands over messages and reports its status', () => {
    const messages: unknown[] = [];
    const statuses: SocketStatus[] = [];
    connectSocket({ url: 'ws://x/api/socket', WebSocketImpl: Impl, onMessage: (m) => messages.push(m), onStatus: (s) => statuses.push(s) });
    const ws = FakeSocket.all[0]!;
    expect(ws.url).toBe('ws://x/api/socket');
    ws.serverOpens();
    ws.serverSends({ positions: [{ id: 1 }] });
    ws.serverSends('garbage');
    ws.serverSends({});
    expect(messages).toEqual([{ positions: [{ id: 1 }] }, {}]);
    expect(statuses).toEqual(['connecting', 'open']);
  });

  it('sends only while open (the log switch)', () => {
    const handle = connectSocket({ url: 'ws://x', WebSocketImpl: Impl, onMessage: () => undefined });
    const ws = FakeSocket.all[0]!;
    expect(handle.send('{"logs":true}')).toBe(false);
    ws.serverOpens();
    expect(handle.send('{"logs":true}')).toBe(true);
    expect(ws.sent).toEqual(['{"logs":true}']);
    ws.serverDrops();
    expect(handle.send('{"logs":false}')).toBe(false);
    handle.close();
  });

  it('reconnects 5 s after the server closes it, every time', () => {
    connectSocket({ url: 'ws://x', WebSocketImpl: Impl, onMessage: () => undefined });
    for (let round = 1; round <= 3; round++) {
      FakeSocket.all.at(-1)!.serverDrops();
      vi.advanceTimersByTime(4_999);
      expect(FakeSocket.all).toHaveLength(round);
      vi.advanceTimersByTime(1);
      expect(FakeSocket.all).toHaveLength(round + 1);
    }
  });

  it('stops for good on close(), even with a reconnect pending', () => {
    const handle = connectSocket({ url: 'ws://x', WebSocketImpl: Impl, onMessage: () => undefined });
    FakeSocket.all[0]!.serverDrops();
    handle.close();
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(1);

    const second = connectSocket({ url: 'ws://x', WebSocketImpl: Impl, onMessage: () => undefined });
    const ws = FakeSocket.all[1]!;
    second.close();
    expect(ws.closed).toBe(true);
    vi.advanceTimersByTime(60_000);
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('reconnect() replaces the connection at once and ignores the old one', () => {
    const messages: unknown[] = [];
    const handle = connectSocket({ url: 'ws://x', WebSocketImpl: Impl, onMessage: (m) => messages.push(m) });
    const old = FakeSocket.all[0]!;
    handle.reconnect();
    expect(old.closed).toBe(true);
    expect(FakeSocket.all).toHaveLength(2);
    old.serverSends({ devices: [] });
    FakeSocket.all[1]!.serverSends({ events: [] });
    expect(messages).toEqual([{ events: [] }]);
  });
});
