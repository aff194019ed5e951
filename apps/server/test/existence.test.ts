// Point 8 of the hardening issue: for a non-administrator, an id that exists but is not theirs
// and an id that does not exist are answered the same way (same status, same body), so no
// one can probe which ids exist. One row per route that takes an id (path, query or body),
// enumerated from the route files; each row runs as an ordinary user and as a manager.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestClient, type TestResponse, type TestServer } from './harness.ts';
import { addPosition, create, link, makeUser } from './visibility-fixtures.ts';

type Kind = 'device' | 'group' | 'user' | 'geofence' | 'command' | 'commandLog' | 'position' | 'event' | EntityKind;
/** The entity resources (resources/resource-routes.ts). */
type EntityKind = 'calendar' | 'driver' | 'maintenance' | 'computedAttribute' | 'notification';

/** What a caller owns: the "mine" side of routes that take two ids. */
interface Own {
  id: number;
  device: number;
  group: number;
  geofence: number;
  command: number;
}

interface Row {
  /** `METHOD /path` as registered, then what carries the id. */
  route: string;
  kind: Kind;
  statusOnly?: boolean;
  call(client: TestClient, own: Own, id: number): Promise<TestResponse>;
}

const T0 = '2024-05-01T00:00:00Z';
const T1 = '2024-05-02T00:00:00Z';
const period = `from=${encodeURIComponent(T0)}&to=${encodeURIComponent(T1)}`;
const area = 'CIRCLE (-23.5 -46.6, 100)';
let serial = 0;
const fresh = () => `ex-${++serial}`;

const REPORTS = ['route', 'summary', 'events', 'trips', 'stops'];

const ICS = Buffer.from('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20240101T080000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n').toString('base64');
/** Each entity resource: its path, a valid body, the key its links use, and the owners it links to besides users. */
const ENTITIES: Record<EntityKind, { path: string; body: () => Record<string, unknown>; key: string; owners: Array<'device' | 'group'> }> = {
  calendar: { path: '/api/calendars', body: () => ({ name: 'C', data: ICS }), key: 'calendarId', owners: [] },
  driver: { path: '/api/drivers', body: () => ({ name: 'D', uniqueId: fresh() }), key: 'driverId', owners: ['device', 'group'] },
  maintenance: { path: '/api/maintenance', body: () => ({ name: 'M', type: 'hours', period: 1 }), key: 'maintenanceId', owners: ['device', 'group'] },
  computedAttribute: { path: '/api/attributes/computed', body: () => ({ description: 'A', attribute: 'a', expression: 'x', type: 'string' }), key: 'attributeId', owners: ['device', 'group'] },
  notification: { path: '/api/notifications', body: () => ({ type: 'alarm' }), key: 'notificationId', owners: ['device', 'group'] },
};

