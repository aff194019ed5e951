// Test helpers for `/api/socket`: a client that records every message and lets a test wait
// for the one it expects, plus small builders for live batches.
import WebSocket from 'ws';
import type { Device, Position } from '@rastro/domain/entities';

export class SocketRefused extends Error {
  constructor(readonly status: number) {
    super(`socket upgrade refused with HTTP ${status}`);
  }
}

export interface Received {
  text: string;
  json: Record<string, unknown>;
}

export class LiveSocket {
  readonly received: Received[] = [];
  private taken = 0;
  private waiters: Array<() => void> = [];
  closeCode: number | null = null;
  readonly closed: Promise<number>;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      this.received.push({ text, json: JSON.parse(text) as Record<string, unknown> });
      for (const w of this.waiters.splice(0)) w();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code) => {
        this.closeCode = code;
        for (const w of this.waiters.splice(0)) w();
        resolve(code);
      }),
    );
  }

  /** Opens `ws://…/api/socket` (http base URL given); rejects with SocketRefused on an HTTP answer. */
  static open(baseUrl: string, options: { cookie?: string | null; token?: string; origin?: string } = {}): Promise<LiveSocket> {
    const url = `${baseUrl.replace(/^http/, 'ws')}/api/socket${options.token ? `?token=${encodeURIComponent(options.token)}` : ''}`;
    const headers: Record<string, string> = {};
    if (options.cookie) headers.cookie = options.cookie;
    if (options.origin) headers.origin = options.origin;
    const ws = new WebSocket(url, { headers });
    const socket = new LiveSocket(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_req, res) => {
        reject(new SocketRefused(res.statusCode ?? 0));
        res.resume();
        ws.terminate();
      });
      ws.once('error', reject);
    });
  }

  /** Next not-yet-taken message matching `match` (earlier non-matching ones are skipped over). */
  async next(match: (m: Received) => boolean = () => true, timeoutMs = 5000): Promise<Received> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (let i = this.taken; i < this.received.length; i++) {
        const m = this.received[i]!;
        if (match(m)) {
          this.taken = i + 1;
          return m;
        }
      }
      if (this.closeCode !== null) throw new Error(`socket closed (${this.closeCode}) while waiting`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching socket message within ${timeoutMs} ms; got ${JSON.stringify(this.received.slice(this.taken).map((m) => m.text))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Messages received since the last `next` result (not taken). */
  pending(): Received[] {
    return this.received.slice(this.taken);
  }

  /** Marks everything received so far as seen. */
  skipAll(): void {
    this.taken = this.received.length;
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  close(): void {
    this.ws.close();
  }
}

export const isKey = (key: string) => (m: Received) => key in m.json;

/** Ids inside a `{positions}` / `{devices}` message. */
export function idsOf(m: Received, key: 'positions' | 'devices', field: 'id' | 'deviceId' = key === 'positions' ? 'deviceId' : 'id'): number[] {
  const list = m.json[key] as Array<Record<string, unknown>>;
  return list.map((x) => x[field] as number);
}

let nextPositionId = 1_000_000;

/** A Position as the storage writer would publish it. */
export function livePosition(deviceId: number, extra: Partial<Position> = {}): Position {
  const now = new Date().toISOString().replace('Z', '+00:00');
  return {
    id: nextPositionId++,
    deviceId,
    protocol: 'osmand',
    serverTime: now,
    deviceTime: now,
    fixTime: now,
    valid: true,
    latitude: -23.56,
    longitude: -46.65,
    altitude: 760,
    speed: 20,
    course: 90,
    address: null,
    accuracy: 5,
    network: null,
    geofenceIds: null,
    attributes: {},
    ...extra,
  };
}

/** A Device as a live `{devices}` batch carries it. */
export function liveDevice(id: number, extra: Partial<Device> = {}): Device {
  return {
    id,
    name: `device ${id}`,
    uniqueId: `u${id}`,
    status: 'online',
    disabled: false,
    lastUpdate: new Date().toISOString().replace('Z', '+00:00'),
    positionId: null,
    groupId: 0,
    calendarId: 0,
    phone: null,
    model: null,
    contact: null,
    category: null,
    expirationTime: null,
    attributes: {},
    ...extra,
  };
}
