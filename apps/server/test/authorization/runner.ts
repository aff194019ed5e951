// Runs one row for one role: arranges what the row asks (disposable objects, as the
// administrator), sends the one request as that role, checks the answer against the expected
// outcome, then removes and puts back whatever the case made or changed, pass or fail.
import WebSocket from 'ws';
import type { TestClient, TestServer } from '../harness.ts';
import { osmand } from '../ingest-helpers.ts';
import { addPosition } from '../visibility-fixtures.ts';
import { describeOutcome, type Outcome, type Role } from './roles.ts';
import { reachesRoute } from './route-list.ts';
import { personOf, type CaseEnv, type CaseRequest, type Row, type Scratch } from './table.ts';
import { ENTITY_KEYS, ENTITY_KINDS, ENTITY_PATHS, type Credentials, type Fixture, type Person } from './world.ts';

export interface Answer {
  status: number;
  text: string;
  json: unknown;
}

const METHOD = /^([A-Z]+) (\S+)$/;

export function splitRoute(route: string): { method: string; path: string } {
  const match = METHOD.exec(route);
  if (!match) throw new Error(`row route must read "METHOD /path": ${route}`);
  return { method: match[1]!, path: match[2]! };
}

let scratchSerial = 0;

/** Disposable objects of one case, each removed by an `after` step the runner runs newest first. */
function scratchFor(server: TestServer, admin: TestClient, fixture: Fixture, after: (fn: () => Promise<unknown>) => void): Scratch {
  const w = fixture.world;
  const made = async (path: string, body: unknown): Promise<number> => {
    const res = await admin.post<{ id: number }>(path, body);
    if (res.status !== 200) throw new Error(`arranging POST ${path} failed: ${res.status} ${res.text}`);
    after(() => admin.delete(`${path}/${res.json.id}`));
    return res.json.id;
  };
  const linkTo = async (owner: Person | null, key: string, id: number) => {
    if (owner === null) return;
    const res = await admin.post('/api/permissions', { userId: w.user[owner], [key]: id });
    if (res.status !== 204) throw new Error(`arranging a ${key} link failed: ${res.status} ${res.text}`);
  };
  const n = () => `${++scratchSerial}-${Date.now()}`;
  const ics = Buffer.from('BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nDTSTART:20240501T000000Z\nDTEND:20240502T000000Z\nEND:VEVENT\nEND:VCALENDAR\n').toString('base64');
  const bodies = {
    geofence: () => ({ name: `Scratch area ${n()}`, area: 'CIRCLE (-23.57 -46.65, 150)' }),
    calendar: () => ({ name: `Scratch calendar ${n()}`, data: ics }),
    notification: () => ({ type: 'alarm', notificators: 'web', description: `Scratch notice ${n()}` }),
    maintenance: () => ({ name: `Scratch service ${n()}`, type: 'hours', start: 0, period: 1_000 }),
    driver: () => ({ name: `Scratch driver ${n()}`, uniqueId: `scratch-driver-${n()}` }),
    computed: () => ({ description: `Scratch computed ${n()}`, attribute: 'scratch', expression: 'speed', type: 'number' }),
    command: () => ({ description: `Scratch command ${n()}`, type: 'custom', attributes: { data: 'X#' } }),
  };
  return {
    async device(owner, options = {}) {
      const id = await made('/api/devices', { name: 'Scratch device', uniqueId: `scratch-${n()}` });
      await linkTo(owner, 'deviceId', id);
      if (options.position) await addPosition(server, id);
      return id;
    },
    async group(owner) {
      const id = await made('/api/groups', { name: `Scratch group ${n()}` });
      await linkTo(owner, 'groupId', id);
      return id;
    },
    async entity(kind, owner) {
      const id = await made(ENTITY_PATHS[kind], bodies[kind]());
      await linkTo(owner, ENTITY_KEYS[kind], id);
      return id;
    },
    async user(options, manager) {
      // Stored directly (no password: it never signs in, and hashing one costs more than the case).
      const row = await server.rastro.ctx.users.insert({
        name: `Scratch user ${n()}`, login: null, email: `scratch-${n()}@authz.test`, phone: null, readonly: 0, administrator: options.administrator === true ? 1 : 0,
        map: null, latitude: 0, longitude: 0, zoom: 0, twelveHourFormat: 0, coordinateFormat: null, disabled: 0, expirationTime: null,
        deviceLimit: 0, userLimit: 0, deviceReadonly: 0, limitCommands: 0, disableReports: 0, fixedEmail: 0, poiLayer: null, temporary: 0,
        totpKey: null, hashedPassword: null, salt: null, attributes: '{}',
      });
      const id = Number(row.id);
      after(() => admin.delete(`/api/users/${id}`));
      if (manager !== null) {
        const res = await admin.post('/api/permissions', { userId: w.user[manager], managedUserId: id });
        if (res.status !== 204) throw new Error(`arranging a managed-user link failed: ${res.status} ${res.text}`);
      }
      return id;
    },
    async queuedCommand(deviceId) {
      const res = await admin.post<{ commandLog?: { id: number } }>('/api/commands/send', { deviceId, type: 'custom', attributes: { data: 'Q#' } });
      if (res.status !== 202 || !res.json.commandLog) throw new Error(`arranging a queued command failed: ${res.status} ${res.text}`);
      return res.json.commandLog.id;
    },
  };
}