const ROWS: Row[] = [
  // devices-routes.ts
  { route: 'GET /api/devices/:id', kind: 'device', call: (c, _o, id) => c.get(`/api/devices/${id}`) },
  { route: 'PUT /api/devices/:id', kind: 'device', call: (c, _o, id) => c.put(`/api/devices/${id}`, { id, name: 'X', uniqueId: fresh() }) },
  { route: 'DELETE /api/devices/:id', kind: 'device', call: (c, _o, id) => c.delete(`/api/devices/${id}`) },
  { route: 'PUT /api/devices/:id/accumulators', kind: 'device', call: (c, _o, id) => c.put(`/api/devices/${id}/accumulators`, { deviceId: id, totalDistance: 1 }) },
  { route: 'GET /api/devices/:id/clock', kind: 'device', call: (c, _o, id) => c.get(`/api/devices/${id}/clock`) },
  { route: 'GET /api/devices?id=', kind: 'device', call: (c, _o, id) => c.get(`/api/devices?id=${id}`) },
  { route: 'GET /api/devices?deviceId=', kind: 'device', call: (c, _o, id) => c.get(`/api/devices?deviceId=${id}`) },
  { route: 'GET /api/devices?groupId=', kind: 'group', call: (c, _o, id) => c.get(`/api/devices?groupId=${id}`) },
  { route: 'GET /api/devices?userId=', kind: 'user', call: (c, _o, id) => c.get(`/api/devices?userId=${id}`) },
  { route: 'POST /api/devices {groupId}', kind: 'group', call: (c, _o, id) => c.post('/api/devices', { name: 'X', uniqueId: fresh(), groupId: id }) },
  { route: 'PUT /api/devices/:mine {groupId}', kind: 'group', call: (c, o, id) => c.put(`/api/devices/${o.device}`, { groupId: id }) },
  // users-routes.ts
  { route: 'GET /api/users/:id', kind: 'user', call: (c, _o, id) => c.get(`/api/users/${id}`) },
  { route: 'PUT /api/users/:id', kind: 'user', call: (c, _o, id) => c.put(`/api/users/${id}`, { id, name: 'Someone' }) },
  { route: 'DELETE /api/users/:id', kind: 'user', call: (c, _o, id) => c.delete(`/api/users/${id}`) },
  { route: 'GET /api/users?userId=', kind: 'user', call: (c, _o, id) => c.get(`/api/users?userId=${id}`) },
  { route: 'GET /api/users?deviceId=', kind: 'device', call: (c, _o, id) => c.get(`/api/users?deviceId=${id}`) },
  // audit/audit-routes.ts: a user's and a device's log
  { route: 'GET /api/users/:id/logs', kind: 'user', call: (c, _o, id) => c.get(`/api/users/${id}/logs`) },
  { route: 'GET /api/devices/:id/logs', kind: 'device', call: (c, _o, id) => c.get(`/api/devices/${id}/logs`) },
  // auth/session-routes.ts ("login as")
  { route: 'GET /api/session/:id', kind: 'user', call: (c, _o, id) => c.get(`/api/session/${id}`) },
  // groups-routes.ts
  { route: 'GET /api/groups/:id', kind: 'group', call: (c, _o, id) => c.get(`/api/groups/${id}`) },
  { route: 'PUT /api/groups/:id', kind: 'group', call: (c, _o, id) => c.put(`/api/groups/${id}`, { id, name: 'G' }) },
  { route: 'DELETE /api/groups/:id', kind: 'group', call: (c, _o, id) => c.delete(`/api/groups/${id}`) },
  { route: 'GET /api/groups?userId=', kind: 'user', call: (c, _o, id) => c.get(`/api/groups?userId=${id}`) },
  { route: 'POST /api/groups {groupId}', kind: 'group', call: (c, _o, id) => c.post('/api/groups', { name: 'G', groupId: id }) },
  { route: 'PUT /api/groups/:mine {groupId}', kind: 'group', call: (c, o, id) => c.put(`/api/groups/${o.group}`, { groupId: id }) },
  // geofences-routes.ts (+ the extended list parameters of access/extended-list.ts)
  { route: 'GET /api/geofences/:id', kind: 'geofence', call: (c, _o, id) => c.get(`/api/geofences/${id}`) },
  { route: 'PUT /api/geofences/:id', kind: 'geofence', call: (c, _o, id) => c.put(`/api/geofences/${id}`, { id, name: 'F', area }) },
  { route: 'DELETE /api/geofences/:id', kind: 'geofence', call: (c, _o, id) => c.delete(`/api/geofences/${id}`) },
  { route: 'GET /api/geofences?userId=', kind: 'user', call: (c, _o, id) => c.get(`/api/geofences?userId=${id}`) },
  { route: 'GET /api/geofences?groupId=', kind: 'group', call: (c, _o, id) => c.get(`/api/geofences?groupId=${id}`) },
  { route: 'GET /api/geofences?deviceId=', kind: 'device', call: (c, _o, id) => c.get(`/api/geofences?deviceId=${id}`) },
  { route: 'POST /api/geofences {attributes.deviceId}', kind: 'device', call: (c, _o, id) => c.post('/api/geofences', { name: 'F', area, attributes: { deviceId: id } }) },
  { route: 'PUT /api/geofences/:mine {attributes.deviceId}', kind: 'device', call: (c, o, id) => c.put(`/api/geofences/${o.geofence}`, { attributes: { deviceId: id } }) },
  // commands-routes.ts
  { route: 'GET /api/commands/:id', kind: 'command', call: (c, _o, id) => c.get(`/api/commands/${id}`) },
  { route: 'PUT /api/commands/:id', kind: 'command', call: (c, _o, id) => c.put(`/api/commands/${id}`, { id, type: 'custom' }) },
  { route: 'DELETE /api/commands/:id', kind: 'command', call: (c, _o, id) => c.delete(`/api/commands/${id}`) },
  { route: 'GET /api/commands?userId=', kind: 'user', call: (c, _o, id) => c.get(`/api/commands?userId=${id}`) },
  { route: 'GET /api/commands?groupId=', kind: 'group', call: (c, _o, id) => c.get(`/api/commands?groupId=${id}`) },
  { route: 'GET /api/commands?deviceId=', kind: 'device', call: (c, _o, id) => c.get(`/api/commands?deviceId=${id}`) },
  { route: 'GET /api/commands/types?deviceId=', kind: 'device', call: (c, _o, id) => c.get(`/api/commands/types?deviceId=${id}`) },
  { route: 'GET /api/commands/send?deviceId=', kind: 'device', call: (c, _o, id) => c.get(`/api/commands/send?deviceId=${id}`) },
  { route: 'POST /api/commands/send {deviceId}', kind: 'device', call: (c, _o, id) => c.post('/api/commands/send', { deviceId: id, type: 'custom', attributes: { data: 'x' } }) },
  { route: 'POST /api/commands/send {id}', kind: 'command', call: (c, o, id) => c.post('/api/commands/send', { id, deviceId: o.device }) },
  { route: 'POST /api/commands/send?groupId=', kind: 'group', call: (c, _o, id) => c.post(`/api/commands/send?groupId=${id}`, { type: 'custom', attributes: { data: 'x' } }) },
  // The entity resources (resources/resource-routes.ts and the definitions it serves)
  ...(Object.entries(ENTITIES) as Array<[EntityKind, (typeof ENTITIES)[EntityKind]]>).flatMap(([kind, e]): Row[] => [
    { route: `GET ${e.path}/:id`, kind, call: (c, _o, id) => c.get(`${e.path}/${id}`) },
    { route: `PUT ${e.path}/:id`, kind, call: (c, _o, id) => c.put(`${e.path}/${id}`, { id, ...e.body() }) },
    { route: `DELETE ${e.path}/:id`, kind, call: (c, _o, id) => c.delete(`${e.path}/${id}`) },
    { route: `GET ${e.path}?userId=`, kind: 'user', call: (c, _o, id) => c.get(`${e.path}?userId=${id}`) },
    { route: `GET ${e.path}?groupId=`, kind: 'group', call: (c, _o, id) => c.get(`${e.path}?groupId=${id}`) },
    { route: `GET ${e.path}?deviceId=`, kind: 'device', call: (c, _o, id) => c.get(`${e.path}?deviceId=${id}`) },
  ]),
  { route: 'POST /api/notifications {calendarId}', kind: 'calendar', call: (c, _o, id) => c.post('/api/notifications', { type: 'alarm', calendarId: id }) },
  { route: 'POST /api/notifications {commandId}', kind: 'command', call: (c, _o, id) => c.post('/api/notifications', { type: 'alarm', notificators: 'command', commandId: id }) },
  // command-log-routes.ts
  { route: 'GET /api/commands/log?deviceId=', kind: 'device', call: (c, _o, id) => c.get(`/api/commands/log?deviceId=${id}`) },
  { route: 'DELETE /api/commands/log/:id', kind: 'commandLog', call: (c, _o, id) => c.delete(`/api/commands/log/${id}`) },
  // positions-routes.ts
  { route: 'GET /api/positions?deviceId=', kind: 'device', call: (c, _o, id) => c.get(`/api/positions?deviceId=${id}`) },
  { route: 'GET /api/positions?deviceId=&from=&to=', kind: 'device', call: (c, _o, id) => c.get(`/api/positions?deviceId=${id}&${period}`) },
  { route: 'GET /api/positions?id=', kind: 'position', call: (c, _o, id) => c.get(`/api/positions?id=${id}`) },
  // events-routes.ts
  { route: 'GET /api/events/:id', kind: 'event', call: (c, _o, id) => c.get(`/api/events/${id}`) },
  // reports (reports-routes.ts, motion-report-routes.ts through report-endpoint.ts); the
  // combined report is JSON only (no /mail, no /xlsx)
  { route: 'GET /api/reports/combined?deviceId=', kind: 'device', call: (c, _o, id) => c.get(`/api/reports/combined?deviceId=${id}&${period}`) },
  { route: 'GET /api/reports/combined?groupId=', kind: 'group', call: (c, _o, id) => c.get(`/api/reports/combined?groupId=${id}&${period}`) },
  ...REPORTS.flatMap((name): Row[] => [
    { route: `GET /api/reports/${name}?deviceId=`, kind: 'device', call: (c, _o, id) => c.get(`/api/reports/${name}?deviceId=${id}&${period}`) },
    { route: `GET /api/reports/${name}?groupId=`, kind: 'group', call: (c, _o, id) => c.get(`/api/reports/${name}?groupId=${id}&${period}`) },
  ]),
  ...REPORTS.flatMap((name): Row[] => [
    { route: `GET /api/reports/${name}/mail?deviceId=`, kind: 'device', call: (c, _o, id) => c.get(`/api/reports/${name}/mail?deviceId=${id}&${period}`) },
    // A spreadsheet carries the time it was written: compared by status and type only (its
    // devices are chosen by the same code as the JSON form above, compared in full).
    { route: `GET /api/reports/${name}/xlsx?deviceId=`, kind: 'device', statusOnly: true, call: (c, _o, id) => c.get(`/api/reports/${name}/xlsx?deviceId=${id}&${period}`) },
  ]),
];

