// Property-based fuzzing of every API route over real HTTP (fast-check): bodies, query strings
// and path ids full of hostile values — huge, negative and unrepresentable numbers, 1e400,
// lone surrogates, NUL, very long texts, impossible dates, deep nesting, wrong types, arrays
// for objects, prototype keys, malformed percent-encoding — sent as an administrator and as an
// ordinary user. Every answer must be below 500, and after every accepted write the lists and
// objects it touched must still answer 200 with JSON that parses, for both callers.
//
// The routes come from the server itself (printRoutes): a route that is neither fuzzed nor
// listed in NOT_FUZZED with a reason fails the suite. TEST_FUZZ_RUNS sets the runs per
// route and caller (default 30, so 60 per route); TEST_FUZZ_STATS=1 prints the answers' statuses per route;
// a failure prints the seed and the shrunk request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEVICE_WRITABLE_FIELDS } from '@rastro/domain/schemas/device';
import { USER_WRITABLE_FIELDS } from '@rastro/domain/schemas/user';
import { GROUP_WRITABLE_FIELDS } from '@rastro/domain/schemas/group';
import { GEOFENCE_WRITABLE_FIELDS } from '@rastro/domain/schemas/geofence';
import { COMMAND_WRITABLE_FIELDS } from '@rastro/domain/schemas/command';
import { SERVER_WRITABLE_FIELDS } from '@rastro/domain/schemas/server';
import { CALENDAR_WRITABLE_FIELDS } from '@rastro/domain/schemas/calendar';
import { DRIVER_WRITABLE_FIELDS } from '@rastro/domain/schemas/driver';
import { MAINTENANCE_WRITABLE_FIELDS } from '@rastro/domain/schemas/maintenance';
import { COMPUTED_ATTRIBUTE_WRITABLE_FIELDS } from '@rastro/domain/schemas/computed-attribute';
import { NOTIFICATION_WRITABLE_FIELDS } from '@rastro/domain/schemas/notification';
import type { Selectable } from 'kysely';
import type { ServerTable, UserTable } from '../src/storage/schema.ts';
import { backends, startTestServer, type TestServer } from './harness.ts';
import { addPosition, create, makeUser, setServer } from './visibility-fixtures.ts';

const RUNS = Number(process.env.TEST_FUZZ_RUNS ?? 30);

/** Routes the fuzzer leaves alone, and why. */
const NOT_FUZZED: Record<string, string> = {
  'GET /api/socket': 'a WebSocket upgrade that reads no body (socket suites cover it)',
  'POST /api/server/restart': 'restarts the server under test; reads no input',
  'POST /api/server/reboot': 'restarts the server under test; reads no input',
  'DELETE /api/session': 'ends the calling session; reads no input',
};

type Role = 'admin' | 'user';

interface Request {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
}

interface Fixtures {
  device: number;
  group: number;
  geofence: number;
  command: number;
  victim: number;
  self: Record<Role, number>;
  /** The entity resources' objects, linked to the user. */
  entities: Record<EntityKey, number>;
}

type EntityKey = 'calendar' | 'driver' | 'maintenance' | 'attribute' | 'notification';

// ---- hostile values ---------------------------------------------------------------------

const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

const hostileNumber = fc.constantFrom(
  8640000000000001, -8640000000000001, -1e30, 1e308, -1e308, 2 ** 53 + 2, 2 ** 63, -1, 0, -0, 0.5, 1e-320, 4294967296,
  90.000001, -180.5, 360.5, 1000.5, 25, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER,
);

const hostileText = fc.oneof(
  fc.constantFrom(
    '', ' ', '\ud800', 'a\udc00b', '\udfff\ud800', 'nul\u0000', '2025-02-30T10:00:00Z', '+275760-09-13T00:00:00.000Z',
    '1969-12-31T23:59:59Z', '2201-01-01T00:00:00Z', '2024-05-01', '2024-05-01T10:00:00', 'true', 'false', 'null', '0', '-1',
    '1e3', '1e400', 'NaN', 'Infinity', '__proto__', 'constructor', 'deleted-x-1', 'CIRCLE (91 0, 10)', 'CIRCLE (1 2, 1e400)',
    'POLYGON((1 2, 3 4, 5 6))', "'; drop table devices; --", '%ED%A0%80', 'line\nbreak - dash', '😀🚚',
  ),
  fc.string({ maxLength: 24 }),
  fc.string({ unit: anyCodeUnit, maxLength: 12 }),
  fc.integer({ min: 1, max: 6 }).map((n) => 'x'.repeat(10 ** n)),
);

