// Every request named in traccar-world-1.json's `answers`, written out as the request it was,
// in the recorded order (later ones depend on earlier ones: the admin session is made by
// "POST /api/session" and ended by "DELETE /api/session"). Paths and bodies are templates:
// {dev1} {dev2} {dev3} {grp} {usr} are our ids of Traccar's device 1, 2, 3, group 1, user 2;
// {cmd} ours of its saved command 1; {alarm} ours of the SOS alarm event; {from} {to} are t0
// and t0 + 3600 s.
import type { IdKind } from './id-map.ts';

export type Placeholder = 'dev1' | 'dev2' | 'dev3' | 'grp' | 'usr' | 'cmd' | 'alarm' | 'from' | 'to';
export type Values = Record<Placeholder, string>;

/**
 * Who asks: the administrator's session (made by "POST /api/session"), a client with no
 * credential, one with a wrong Basic header, or the user the world created, logged in.
 */
export type Caller = 'admin' | 'anonymous' | 'badBasic' | 'user';

export interface DiffRequest {
  name: string;
  /** WS: a websocket upgrade of `path`; the answer is the upgrade's HTTP status. */
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'WS';
  path: string;
  /** JSON value, a form (URLSearchParams) or raw text sent as application/json. */
  body?: (v: Values) => unknown;
  as: Caller;
  /** What the `id` of the answer's objects is (compare.ts). */
  kind?: IdKind;
}

const RANGE = 'from={from}&to={to}';
const ALL3 = 'deviceId={dev1}&deviceId={dev2}&deviceId={dev3}';

function get(name: string, kind?: IdKind, path = name.slice('GET '.length), as: Caller = 'admin'): DiffRequest {
  return { name, method: 'GET', path, as, kind };
}

export const ADMIN_EMAIL = 'admin';
export const USER_EMAIL = 'cmpuser@example.com';
export const USER_PASSWORD = 'cmp-User-1';

/** The name of the events report over all three devices (its events pair Traccar's ids with ours). */
export const ALL_EVENTS = `GET /api/reports/events?${ALL3}&${RANGE}`;
/** The SOS alarm of device 2 (gives {alarm}). */
export const ALARM_EVENTS = `GET /api/reports/events?deviceId={dev2}&type=alarm&${RANGE}`;