/** Routes that take no id of an object at all (in their path, query or body). */
const NO_ID = new Set([
  'GET /api/health', 'POST /api/session', 'GET /api/session', 'DELETE /api/session', 'POST /api/session/token',
  'POST /api/session/token/revoke', 'POST /api/session/password', 'POST /api/password/reset', 'POST /api/password/update',
  'GET /api/server', 'PUT /api/server', 'POST /api/server/restart', 'POST /api/server/reboot', 'GET /api/socket',
  'GET /api/positions', 'POST /api/users', 'POST /api/commands',
  'POST /api/calendars', 'POST /api/drivers', 'POST /api/maintenance', 'POST /api/attributes/computed', 'GET /api/notifications/types',
  'GET /api/server/timezones', 'GET /api/statistics', 'GET /api/server/logs', 'GET /api/audit', 'POST /api/notifications/test',
]);

// permissions-routes.ts: every link kind, the foreign id on one side and the caller's own
// object (or the caller) on the other, added and removed, one by one and in bulk.
const LINKS: Array<{ keys: [string, string]; kind: Kind; own: (o: Own) => number; foreignFirst: boolean }> = [
  { keys: ['userId', 'deviceId'], kind: 'device', own: (o) => o.id, foreignFirst: false },
  { keys: ['userId', 'deviceId'], kind: 'user', own: (o) => o.device, foreignFirst: true },
  { keys: ['userId', 'groupId'], kind: 'group', own: (o) => o.id, foreignFirst: false },
  { keys: ['userId', 'managedUserId'], kind: 'user', own: (o) => o.id, foreignFirst: false },
  { keys: ['deviceId', 'linkedDeviceId'], kind: 'device', own: (o) => o.device, foreignFirst: false },
  { keys: ['userId', 'geofenceId'], kind: 'geofence', own: (o) => o.id, foreignFirst: false },
  { keys: ['deviceId', 'geofenceId'], kind: 'device', own: (o) => o.geofence, foreignFirst: true },
  { keys: ['groupId', 'geofenceId'], kind: 'group', own: (o) => o.geofence, foreignFirst: true },
  { keys: ['userId', 'commandId'], kind: 'command', own: (o) => o.id, foreignFirst: false },
  { keys: ['deviceId', 'commandId'], kind: 'command', own: (o) => o.device, foreignFirst: false },
  { keys: ['groupId', 'commandId'], kind: 'command', own: (o) => o.group, foreignFirst: false },
  ...(Object.entries(ENTITIES) as Array<[EntityKind, (typeof ENTITIES)[EntityKind]]>).flatMap(([kind, e]) => [
    { keys: ['userId', e.key] as [string, string], kind, own: (o: Own) => o.id, foreignFirst: false },
    ...e.owners.map((owner) => ({ keys: [`${owner}Id`, e.key] as [string, string], kind, own: (o: Own) => o[owner], foreignFirst: false })),
  ]),
];
for (const l of LINKS) {
  const body = (o: Own, id: number) => {
    const [a, b] = l.foreignFirst ? [id, l.own(o)] : [l.own(o), id];
    return { [l.keys[0]]: a, [l.keys[1]]: b };
  };
  const name = `{${l.keys.join(', ')}} (${l.kind} ${l.foreignFirst ? 'first' : 'second'})`;
  ROWS.push(
    { route: `POST /api/permissions ${name}`, kind: l.kind, call: (c, o, id) => c.post('/api/permissions', body(o, id)) },
    { route: `DELETE /api/permissions ${name}`, kind: l.kind, call: (c, o, id) => c.delete('/api/permissions', body(o, id)) },
    { route: `POST /api/permissions/bulk ${name}`, kind: l.kind, call: (c, o, id) => c.post('/api/permissions/bulk', [body(o, id)]) },
    { route: `DELETE /api/permissions/bulk ${name}`, kind: l.kind, call: (c, o, id) => c.delete('/api/permissions/bulk', [body(o, id)]) },
  );
}
ROWS.push({ route: 'GET /api/permissions?userId=&deviceId=0', kind: 'user', call: (c, _o, id) => c.get(`/api/permissions?userId=${id}&deviceId=0`) });