async function credentialsFor(row: Row, role: Role, fixture: Fixture, server: TestServer): Promise<Credentials> {
  if (row.session === 'none') return {};
  const own = fixture.credentials[role];
  if (row.session !== 'fresh' || !own.cookie || role === 'expired') return own;
  // A new session of the same user, so ending or replacing it leaves the role's own intact.
  const session = await server.rastro.ctx.sessions.create(fixture.world.user[role as Person], null, null);
  return { cookie: `JSESSIONID=${session.id}` };
}

function headersOf(credentials: Credentials, extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = { ...extra };
  if (credentials.cookie) headers.cookie = credentials.cookie;
  if (credentials.authorization) headers.authorization = credentials.authorization;
  return headers;
}

async function sendHttp(server: TestServer, method: string, req: CaseRequest, credentials: Credentials): Promise<Answer> {
  const headers = headersOf(credentials, req.headers);
  let body: string | undefined;
  if (req.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(req.form).toString();
  } else if (req.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(req.body);
  }
  const res = await fetch(server.url + req.path, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let json: unknown;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) json = JSON.parse(text);
  return { status: res.status, text, json };
}

/** Opens the socket: 200 with the first message's positions, or the status the upgrade was refused with. */
function openSocket(server: TestServer, req: CaseRequest, credentials: Credentials): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace(/^http/, 'ws')}${req.path}`, { headers: headersOf(credentials) });
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('socket: no first message within 10 s'));
    }, 10_000);
    ws.once('message', (data) => {
      clearTimeout(timer);
      const text = data.toString();
      const message = JSON.parse(text) as { positions?: unknown };
      ws.close();
      resolve({ status: 200, text, json: message.positions ?? null });
    });
    ws.once('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      res.resume();
      ws.terminate();
      resolve({ status: res.statusCode ?? 0, text: res.statusMessage ?? '', json: undefined });
    });
    ws.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function sortedNumbers(values: number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

/** Null when the answer meets the outcome, else what is wrong. */
export function mismatch(outcome: Outcome, answer: Answer, fixture: Fixture): string | null {
  const ok = answer.status >= 200 && answer.status < 300;
  const got = `got ${answer.status} ${answer.text.split('\n')[0]!.slice(0, 160)}`;
  if (outcome === 'ok') return ok ? null : `expected 2xx, ${got}`;
  if (outcome === 'denied') return answer.status >= 400 && answer.status < 500 && answer.status !== 401 ? null : `expected a refusal (4xx, not 401), ${got}`;
  if (outcome === 'unauth') return answer.status === 401 ? null : `expected 401, ${got}`;
  if (typeof outcome === 'number') return answer.status === outcome ? null : `expected ${outcome}, ${got}`;
  if (!ok) return `expected ${describeOutcome(outcome)}, ${got}`;
  const w = fixture.world;
  if ('id' in outcome) {
    const id = (answer.json as { id?: unknown } | undefined)?.id;
    return id === outcome.id(w) ? null : `expected the object ${outcome.id(w)}, got ${JSON.stringify(id)}`;
  }
  if ('keys' in outcome) {
    const json = answer.json;
    if (typeof json !== 'object' || json === null || Array.isArray(json)) return `expected a JSON object, got ${answer.text.slice(0, 160)}`;
    const expected = sortedNumbers(outcome.keys(w));
    const actual = sortedNumbers(Object.keys(json).map(Number));
    return difference('keys', expected, actual, (id) => nameOf(fixture, id, true));
  }
  if (!Array.isArray(answer.json)) return `expected a JSON array, got ${answer.text.slice(0, 160)}`;
  const items = answer.json as Array<Record<string, unknown>>;
  const expected = sortedNumbers('ids' in outcome ? outcome.ids(w) : [...new Set(outcome.deviceIds(w))]);
  const actual = sortedNumbers('ids' in outcome ? items.map((i) => Number(i.id)) : [...new Set(items.map((i) => Number(i.deviceId)))]);
  return difference('ids' in outcome ? 'ids' : 'devices', expected, actual, (id) => nameOf(fixture, id, 'ids' in outcome));
}

/** Null when both lists hold the same ids, else what is missing and what is extra. */
function difference(what: string, expected: number[], actual: number[], name: (id: number) => string): string | null {
  const same = expected.length === actual.length && expected.every((v, i) => v === actual[i]);
  if (same) return null;
  const missing = expected.filter((id) => !actual.includes(id));
  const extra = actual.filter((id) => !expected.includes(id));
  return `wrong ${what}: missing [${missing.map(name).join(', ')}], extra [${extra.map(name).join(', ')}] (expected ${expected.length}, got ${actual.length})`;
}

/** A fixture id with the names it has (ids of different kinds overlap), so a failure says which object is missing or extra. */
function nameOf(fixture: Fixture, id: number, anyKind: boolean): string {
  const w = fixture.world;
  const tables: Record<string, Record<string, number>> = anyKind
    ? { device: w.device, user: w.user, group: { ...w.group }, ...Object.fromEntries(ENTITY_KINDS.map((k) => [k, { ...w.entity[k] }])) }
    : { device: w.device };
  const names = Object.entries(tables).flatMap(([kind, table]) => Object.entries(table).filter(([, v]) => v === id).map(([key]) => `${kind} ${key}`));
  return names.length > 0 ? `${id} (${names.join(' / ')})` : String(id);
}

export interface RunContext {
  server: TestServer;
  admin: TestClient;
  fixture: Fixture;
}

/** One case: null when it passed, else the failure text. */
export async function runCase(run: RunContext, row: Row, role: Role): Promise<string | null> {
  const { server, admin, fixture } = run;
  const { method, path } = splitRoute(row.route);
  const cleanups: Array<() => Promise<unknown>> = [];
  const after = (fn: () => Promise<unknown>) => cleanups.push(fn);
  let createdAt: string | null = null;
  const env: CaseEnv = {
    w: fixture.world,
    role,
    self: personOf(role) === null ? null : fixture.world.user[role as Person],
    login: fixture.login,
    ctx: server.rastro.ctx,
    admin,
    scratch: scratchFor(server, admin, fixture, after),
    after,
    createsAt: (p) => {
      createdAt = p;
    },
  };
  try {
    const req = await row.request(env);
    const target = req.target ?? 'http';
    if (target === 'http' && !reachesRoute(server.rastro.app, method, path, req.path)) {
      return `the row says ${row.route} but requests ${method} ${req.path}, which Fastify routes elsewhere`;
    }
    const credentials = await credentialsFor(row, role, fixture, server);
    let answer: Answer;
    if (target === 'socket') answer = await openSocket(server, req, credentials);
    else if (target === 'osmand') {
      // Devices report with a GET of query parameters; the row's method names the port, not a verb.
      const res = await osmand(server, req.path, { method: 'GET', headers: headersOf(credentials) });
      answer = { status: res.status, text: res.text, json: undefined };
    } else answer = await sendHttp(server, method, req, credentials);
    const created = createdAt;
    if (created !== null && answer.status >= 200 && answer.status < 300) {
      const id = (answer.json as { id?: unknown } | undefined)?.id;
      if (typeof id === 'number') after(() => admin.delete(`${created}/${id}`));
    }
    return mismatch(row.expect[role], answer, fixture);
  } finally {
    for (const fn of cleanups.reverse()) await fn().catch(() => undefined);
  }
}
