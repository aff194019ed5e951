// Builds on our server the world Traccar was given: the `world` calls as the administrator
// (Basic auth, like the recording), then the OsmAnd reports in order; and records which of our
// ids stands for which of Traccar's.
import { ADMIN_PASSWORD, TestClient, type TestServer } from '../harness.ts';
import { osmand } from '../ingest-helpers.ts';
import { IdMap, REFERENCE_FIELDS, type IdKind } from './id-map.ts';
import { ADMIN_EMAIL } from './requests.ts';

export interface WorldCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

export interface Fixture {
  t0: number;
  t0Iso: string;
  world: WorldCall[];
  osmandQueries: string[];
  answers: Record<string, { status?: number; json?: unknown }>;
}

/** What each world path creates; Traccar numbered each kind 1, 2, … in creation order. */
const CREATES: Record<string, IdKind> = {
  '/api/groups': 'group',
  '/api/devices': 'device',
  '/api/geofences': 'geofence',
  '/api/commands': 'command',
  '/api/users': 'user',
};

/** Traccar's administrator is user 1 (made at its first start), so the world's user is 2. */
const TRACCAR_ADMIN_ID = 1;

export const basicHeader = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Replays the world calls; returns the map of Traccar's ids to ours for what they created. */
export async function replayWorld(server: TestServer, world: WorldCall[]): Promise<IdMap> {
  const ids = new IdMap();
  const admin = new TestClient(server.url);
  admin.headers.authorization = basicHeader(ADMIN_EMAIL, ADMIN_PASSWORD);
  const session = await admin.get<{ id: number }>('/api/session');
  if (session.status !== 200) throw new Error(`our admin cannot authenticate with Basic: ${session.status} ${session.text}`);
  ids.set('user', TRACCAR_ADMIN_ID, session.json.id);

  const created = new Map<IdKind, number>([['user', TRACCAR_ADMIN_ID]]);
  for (const call of world) {
    const body = mapReferences(call.body, ids);
    const res = await admin.request<{ id: number }>(call.method, call.path, body);
    if (res.status >= 300) throw new Error(`world call ${call.method} ${call.path} ${JSON.stringify(body)} failed: ${res.status} ${res.text}`);
    const kind = CREATES[call.path];
    if (kind && call.method === 'POST') {
      const traccarId = (created.get(kind) ?? 0) + 1;
      created.set(kind, traccarId);
      ids.set(kind, traccarId, res.json.id);
    }
  }
  return ids;
}

/** The body with Traccar's ids in reference fields replaced by ours (0, "none", stays). */
function mapReferences(body: Record<string, unknown>, ids: IdMap): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const [key, value] of Object.entries(body)) {
    const kind = REFERENCE_FIELDS[key];
    if (!kind || typeof value !== 'number' || value === 0) continue;
    const ours = ids.ours(kind, value);
    if (ours === undefined) throw new Error(`world call refers to ${kind} ${value} before it was created`);
    out[key] = ours;
  }
  return out;
}

interface Report {
  uniqueId: string;
  fixTime: number;
}

function reportOf(query: string): Report {
  const params = new URLSearchParams(query);
  return { uniqueId: params.get('id') ?? '', fixTime: Number(params.get('timestamp')) * 1000 };
}

/**
 * Sends the reports one after the other (each answer waits for the commit of its position, so
 * the order is kept; the 60 ms Traccar had between them does not matter, the reports carry
 * their own times), then waits until all are readable through the API and maps Traccar's
 * position ids to ours. Traccar numbered positions in the order it received them: the k-th
 * report is its position k (its answers agree: the last three are 88, 89, 90, and the SOS of
 * device 2's 16th report, the 47th report, is position 47).
 */
export async function ingestReports(server: TestServer, admin: TestClient, queries: string[], ids: IdMap, range: { from: string; to: string }): Promise<void> {
  for (const query of queries) {
    const res = await osmand(server, `/?${query}`);
    if (res.status !== 200) throw new Error(`OsmAnd report ${query} answered ${res.status} ${res.text}`);
  }
  const reports = queries.map(reportOf);
  const devices = await admin.get<Array<{ id: number; uniqueId: string }>>('/api/devices');
  const deviceOf = new Map(devices.json.map((d) => [d.uniqueId, d.id]));
  const stored = await waitForPositions(admin, [...new Set(deviceOf.values())], queries.length, range);
  reports.forEach((report, index) => {
    const deviceId = deviceOf.get(report.uniqueId);
    const position = stored.find((p) => p.deviceId === deviceId && Date.parse(p.fixTime) === report.fixTime);
    if (position) ids.set('position', index + 1, position.id);
  });
}

interface StoredPosition {
  id: number;
  deviceId: number;
  fixTime: string;
}

/** Polls the positions of the devices over the range until `count` are there (10 s at most). */
async function waitForPositions(admin: TestClient, deviceIds: number[], count: number, range: { from: string; to: string }): Promise<StoredPosition[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const all: StoredPosition[] = [];
    for (const id of deviceIds) {
      const q = new URLSearchParams({ deviceId: String(id), from: range.from, to: range.to });
      const res = await admin.get<StoredPosition[]>(`/api/positions?${q}`);
      if (res.status === 200) all.push(...res.json);
    }
    if (all.length >= count) return all;
    if (Date.now() > deadline) throw new Error(`only ${all.length} of ${count} positions stored after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