const plausibleText = fc.oneof(fc.constantFrom('Truck 7', 'ABC-1234', 'custom', '+55 11 99999-0000'), fc.string({ minLength: 1, maxLength: 16 }));

function nestedValue(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileNumber },
  { weight: 2, arbitrary: fc.double() },
  fc.integer(),
  { weight: 3, arbitrary: hostileText },
  plausibleText,
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom([], [1, 'x'], {}, { __proto__: null, constructor: { prototype: 1 } }, { toString: 1, valueOf: 'x' }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 20, max: 80 }).map(nestedValue),
);

/** Bodies nested far deeper than anything legitimate (JSON.stringify of them overflows the stack). */
const deepBodyText = fc.constantFrom(
  `${'['.repeat(10_000)}${']'.repeat(10_000)}`,
  `{"name":"n","uniqueId":"deep","attributes":{"a":${'['.repeat(10_000)}1${']'.repeat(10_000)}}}`,
  `{"name":"n","attributes":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`,
);

/** Whole bodies that are not what any endpoint expects, as raw JSON text. */
const hostileBodyText = fc.constantFrom(
  '', '{', '{"a":}', '[]', '[{}]', '"text"', 'null', '0', 'true', '1e400', '-0', '[1,2,3]',
  '{"__proto__":{"administrator":true},"name":"p"}',
  '{"constructor":{"prototype":{"administrator":true}}}',
  '{"latitude":1e400,"longitude":-1e400,"zoom":1e400}',
  '{"expirationTime":1e400}',
  '{"k\\ud800":1}',
  '{"name":"a\\udc00"}',
  '{"name":"a","name":{"dup":true}}',
  '{"attributes":"{\\"a\\":1}"}',
);

/** A JSON body: a valid base with a few fields replaced, sometimes a hostile body outright. */
function jsonBody(base: () => Record<string, unknown>, keys: readonly string[]): fc.Arbitrary<string> {
  const fields = fc.constantFrom(...keys, 'id', 'attributes', 'status', '__proto__', 'constructor', 'toString', 'password');
  return fc.oneof(
    { weight: 6, arbitrary: fc.dictionary(fields, hostileValue, { maxKeys: 3 }).map((picks) => JSON.stringify({ ...base(), ...picks })) },
    { weight: 2, arbitrary: fc.constant(null).map(() => JSON.stringify(base())) },
    { weight: 1, arbitrary: hostileBodyText },
    { weight: 1, arbitrary: deepBodyText },
    { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'null') },
  );
}

/** One percent-encoded component; texts that cannot be encoded (lone surrogates) are sent as their malformed bytes. */
function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

const rawPercent = fc.constantFrom('%', '%ZZ', '%ED%A0%80', '%C0%80', '%FF', '%00', '%E2%82');

