// Helpers of the ingest suites: devices created as the admin would, OsmAnd requests over
// real HTTP, and reads of what was stored.
import http from 'node:http';
import type { Position } from '@rastro/domain/entities';
import type { LiveBatch } from '../src/realtime/live.ts';
import type { TestClient, TestServer } from './harness.ts';

export interface CreatedDevice {
  id: number;
  uniqueId: string;
}

/** One logged-in admin per server: logging in (password hashing) costs more than the request. */
const admins = new WeakMap<TestServer, TestClient>();

/** Creates a device through `POST /api/devices` as admin (or straight in the database while that route does not exist). */
export async function createDevice(server: TestServer, uniqueId: string, extra: Record<string, unknown> = {}): Promise<CreatedDevice> {
  let admin = admins.get(server);
  if (!admin) admins.set(server, (admin = await server.admin()));
  const res = await admin.post<{ id: number; uniqueId: string }>('/api/devices', { name: `Device ${uniqueId}`, uniqueId, ...extra });
  if (res.status === 200) return { id: res.json.id, uniqueId };
  if (res.status !== 404) throw new Error(`POST /api/devices failed: ${res.status} ${res.text}`);
  const db = server.rastro.ctx.storage.db;
  const row = await db
    .insertInto('devices')
    .values({
      name: `Device ${uniqueId}`, uniqueId, status: null, disabled: extra.disabled === true ? 1 : 0, lastUpdate: null,
      positionId: null, groupId: null, calendarId: null, phone: null, model: null, contact: null, category: null,
      expirationTime: typeof extra.expirationTime === 'string' ? Date.parse(extra.expirationTime) : null,
      attributes: JSON.stringify(extra.attributes ?? {}), motionState: 0, motionStreak: 0, motionPositionId: null,
      motionTime: null, motionDistance: 0, motionLatitude: 0, motionLongitude: 0, overspeedState: 0, overspeedTime: null,
      overspeedGeofenceId: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  server.rastro.ctx.changes.publish({ kind: 'device', id: Number(row.id) });
  return { id: Number(row.id), uniqueId };
}

export interface RawResponse {
  status: number;
  text: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One request to the OsmAnd port (node:http, so bodies and headers can be anything). */
export function osmand(server: TestServer, path: string, options: { method?: string; body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const url = new URL(server.osmandUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path, method: options.method ?? (options.body ? 'POST' : 'GET'), headers: options.headers, agent },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.end(options.body);
    else req.end();
  });
}

export const postJson = (server: TestServer, body: string) =>
  osmand(server, '/', { method: 'POST', body, headers: { 'content-type': 'application/json' } });

export async function positionsOf(server: TestServer, deviceId: number) {
  return server.rastro.ctx.storage.db.selectFrom('positions').selectAll().where('deviceId', '=', deviceId).orderBy('id').execute();
}

export async function deviceRow(server: TestServer, deviceId: number) {
  return server.rastro.ctx.storage.db.selectFrom('devices').selectAll().where('id', '=', deviceId).executeTakeFirstOrThrow();
}

export async function countPositions(server: TestServer): Promise<number> {
  const row = await server.rastro.ctx.storage.db.selectFrom('positions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Records every live batch published while the test runs. */
export function recordLive(server: TestServer) {
  const batches: LiveBatch[] = [];
  const stop = server.rastro.ctx.live.subscribe((b) => batches.push(b));
  return {
    batches,
    positions: (): Position[] => batches.flatMap((b) => b.positions ?? []),
    stop,
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
