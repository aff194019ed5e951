// A viewer's live socket (`/api/socket` with a session cookie) for benchmarks: records when a
// `{positions}` message naming a device arrives, so a benchmark can time a position from the
// tracker's port to every screen watching it.
import WebSocket from 'ws';
import { nowMs } from './stats.ts';

export class LiveViewer {
  /** The first message (the latest positions the server sends on connect) arrived. */
  readonly ready: Promise<void>;
  private waiters: Array<{ deviceId: number; resolve: (at: number) => void }> = [];

  private constructor(private readonly ws: WebSocket) {
    let first: (() => void) | null = null;
    this.ready = new Promise((resolve) => (first = resolve));
    ws.on('message', (data) => {
      const at = nowMs();
      first?.();
      first = null;
      if (this.waiters.length === 0) return;
      const json = JSON.parse(data.toString()) as { positions?: Array<{ deviceId: number }> };
      if (!json.positions) return;
      const ids = new Set(json.positions.map((p) => p.deviceId));
      this.waiters = this.waiters.filter((w) => {
        if (!ids.has(w.deviceId)) return true;
        w.resolve(at);
        return false;
      });
    });
  }

  static open(port: number, cookie: string): Promise<LiveViewer> {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/socket`, { headers: { cookie } });
    const viewer = new LiveViewer(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(viewer));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`socket refused: HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** Resolves with the wall-clock time (nowMs) a position of `deviceId` arrives; rejects after `timeoutMs`. */
  positionOf(deviceId: number, timeoutMs = 10_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no position of device ${deviceId} within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push({
        deviceId,
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      });
    });
  }

  close(): void {
    this.ws.close();
  }
}