function urlEncoded(keys: readonly string[], values: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const pair = fc.tuple(
    fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...keys) }, { weight: 1, arbitrary: hostileText }),
    fc.oneof({ weight: 6, arbitrary: values.map(encode) }, { weight: 1, arbitrary: rawPercent }),
  );
  return fc.array(pair, { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${v}`).join('&'));
}

const T0 = Date.UTC(2024, 4, 1);
const iso = (ms: number) => new Date(ms).toISOString();

// ---- the routes ---------------------------------------------------------------------------

interface Target {
  /** "METHOD /route" as Fastify lists it. */
  route: string;
  request(f: Fixtures): fc.Arbitrary<Request>;
  /** What to read back (as both callers) after an accepted write. */
  reads?: (f: Fixtures) => string[];
  /** Puts shared fixtures back after an accepted write (so later runs keep their reach). */
  restore?: boolean;
}

let uniqueSeq = 0;
const unique = (prefix: string) => `${prefix}-${++uniqueSeq}`;

function queryOf(keys: readonly string[], values: (f: Fixtures) => fc.Arbitrary<string>) {
  return (f: Fixtures) => urlEncoded(keys, fc.oneof({ weight: 3, arbitrary: values(f) }, { weight: 2, arbitrary: hostileText }));
}

const LIST_KEYS = ['all', 'userId', 'groupId', 'deviceId', 'id', 'uniqueId', 'keyword', 'limit', 'offset', 'excludeAttributes'];
const REPORT_KEYS = ['from', 'to', 'deviceId', 'groupId', 'daily', 'type', 'limit', 'offset'];

const ids = (f: Fixtures) => fc.constantFrom(String(f.device), String(f.group), String(f.victim), String(f.geofence), '0', '-1', '1', 'true', '999999999999999', '1.5');
const listValues = (f: Fixtures) => fc.oneof(ids(f), fc.constantFrom('true', 'false', 'Truck', '%', '_', '10', '2'));
/** A valid report or history query: the fixture device over two days. */
const reportBase = (f: Fixtures) => `deviceId=${f.device}&from=${encode(iso(T0 - 86_400_000))}&to=${encode(iso(T0 + 86_400_000))}`;
const reportValues = (f: Fixtures) =>
  fc.oneof(
    ids(f),
    fc.constantFrom('true', 'false', 'allEvents', 'deviceOnline', 'alarm', iso(T0), iso(T0 + 86_400_000), '2024-05-01T10:00:00+03:00'),
    fc.integer({ min: -1e4, max: 1e4 }).map((d) => iso(T0 + d * 3_600_000)),
  );

/**
 * GET with hostile query strings, half of the time after a valid `base` query (later pairs win,
 * so the hostile ones also replace valid values).
 */
function get(route: string, path: (f: Fixtures) => fc.Arbitrary<string>, keys: readonly string[], values = listValues, base?: (f: Fixtures) => string): Target {
  return {
    route: `GET ${route}`,
    request: (f) =>
      fc.tuple(path(f), queryOf(keys, values)(f), fc.boolean()).map(([p, q, withBase]) => {
        const query = [withBase && base ? base(f) : '', q].filter((x) => x !== '').join('&');
        return { method: 'GET', path: query ? `${p}?${query}` : p };
      }),
  };
}

/** A DELETE (no body): of a missing object, or with a hostile id. */
function remove(prefix: string): Target {
  return {
    route: `DELETE ${prefix}/:id`,
    request: (f) => idPath(prefix, () => 999_999_999)(f).map((path) => ({ method: 'DELETE', path })),
  };
}

/** A path id: the fixture's most of the time, else a hostile one. */
function idPath(prefix: string, id: (f: Fixtures) => number, suffix = '') {
  return (f: Fixtures) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(String(id(f))) },
      { weight: 1, arbitrary: fc.constantFrom('0', '-1', 'abc', '1.5', '1e3', '9'.repeat(20), '%ED%A0%80', '%00', '%20') },
    ).map((i) => `${prefix}/${i}${suffix}`);
}

const fixed = (path: string) => () => fc.constant(path);

/** A body-carrying request: JSON mostly, sometimes a form, text or no content type. */
function write(method: string, route: string, path: (f: Fixtures) => fc.Arbitrary<string>, body: (f: Fixtures) => fc.Arbitrary<string>, extra: Partial<Target> = {}): Target {
  const contentType = fc.constantFrom('application/json', 'application/json', 'application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded');
  return {
    route: `${method} ${route}`,
    request: (f) => fc.tuple(path(f), body(f), contentType).map(([p, b, ct]) => ({ method, path: p, body: b, contentType: ct })),
    ...extra,
  };
}

/** A form endpoint (Traccar's login and password forms): urlencoded mostly, JSON sometimes. */
function form(route: string, keys: readonly string[], values: fc.Arbitrary<string>): Target {
  return {
    route: `POST ${route}`,
    request: () =>
      fc.oneof(
        { weight: 3, arbitrary: urlEncoded(keys, values).map((b) => ({ method: 'POST', path: route, body: b, contentType: 'application/x-www-form-urlencoded' })) },
        { weight: 1, arbitrary: jsonBody(() => ({}), keys).map((b) => ({ method: 'POST', path: route, body: b, contentType: 'application/json' })) },
      ),
  };
}

/**
 * A new password ends the account's login tokens, which the fuzzing callers use: their own
 * accounts get every field but the password (the victim's gets it too).
 */
function keepOwnPasswords(target: Target): Target {
  return {
    ...target,
    request: (f) =>
      target.request(f).map((request) => {
        const own = [f.self.admin, f.self.user].some((id) => request.path === `/api/users/${id}`);
        if (!own || !request.body?.includes('"password"')) return request;
        try {
          const body = JSON.parse(request.body) as unknown;
          if (body && typeof body === 'object' && !Array.isArray(body)) delete (body as Record<string, unknown>).password;
          return { ...request, body: JSON.stringify(body) };
        } catch {
          return request;
        }
      }),
  };
}

const deviceBase = () => ({ name: 'Fuzz', uniqueId: unique('fz') });
const geofenceBase = () => ({ name: 'Zone', area: 'CIRCLE (-23.5 -46.6, 100)' });
const commandBase = () => ({ type: 'custom', attributes: { data: 'x' } });
const userBase = () => ({ name: 'Fuzz user', email: `${unique('fz')}@test`, password: 'fuzz-pass' });
const calendarBase = () => ({ name: 'Hours', data: Buffer.from('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20240101T080000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n').toString('base64') });
const ENTITY_BASES: Record<EntityKey, { path: string; base: () => Record<string, unknown>; fields: readonly string[] }> = {
  calendar: { path: '/api/calendars', base: calendarBase, fields: CALENDAR_WRITABLE_FIELDS },
  driver: { path: '/api/drivers', base: () => ({ name: 'Driver', uniqueId: unique('drv') }), fields: DRIVER_WRITABLE_FIELDS },
  maintenance: { path: '/api/maintenance', base: () => ({ name: 'Oil', type: 'totalDistance', start: 0, period: 10000 }), fields: MAINTENANCE_WRITABLE_FIELDS },
  attribute: { path: '/api/attributes/computed', base: () => ({ description: 'Fuel', attribute: 'fuel', expression: 'adc1', type: 'number' }), fields: COMPUTED_ATTRIBUTE_WRITABLE_FIELDS },
  notification: { path: '/api/notifications', base: () => ({ type: 'alarm', notificators: 'web', attributes: { alarms: 'sos' } }), fields: NOTIFICATION_WRITABLE_FIELDS },
};

/** The five routes every entity resource has (resources/resource-routes.ts). */
function entityTargets(key: EntityKey): Target[] {
  const { path, base, fields } = ENTITY_BASES[key];
  return [
    get(path, fixed(path), LIST_KEYS),
    get(`${path}/:id`, idPath(path, (f) => f.entities[key]), LIST_KEYS),
    write('POST', path, fixed(path), () => jsonBody(base, fields), { reads: () => [path] }),
    write('PUT', `${path}/:id`, idPath(path, (f) => f.entities[key]), () => jsonBody(base, fields), { reads: (f) => [path, `${path}/${f.entities[key]}`] }),
    remove(path),
  ];
}

const linkBody = (f: Fixtures) =>
  fc.oneof(
    fc.constantFrom(
      JSON.stringify({ userId: f.victim, deviceId: f.device }),
      JSON.stringify({ userId: f.victim, groupId: f.group }),
      JSON.stringify({ deviceId: f.device, geofenceId: f.geofence }),
      JSON.stringify({ userId: f.self.user, managedUserId: f.victim }),
    ),
    fc.dictionary(fc.constantFrom('userId', 'deviceId', 'groupId', 'geofenceId', 'commandId', 'managedUserId', 'linkedDeviceId', '__proto__'), hostileValue, { minKeys: 1, maxKeys: 3 }).map((o) => JSON.stringify(o)),
    hostileBodyText,
  );
const bulkBody = (f: Fixtures) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant(JSON.stringify([{ userId: f.victim, deviceId: f.device }, { userId: f.victim, deviceId: f.device }])) },
    { weight: 3, arbitrary: fc.array(linkBody(f), { maxLength: 4 }).map((items) => `[${items.filter((t) => /^\{.*\}$/.test(t)).join(',')}]`) },
    { weight: 1, arbitrary: hostileBodyText },
  );

const TARGETS: Target[] = [
  get('/api/health', fixed('/api/health'), LIST_KEYS),
  get('/api/server', fixed('/api/server'), LIST_KEYS),
  write('PUT', '/api/server', fixed('/api/server'), () => jsonBody(() => ({ registration: false }), SERVER_WRITABLE_FIELDS), { reads: () => ['/api/server'], restore: true }),

  get('/api/devices', fixed('/api/devices'), LIST_KEYS, listValues, () => 'all=true&limit=5'),
  get('/api/devices/:id', idPath('/api/devices', (f) => f.device), LIST_KEYS),
  write('POST', '/api/devices', fixed('/api/devices'), () => jsonBody(deviceBase, DEVICE_WRITABLE_FIELDS), { reads: () => ['/api/devices', '/api/devices?all=true'] }),
  write('PUT', '/api/devices/:id', idPath('/api/devices', (f) => f.device), () => jsonBody(() => ({ name: 'Fuzz own' }), DEVICE_WRITABLE_FIELDS), {
    reads: (f) => ['/api/devices', `/api/devices/${f.device}`],
  }),
  remove('/api/devices'),
  write('PUT', '/api/devices/:id/accumulators', idPath('/api/devices', (f) => f.device, '/accumulators'), () =>
    jsonBody(() => ({ totalDistance: 1000 }), ['deviceId', 'totalDistance', 'hours']), { reads: (f) => ['/api/devices', `/api/positions?deviceId=${f.device}`] }),
  get('/api/devices/:id/clock', idPath('/api/devices', (f) => f.device, '/clock'), LIST_KEYS),

  get('/api/users', fixed('/api/users'), LIST_KEYS),
  get('/api/users/:id', idPath('/api/users', (f) => f.victim), LIST_KEYS),
  write('POST', '/api/users', fixed('/api/users'), () => jsonBody(userBase, USER_WRITABLE_FIELDS), { reads: () => ['/api/users'], restore: true }),
  keepOwnPasswords(write('PUT', '/api/users/:id', (f) => fc.constantFrom(f.victim, f.self.user, f.self.admin).chain((id) => idPath('/api/users', () => id)(f)), () =>
    jsonBody(() => ({ name: 'Fuzz name' }), USER_WRITABLE_FIELDS), { reads: (f) => ['/api/users', `/api/users/${f.self.user}`, '/api/session'], restore: true })),
  remove('/api/users'),

  get('/api/groups', fixed('/api/groups'), LIST_KEYS),
  get('/api/groups/:id', idPath('/api/groups', (f) => f.group), LIST_KEYS),
  write('POST', '/api/groups', fixed('/api/groups'), () => jsonBody(() => ({ name: 'G' }), GROUP_WRITABLE_FIELDS), { reads: () => ['/api/groups'] }),
  write('PUT', '/api/groups/:id', idPath('/api/groups', (f) => f.group), () => jsonBody(() => ({ name: 'Fuzz group' }), GROUP_WRITABLE_FIELDS), { reads: (f) => ['/api/groups', `/api/groups/${f.group}`] }),
  remove('/api/groups'),

  get('/api/geofences', fixed('/api/geofences'), LIST_KEYS),
  get('/api/geofences/:id', idPath('/api/geofences', (f) => f.geofence), LIST_KEYS),
  write('POST', '/api/geofences', fixed('/api/geofences'), () => jsonBody(geofenceBase, GEOFENCE_WRITABLE_FIELDS), { reads: () => ['/api/geofences'] }),
  write('PUT', '/api/geofences/:id', idPath('/api/geofences', (f) => f.geofence), () => jsonBody(() => ({ name: 'Fuzz zone' }), GEOFENCE_WRITABLE_FIELDS), {
    reads: (f) => ['/api/geofences', `/api/geofences/${f.geofence}`],
  }),
  remove('/api/geofences'),

  get('/api/commands', fixed('/api/commands'), LIST_KEYS),
  get('/api/commands/types', fixed('/api/commands/types'), ['deviceId', 'textChannel']),
  get('/api/commands/send', fixed('/api/commands/send'), ['deviceId'], listValues, (f) => `deviceId=${f.device}`),
  get('/api/commands/:id', idPath('/api/commands', (f) => f.command), LIST_KEYS),
  write('POST', '/api/commands', fixed('/api/commands'), () => jsonBody(commandBase, COMMAND_WRITABLE_FIELDS), { reads: () => ['/api/commands'] }),
  write('PUT', '/api/commands/:id', idPath('/api/commands', (f) => f.command), () => jsonBody(() => ({ type: 'custom' }), COMMAND_WRITABLE_FIELDS), { reads: (f) => ['/api/commands', `/api/commands/${f.command}`] }),
  remove('/api/commands'),
  write('POST', '/api/commands/send', (f) => fc.constantFrom('/api/commands/send', `/api/commands/send?groupId=${f.group}`, '/api/commands/send?groupId=%ZZ'), (f) =>
    jsonBody(() => ({ deviceId: f.device, type: 'custom', attributes: { data: 'x' } }), ['deviceId', 'id', 'type', 'textChannel', 'description', 'attributes']), { reads: () => ['/api/commands'] }),
  get('/api/commands/log', fixed('/api/commands/log'), ['deviceId', 'limit'], listValues, (f) => `deviceId=${f.device}`),
  remove('/api/commands/log'),

  get('/api/permissions', fixed('/api/permissions'), ['userId', 'deviceId', 'groupId', 'geofenceId', 'managedUserId', 'commandId'], listValues, (f) => `userId=${f.victim}&deviceId=0`),
  write('POST', '/api/permissions', fixed('/api/permissions'), linkBody, { reads: () => ['/api/devices', '/api/groups'], restore: true }),
  write('DELETE', '/api/permissions', fixed('/api/permissions'), linkBody, { reads: () => ['/api/devices', '/api/groups'], restore: true }),
  write('POST', '/api/permissions/bulk', fixed('/api/permissions/bulk'), bulkBody, { reads: () => ['/api/devices', '/api/groups'], restore: true }),
  write('DELETE', '/api/permissions/bulk', fixed('/api/permissions/bulk'), bulkBody, { reads: () => ['/api/devices', '/api/groups'], restore: true }),

  ...(['calendar', 'driver', 'maintenance', 'attribute', 'notification'] as const).flatMap(entityTargets),
  get('/api/notifications/types', fixed('/api/notifications/types'), LIST_KEYS),
  // Reads no input: whatever the body, a test event to the caller (and a mail when SMTP is set).
  write('POST', '/api/notifications/test', fixed('/api/notifications/test'), () => hostileBodyText),

  get('/api/positions', fixed('/api/positions'), ['id', 'deviceId', 'from', 'to'], reportValues, reportBase),
  get('/api/events/:id', idPath('/api/events', () => 1), LIST_KEYS),
  ...['route', 'summary', 'stops', 'events', 'trips'].flatMap((kind) =>
    ['', '/xlsx', '/mail'].map((variant) => get(`/api/reports/${kind}${variant}`, fixed(`/api/reports/${kind}${variant}`), REPORT_KEYS, reportValues, reportBase)),
  ),
  get('/api/reports/combined', fixed('/api/reports/combined'), REPORT_KEYS, reportValues, reportBase),
  get('/api/server/timezones', fixed('/api/server/timezones'), LIST_KEYS),
  get('/api/statistics', fixed('/api/statistics'), ['from', 'to'], reportValues, reportBase),
  get('/tarkan/weather', fixed('/tarkan/weather'), LIST_KEYS),
  // The advanced logs (audit/audit-routes.ts) and the users manager's device counts.
  ...['/api/server/logs', '/tarkan/server/logs'].map((path) => get(path, fixed(path), ['from', 'to', 'limit', 'offset'], reportValues, reportBase)),
  ...['/api/users', '/tarkan/users'].map((base) => get(`${base}/:id/logs`, idPath(base, (f) => f.victim, '/logs'), ['from', 'to', 'limit', 'offset'], reportValues, reportBase)),
  ...['/api/devices', '/tarkan/devices'].map((base) => get(`${base}/:id/logs`, idPath(base, (f) => f.device, '/logs'), ['from', 'to', 'limit', 'offset'], reportValues, reportBase)),
  get('/api/audit', fixed('/api/audit'), ['from', 'to'], reportValues, reportBase),
  get('/tarkan/users/device-counts', fixed('/tarkan/users/device-counts'), LIST_KEYS),

  get('/api/session', fixed('/api/session'), ['token']),
  get('/api/session/:id', idPath('/api/session', (f) => f.victim), ['token']),
  form('/api/session', ['email', 'password', 'code', 'token'], fc.oneof(hostileText, fc.constantFrom('admin', 'nobody@test'))),
  form('/api/session/token', ['expiration'], fc.oneof(hostileText, fc.constant(iso(Date.now() + 86_400_000)))),
  form('/api/session/token/revoke', ['token'], hostileText),
  form('/api/session/password', ['email', 'token', 'password'], hostileText),
  form('/api/password/reset', ['email'], hostileText),
  form('/api/password/update', ['token', 'password'], hostileText),
];

/** Every "METHOD /route" the server answers under /api and /tarkan (HEAD and OPTIONS aside). */
function serverRoutes(tree: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[└├]── (.+?) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const level = match[1]!.length / 4;
    stack.length = level;
    const path = (stack[level - 1] ?? '') + match[2]!;
    stack[level] = path;
    if (!path.startsWith('/api') && !path.startsWith('/tarkan')) continue;
    for (const method of match[3]!.split(', ')) if (method !== 'HEAD' && method !== 'OPTIONS') routes.push(`${method} ${path}`);
  }
  return routes;
}

describe.each(backends)('fuzzing the API (%s)', (backend) => {
  let server: TestServer;
  const auth: Record<Role, string> = { admin: '', user: '' };
  let fixtures: Fixtures;
  const snapshots: Selectable<UserTable>[] = [];
  let serverSnapshot: Selectable<ServerTable>;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_WEATHER_IP_URL: 'off', RASTRO_WEATHER_GEO_URL: 'off', RASTRO_WEATHER_FORECAST_URL: 'off' });
    const admin = await server.admin();
    const user = await makeUser(server, 'fuzz-user@test');
    const victim = await makeUser(server, 'fuzz-victim@test');
    // Bearer tokens: stateless, so no fuzzed request (a login, a login-as) can end our sessions.
    for (const [role, client] of [['admin', admin], ['user', user.client]] as const) {
      const token = await client.post('/api/session/token', new URLSearchParams());
      expect(token.status, token.text).toBe(200);
      auth[role] = `Bearer ${token.text}`;
    }
    const device = await create<{ id: number }>(user.client, '/api/devices', { name: 'Fuzz own', uniqueId: 'fuzz-own' });
    await addPosition(server, device.id);
    const group = await create<{ id: number }>(user.client, '/api/groups', { name: 'Fuzz group' });
    const geofence = await create<{ id: number }>(user.client, '/api/geofences', { name: 'Fuzz zone', area: 'CIRCLE (1 2, 30)' });
    const command = await create<{ id: number }>(user.client, '/api/commands', { type: 'custom', attributes: { data: 'x' } });
    // Computed attributes are written by administrators only: the user reaches this one through a link.
    const entities = {} as Record<EntityKey, number>;
    for (const key of Object.keys(ENTITY_BASES) as EntityKey[]) {
      entities[key] = (await create<{ id: number }>(key === 'attribute' ? admin : user.client, ENTITY_BASES[key].path, ENTITY_BASES[key].base())).id;
    }
    expect((await admin.post('/api/permissions', { userId: user.row.id, attributeId: entities.attribute })).status).toBe(204);
    fixtures = { device: device.id, group: group.id, geofence: geofence.id, command: command.id, victim: victim.row.id, self: { admin: 1, user: user.row.id }, entities };
    const db = server.rastro.ctx.storage.db;
    snapshots.push(...(await db.selectFrom('users').selectAll().where('id', 'in', [1, user.row.id, victim.row.id]).execute()));
    serverSnapshot = await db.selectFrom('server').selectAll().executeTakeFirstOrThrow();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  async function send(role: Role, request: Request): Promise<{ status: number; text: string; type: string }> {
    const headers: Record<string, string> = { authorization: auth[role] };
    if (request.contentType && request.body !== undefined) headers['content-type'] = request.contentType;
    const res = await fetch(server.url + request.path, { method: request.method, headers, body: request.body, redirect: 'manual' });
    return { status: res.status, text: await res.text(), type: res.headers.get('content-type') ?? '' };
  }

  /** The shared fixtures as they were: users, server settings, the links that give the user reach. */
  let restoring = Promise.resolve();
  function restore(): Promise<void> {
    // Both callers may ask at once: one restore after the other.
    restoring = restoring.then(restoreNow);
    return restoring;
  }

  async function restoreNow(): Promise<void> {
    const db = server.rastro.ctx.storage.db;
    for (const { id, ...row } of snapshots) await db.updateTable('users').set(row).where('id', '=', id).execute();
    const { id: _id, ...settings } = serverSnapshot;
    await setServer(server, settings);
    for (const [table, propertyId] of [['userDevice', fixtures.device], ['userGroup', fixtures.group], ['userGeofence', fixtures.geofence], ['userCommand', fixtures.command]] as const) {
      await db.insertInto(table).values({ ownerId: fixtures.self.user, propertyId }).onConflict((oc) => oc.doNothing()).execute();
    }
    await db.deleteFrom('userUser').where('ownerId', '=', fixtures.self.user).execute();
    await db.updateTable('devices').set({ disabled: 0 }).where('id', '=', fixtures.device).execute();
  }

  async function readBack(paths: string[], after: string): Promise<void> {
    for (const role of ['admin', 'user'] as const) {
      for (const path of paths) {
        const res = await send(role, { method: 'GET', path });
        // The user may have lost sight of an object (a link removed): a refusal, never a failure.
        expect(res.status, `${role} GET ${path} after ${after}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
        if (res.status === 200) expect(() => JSON.parse(res.text), `${role} GET ${path} after ${after}`).not.toThrow();
      }
    }
    expect((await send('admin', { method: 'GET', path: paths[0]! })).status, `admin GET ${paths[0]} after ${after}`).toBe(200);
  }

  it('covers every route the server answers', () => {
    const fuzzed = new Set(TARGETS.map((t) => t.route));
    const missing = serverRoutes(server.rastro.app.printRoutes({ commonPrefix: false })).filter((r) => !fuzzed.has(r) && !(r in NOT_FUZZED));
    expect(missing).toEqual([]);
  });

  for (const target of TARGETS) {
    it(`${target.route} never answers 5xx and stores nothing unreadable`, async () => {
      const statuses = new Map<number, number>();
      // Both callers at once: half the wall time, and their requests interleave as real ones do.
      const roles = (['admin', 'user'] as const).map(async (role) => {
        await fc.assert(
          fc.asyncProperty(target.request(fixtures), async (request) => {
            const res = await send(role, request);
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            const shown = `${role} ${request.method} ${request.path.slice(0, 200)} ${request.contentType ?? ''} ${(request.body ?? '').slice(0, 300)}`;
            expect(res.status, `${shown}\n=> ${res.text.slice(0, 300)}`).toBeLessThan(500);
            if (res.status === 200 && res.type.includes('json')) expect(() => JSON.parse(res.text), shown).not.toThrow();
            const accepted = request.method !== 'GET' && res.status >= 200 && res.status < 300;
            if (accepted && target.reads) await readBack(target.reads(fixtures), shown);
            if (accepted && target.restore) await restore();
          }),
          { numRuns: RUNS },
        );
      });
      // Both run to their end before the next route starts; the first failure is reported.
      const failed = (await Promise.allSettled(roles)).find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      if (process.env.TEST_FUZZ_STATS) console.log(target.route, JSON.stringify(Object.fromEntries(statuses)));
      // The credentials worked: the requests reached the route, not only the authentication.
      expect(statuses.get(401) ?? 0, target.route).toBeLessThan(2 * RUNS);
    }, 120_000);
  }
});