/** Ids that exist on no server of this suite (far above anything it creates). */
const MISSING = 987_654_321;

/** The caller's request echoes the id it sent in some messages: compare with it masked. */
const masked = (res: TestResponse, id: number, statusOnly = false) => ({
  status: res.status,
  body: statusOnly ? res.headers.get('content-type') : res.text.replace(new RegExp(`\\b${id}\\b`, 'g'), '<id>'),
});

/** `METHOD /path` of every /api route the app registered (HEAD and OPTIONS aside), from Fastify's route tree. */
function apiRoutes(tree: string): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([\s│]*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const path = stack.join('').replace(/^\/+/, '/');
    for (const method of (match[3] ?? '').split(', ')) {
      if (method && method !== 'HEAD' && method !== 'OPTIONS' && path.startsWith('/api')) found.push(`${method} ${path}`);
    }
  }
  return found;
}

describe.each(backends)('existence is not leaked (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  const foreign = {} as Record<Kind, number>;
  const callers: Array<{ role: string; client: TestClient; own: Own }> = [];

  /** Objects a caller creates through the API (each is linked to its creator). */
  async function ownObjects(client: TestClient, id: number): Promise<Own> {
    const device = (await create<{ id: number }>(client, '/api/devices', { name: 'Mine', uniqueId: fresh() })).id;
    const group = (await create<{ id: number }>(client, '/api/groups', { name: 'Mine' })).id;
    const geofence = (await create<{ id: number }>(client, '/api/geofences', { name: 'Mine', area })).id;
    const command = (await create<{ id: number }>(client, '/api/commands', { type: 'custom', attributes: { data: 'x' } })).id;
    return { id, device, group, geofence, command };
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    // Someone else's objects, one of each kind.
    const other = await makeUser(server, 'ex-other@test');
    foreign.user = other.row.id;
    const group = await create<{ id: number }>(admin, '/api/groups', { name: 'Theirs' });
    foreign.group = group.id;
    foreign.device = (await create<{ id: number }>(admin, '/api/devices', { name: 'Theirs', uniqueId: 'ex-theirs', groupId: group.id })).id;
    foreign.geofence = (await create<{ id: number }>(admin, '/api/geofences', { name: 'Theirs', area })).id;
    foreign.command = (await create<{ id: number }>(admin, '/api/commands', { type: 'custom', attributes: { data: 'x' } })).id;
    for (const [kind, e] of Object.entries(ENTITIES) as Array<[EntityKind, (typeof ENTITIES)[EntityKind]]>) {
      foreign[kind] = (await create<{ id: number }>(admin, e.path, e.body())).id;
    }
    // A command waiting for their device (its lifecycle entry is what the cancel route takes).
    const queued = await admin.post<{ commandLog: { id: number } }>('/api/commands/send', { deviceId: foreign.device, type: 'custom', attributes: { data: 'x' } });
    foreign.commandLog = queued.json.commandLog.id;
    foreign.position = (await addPosition(server, foreign.device, { fixTime: Date.parse('2024-05-01T10:00:00Z') })).id;
    const event = await server.rastro.ctx.storage.db
      .insertInto('events')
      .values({ type: 'deviceOnline', eventTime: Date.parse('2024-05-01T10:00:00Z'), deviceId: foreign.device, positionId: 0, geofenceId: 0, maintenanceId: 0, attributes: '{}' })
      .returning('id')
      .executeTakeFirstOrThrow();
    foreign.event = Number(event.id);

    const user = await makeUser(server, 'ex-user@test');
    callers.push({ role: 'user', client: user.client, own: await ownObjects(user.client, user.row.id) });
    const manager = await makeUser(server, 'ex-manager@test', { userLimit: 5 });
    const managed = await makeUser(server, 'ex-managed@test');
    await link(server, 'userUser', manager.row.id, managed.row.id);
    callers.push({ role: 'manager', client: manager.client, own: await ownObjects(manager.client, manager.row.id) });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('covers every /api route of the app: a row per route with an id, or listed as taking none', () => {
    const routes = apiRoutes(server.rastro.app.printRoutes({ commonPrefix: false }));
    expect(routes.length).toBeGreaterThan(30);
    const covered = new Set(ROWS.map((r) => r.route.split(/[?{ ]/).slice(0, 2).join(' ').replace(/\?.*$/, '')));
    expect(routes.filter((r) => !covered.has(r) && !NO_ID.has(r))).toEqual([]);
  });

  it('the fixture ids exist and the missing one does not', async () => {
    for (const [kind, id] of Object.entries(foreign)) expect(id, kind).toBeLessThan(MISSING);
    const db = server.rastro.ctx.storage.db;
    expect(await db.selectFrom('devices').select('id').where('id', '=', MISSING).executeTakeFirst()).toBeUndefined();
  });

  for (const role of ['user', 'manager']) {
    it.each(ROWS.map((r) => [r.route, r] as const))(`as ${role}: %s`, async (_name, row) => {
      const caller = callers.find((c) => c.role === role)!;
      const theirs = masked(await row.call(caller.client, caller.own, foreign[row.kind]), foreign[row.kind], row.statusOnly);
      const none = masked(await row.call(caller.client, caller.own, MISSING), MISSING, row.statusOnly);
      expect(none, `${row.route}: not theirs ${JSON.stringify(theirs)} / missing ${JSON.stringify(none)}`).toEqual(theirs);
      // Neither answer may be a server error.
      expect(theirs.status).toBeLessThan(500);
    });
  }

  it('an administrator still tells a missing object from an existing one', async () => {
    expect((await admin.get(`/api/events/${MISSING}`)).status).toBe(404);
    expect((await admin.get(`/api/events/${foreign.event}`)).status).toBe(200);
  });
});