export function requestsFor(adminPassword: string): DiffRequest[] {
  return [
    get('GET /api/session (no cookie)', undefined, '/api/session', 'anonymous'),
    {
      name: 'POST /api/session bad password', method: 'POST', path: '/api/session', as: 'anonymous',
      body: () => new URLSearchParams({ email: ADMIN_EMAIL, password: `${adminPassword}-wrong` }),
    },
    {
      name: 'POST /api/session', method: 'POST', path: '/api/session', as: 'admin', kind: 'user',
      body: () => new URLSearchParams({ email: ADMIN_EMAIL, password: adminPassword }),
    },
    get('GET /api/server'),
    get('GET /api/session', 'user'),
    get('GET /api/devices', 'device'),
    get('GET /api/devices?id={dev1}', 'device'),
    get('GET /api/devices?id={dev1}&id={dev2}', 'device'),
    get('GET /api/devices?uniqueId=cmp-002', 'device'),
    get('GET /api/devices/{dev1}', 'device'),
    get('GET /api/devices?userId={usr}', 'device'),
    get('GET /api/devices?groupId={grp}', 'device'),
    get('GET /api/groups', 'group'),
    get('GET /api/groups?userId={usr}', 'group'),
    get('GET /api/geofences', 'geofence'),
    get('GET /api/geofences?deviceId={dev1}', 'geofence'),
    get('GET /api/geofences?userId={usr}', 'geofence'),
    get('GET /api/commands', 'command'),
    get('GET /api/commands?deviceId={dev1}', 'command'),
    get('GET /api/commands/send?deviceId={dev1}', 'command'),
    get('GET /api/commands/send?deviceId={dev2}', 'command'),
    get('GET /api/commands/types?deviceId={dev1}'),
    get('GET /api/commands/types'),
    get('GET /api/commands/types?textChannel=true&deviceId={dev1}'),
    get('GET /api/users', 'user'),
    get('GET /api/users/{usr}', 'user'),
    get('GET /api/users?userId={usr}', 'user'),
    get('GET /api/notifications', 'notification'),
    get('GET /api/notifications/types'),
    get('GET /api/notificators'),
    get('GET /api/drivers', 'driver'),
    get('GET /api/maintenance', 'maintenance'),
    get('GET /api/calendars', 'calendar'),
    get('GET /api/attributes/computed', 'attribute'),
    get('GET /api/positions', 'position'),
    get(`GET /api/positions?deviceId={dev1}&${RANGE}`, 'position'),
    get(`GET /api/positions?deviceId={dev2}&${RANGE}`, 'position'),
    get(`GET /api/reports/route?deviceId={dev1}&${RANGE}`, 'position'),
    get(`GET /api/reports/route?groupId={grp}&${RANGE}`, 'position'),
    get(ALL_EVENTS, 'event'),
    get(ALARM_EVENTS, 'event'),
    get(`GET /api/reports/trips?${ALL3}&${RANGE}`),
    get(`GET /api/reports/stops?${ALL3}&${RANGE}`),
    get(`GET /api/reports/summary?${ALL3}&${RANGE}`),
    get(`GET /api/reports/summary?deviceId={dev1}&daily=true&${RANGE}`),
    get(`GET /api/reports/combined?deviceId={dev1}&${RANGE}`),
    get(`GET /api/statistics?${RANGE}`),
    get('GET /api/server/timezones'),
    get('GET /api/health'),
    get('GET /api/devices/999999', 'device'),
    get('GET /api/devices?id=999999', 'device'),
    get('GET /api/groups/999999', 'group'),
    get('GET /api/events/999999', 'event'),
    get('GET /api/users/999999', 'user'),
    get('GET /api/positions?deviceId=abc', 'position'),
    get('GET /api/positions?deviceId={dev1}&from=notadate&to={to}', 'position'),
    get('GET /api/reports/route?deviceId={dev1}', 'position'),
    get(`GET /api/reports/trips?${RANGE}`),
    get(`GET /api/reports/summary?deviceId=999999&${RANGE}`),
    get('GET /api/commands/types?deviceId=999999'),
    get('GET /api/nonexistent'),
    get('GET /api/devices (no auth)', 'device', '/api/devices', 'anonymous'),
    get('GET /api/devices (bad basic)', 'device', '/api/devices', 'badBasic'),
    get('GET /api/devices (user session)', 'device', '/api/devices', 'user'),
    get('GET /api/events/{alarm}', 'event'),
    {
      name: 'POST /api/devices duplicate uniqueId', method: 'POST', path: '/api/devices', as: 'admin', kind: 'device',
      body: () => ({ name: 'Duplicate', uniqueId: 'cmp-001' }),
    },
    {
      // Cut short: not JSON at all.
      name: 'POST /api/devices invalid json', method: 'POST', path: '/api/devices', as: 'admin', kind: 'device',
      body: () => '{"name": "Broken", "uniqueId": ',
    },
    {
      name: 'POST /api/devices missing uniqueId', method: 'POST', path: '/api/devices', as: 'admin', kind: 'device',
      body: () => ({ name: 'No unique id' }),
    },
    {
      // The body is the one Traccar echoed back.
      name: 'PUT /api/devices/999999', method: 'PUT', path: '/api/devices/999999', as: 'admin', kind: 'device',
      body: () => ({ id: 999999, name: 'x', uniqueId: 'x-999' }),
    },
    { name: 'DELETE /api/devices/999999', method: 'DELETE', path: '/api/devices/999999', as: 'admin' },
    {
      // A link between kinds that do not exist: "unknownId" names no object type.
      name: 'POST /api/permissions unknown', method: 'POST', path: '/api/permissions', as: 'admin',
      body: (v) => ({ deviceId: Number(v.dev1), unknownId: 1 }),
    },
    {
      // The saved engine stop (linked to device 1 by the world) sent to device 1, which talks
      // OsmAnd over HTTP and has no open connection: the command is queued (202).
      name: 'POST /api/commands/send saved (queued/offline)', method: 'POST', path: '/api/commands/send', as: 'admin',
      kind: 'queuedCommand', body: (v) => ({ id: Number(v.cmd), deviceId: Number(v.dev1) }),
    },
    {
      name: 'POST /api/commands/send engineResume', method: 'POST', path: '/api/commands/send', as: 'admin',
      kind: 'queuedCommand', body: (v) => ({ deviceId: Number(v.dev1), type: 'engineResume', attributes: {} }),
    },
    {
      name: 'POST /api/commands/send custom', method: 'POST', path: '/api/commands/send', as: 'admin',
      kind: 'queuedCommand', body: (v) => ({ deviceId: Number(v.dev2), type: 'custom', attributes: { data: 'hello' } }),
    },
    get('GET /api/commands/send?deviceId={dev1} after', 'command', '/api/commands/send?deviceId={dev1}'),
    { name: 'WS /api/socket', method: 'WS', path: '/api/socket', as: 'admin' },
    { name: 'WS /api/socket no cookie', method: 'WS', path: '/api/socket', as: 'anonymous' },
    { name: 'DELETE /api/session', method: 'DELETE', path: '/api/session', as: 'admin' },
    get('GET /api/session after logout', 'user', '/api/session'),
  ];
}

/** Fills a template with our values (URL-encoded: timestamps carry `:`). */
export function fill(template: string, values: Values): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => {
    if (!(key in values)) throw new Error(`unknown placeholder ${whole} in ${template}`);
    return encodeURIComponent(values[key as Placeholder]);
  });
}
