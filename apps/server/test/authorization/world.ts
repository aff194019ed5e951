// The fixture world of the authorization suite, built through the API as the administrator the
// way a real installation grows: a second administrator, a reseller R with a sub-reseller S, S's
// customer C with its staff (a readonly operator, a QR driver, a plain employee), R's customers
// with restricted accounts, a disabled and an expired account under S, a customer U nobody else
// manages, and a share visitor of C's first vehicle. Each owner gets devices, a group and one of
// every other object (geofences, calendars, notifications, drivers, maintenance, computed
// attributes, saved commands), linked through /api/permissions like the related-objects
// dialog does. Every device reports a short track through the real OsmAnd port (so routes,
// summaries, trips, stops and events have data) and gets one stored alarm.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADMIN_PASSWORD, type TestClient, type TestServer } from '../harness.ts';
import { osmand } from '../ingest-helpers.ts';
import type { Role, SignedInRole } from './roles.ts';

/** Everyone with an account in the world: the roles, plus C's employee (a target, never a caller). */
export type Person = SignedInRole | 'staff';

export const DEVICE_KEYS = [
  'admin', 'reseller', 'subReseller', 'customer1', 'customer2', 'unrelated', 'deviceReadonly', 'limitCommands', 'disabled', 'expired',
] as const;
export type DeviceKey = (typeof DEVICE_KEYS)[number];

/** Owners of the objects every kind has one of. */
export interface Owned {
  reseller: number;
  customer: number;
  unrelated: number;
}

export const ENTITY_KINDS = ['geofence', 'calendar', 'notification', 'maintenance', 'driver', 'computed', 'command'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

export interface World {
  user: Record<Person, number>;
  /** What each account was created with (rows that change a user put these back). */
  name: Record<Person, string>;
  attributes: Record<Person, Record<string, unknown>>;
  userLimit: Record<Person, number>;
  device: Record<DeviceKey, number>;
  group: Owned;
  entity: Record<EntityKind, Owned> & { command: Owned & { limitCommands: number } };
  /** The latest position and the stored alarm of C's first vehicle. */
  position: { customer1: number };
  event: { customer1: number };
  /** A period around every track (ISO, for reports and history). */
  period: { from: string; to: string };
  /** Everything of each kind the fixture made (what an administrator's all=true lists). */
  all: { user: number[]; device: number[]; group: number[] } & Record<EntityKind, number[]>;
}

export interface Credentials {
  cookie?: string;
  authorization?: string;
}

export interface Fixture {
  world: World;
  /** What each role sends: a cookie session, an API token (disabled) or nothing (anonymous). */
  credentials: Record<Role, Credentials>;
  login: Record<SignedInRole, { email: string; password: string }>;
  /** A web root with known files, so the static routes are the same on every machine. */
  webRoot: string;
}

export const PASSWORD = 'authz-pass';
const T0 = Date.parse('2024-05-06T12:00:00Z');
const MIN = 60_000;

const emailOf = (p: Person) => `${p.toLowerCase()}@authz.test`;

/** Makes the web root the server is started with (RASTRO_WEB_ROOT). */
export function makeWebRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-authz-web-'));
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Rastro</title>');
  fs.writeFileSync(path.join(root, 'assets', 'app.js'), 'console.log("rastro")');
  return root;
}

async function must<T>(res: Promise<{ status: number; text: string; json: T }>, what: string, status = 200): Promise<T> {
  const r = await res;
  if (r.status !== status) throw new Error(`fixture: ${what} answered ${r.status} ${r.text}`);
  return r.json;
}

/** A short day of a vehicle: parked 6 min, 10 min driving north at 12 m/s, parked 10 min. */
function track(): Array<{ t: number; lat: number; speed: number }> {
  const points: Array<{ t: number; lat: number; speed: number }> = [];
  let lat = -23.55;
  let t = T0;
  const step = (speedKnots: number, metres: number) => {
    t += MIN;
    lat += metres / 111_320;
    points.push({ t, lat, speed: speedKnots });
  };
  points.push({ t, lat, speed: 0 });
  for (let i = 0; i < 6; i++) step(0, 0);
  for (let i = 0; i < 10; i++) step(12 / 0.514444, 720);
  for (let i = 0; i < 10; i++) step(0, 0);
  return points;
}

export async function buildWorld(server: TestServer, admin: TestClient, webRoot: string): Promise<Fixture> {
  const create = <T extends { id: number }>(p: string, body: unknown) => must<T>(admin.post<T>(p, body), `POST ${p}`);
  const link = (body: Record<string, number>) => must(admin.post('/api/permissions', body), `link ${JSON.stringify(body)}`, 204);
  const user: Partial<Record<Person, number>> = { admin: 1 };
  const name: Partial<Record<Person, string>> = { admin: 'Administrator' };
  const attributes: Partial<Record<Person, Record<string, unknown>>> = { admin: {} };
  const userLimit: Partial<Record<Person, number>> = { admin: -1 };

  const makeUser = async (p: Person, fields: Record<string, unknown> = {}) => {
    const attrs = (fields.attributes as Record<string, unknown> | undefined) ?? {};
    const created = await create<{ id: number }>('/api/users', {
      name: `Authz ${p}`, email: emailOf(p), password: PASSWORD, deviceLimit: -1, userLimit: 0, ...fields, attributes: attrs,
    });
    user[p] = created.id;
    name[p] = `Authz ${p}`;
    attributes[p] = attrs;
    userLimit[p] = Number(fields.userLimit ?? 0);
    return created.id;
  };

  // The second administrator first, so it is user 2 (the first is its superior).
  await makeUser('admin2', { administrator: true, userLimit: -1 });
  await makeUser('reseller', { userLimit: -1, attributes: { 'tarkan.reseller': true, 'tarkan.subReseller': true } });
  await makeUser('subReseller', { userLimit: -1, attributes: { 'tarkan.reseller': true } });
  await makeUser('customer', { userLimit: 5 });
  await makeUser('staff');
  await makeUser('unrelated');
  await makeUser('readonly', { readonly: true });
  await makeUser('deviceReadonly', { deviceReadonly: true });
  await makeUser('limitCommands', { limitCommands: true });
  await makeUser('disabled');
  await makeUser('expired');
  // As the QR-driver feature creates them (tarkan-reference §7.3): every restriction on.
  await makeUser('driver', { readonly: true, deviceReadonly: true, limitCommands: true, attributes: { 'tarkan.isQrDriverId': 'qr-0001' } });

  const u = user as Record<Exclude<Person, 'shared'>, number>;
  // The trees: R → S → C → {staff, readonly, driver}; R → {deviceReadonly, limitCommands}; S → {disabled, expired}.
  for (const [manager, managed] of [
    ['reseller', 'subReseller'], ['subReseller', 'customer'], ['customer', 'staff'], ['customer', 'readonly'], ['customer', 'driver'],
    ['reseller', 'deviceReadonly'], ['reseller', 'limitCommands'], ['subReseller', 'disabled'], ['subReseller', 'expired'],
  ] as const) {
    await link({ userId: u[manager], managedUserId: u[managed] });
  }

  const group: Owned = {
    reseller: (await create<{ id: number }>('/api/groups', { name: 'Authz R fleet' })).id,
    customer: (await create<{ id: number }>('/api/groups', { name: 'Authz C fleet' })).id,
    unrelated: (await create<{ id: number }>('/api/groups', { name: 'Authz U fleet' })).id,
  };
  await link({ userId: u.reseller, groupId: group.reseller });
  await link({ userId: u.customer, groupId: group.customer });
  await link({ userId: u.unrelated, groupId: group.unrelated });

  const device = {} as Record<DeviceKey, number>;
  const uniqueIds = {} as Record<DeviceKey, string>;
  for (const key of DEVICE_KEYS) {
    const groupId = key === 'customer2' ? group.customer : key === 'unrelated' ? group.unrelated : undefined;
    uniqueIds[key] = `authz-${key}`;
    device[key] = (await create<{ id: number }>('/api/devices', { name: `Authz ${key}`, uniqueId: uniqueIds[key], ...(groupId ? { groupId } : {}) })).id;
  }
  // C reaches its second vehicle only through its group; U both directly and through its group.
  const deviceOwners: Array<[Exclude<Person, 'shared'>, DeviceKey]> = [
    ['reseller', 'reseller'], ['subReseller', 'subReseller'], ['customer', 'customer1'], ['unrelated', 'unrelated'],
    ['readonly', 'customer1'], ['driver', 'customer2'], ['deviceReadonly', 'deviceReadonly'], ['limitCommands', 'limitCommands'],
    ['disabled', 'disabled'], ['expired', 'expired'],
  ];
  for (const [owner, key] of deviceOwners) await link({ userId: u[owner], deviceId: device[key] });

  // The share visitor as the share feature makes it (tarkan-reference §7.4): bound to one
  // vehicle, expiring, no device edits, only saved commands; nobody manages it.
  await makeUser('shared', {
    deviceReadonly: true, limitCommands: true, expirationTime: new Date(Date.now() + 365 * 86_400_000).toISOString(),
    attributes: { isShared: u.customer, deviceId: device.customer1 },
  });
  await link({ userId: user.shared!, deviceId: device.customer1 });

  // One object of every kind for R, C and U, linked to its owner (C's geofence also to its
  // readonly operator, and to its first vehicle; C's saved command to that vehicle too).
  const ics = Buffer.from('BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nDTSTART:20240301T000000Z\nDTEND:20240302T000000Z\nRRULE:FREQ=DAILY;COUNT=1\nEND:VEVENT\nEND:VCALENDAR\n').toString('base64');
  let serial = 0;
  const bodies: Record<EntityKind, () => Record<string, unknown>> = {
    geofence: () => ({ name: `Authz area ${++serial}`, area: 'CIRCLE (-23.55 -46.63, 300)' }),
    calendar: () => ({ name: `Authz calendar ${++serial}`, data: ics }),
    notification: () => ({ type: 'deviceOverspeed', notificators: 'web', always: false, description: `Authz notice ${++serial}` }),
    maintenance: () => ({ name: `Authz service ${++serial}`, type: 'totalDistance', start: 0, period: 10_000_000 }),
    driver: () => ({ name: `Authz driver ${++serial}`, uniqueId: `authz-driver-${serial}` }),
    computed: () => ({ description: `Authz computed ${++serial}`, attribute: 'doubled', expression: 'speed * 2', type: 'number' }),
    command: () => ({ description: `Authz command ${++serial}`, type: 'custom', attributes: { data: 'STATUS#' } }),
  };
  const entity = {} as World['entity'];
  for (const kind of ENTITY_KINDS) {
    const made = {} as Owned;
    for (const owner of ['reseller', 'customer', 'unrelated'] as const) {
      made[owner] = (await create<{ id: number }>(ENTITY_PATHS[kind], bodies[kind]())).id;
      await link({ userId: u[owner], [ENTITY_KEYS[kind]]: made[owner] });
    }
    (entity as Record<EntityKind, Owned>)[kind] = made;
  }
  entity.command.limitCommands = (await create<{ id: number }>('/api/commands', bodies.command())).id;
  await link({ userId: u.limitCommands, commandId: entity.command.limitCommands });
  await link({ deviceId: device.limitCommands, commandId: entity.command.limitCommands });
  await link({ deviceId: device.customer1, commandId: entity.command.customer });
  await link({ userId: u.readonly, geofenceId: entity.geofence.customer });
  await link({ deviceId: device.customer1, geofenceId: entity.geofence.customer });

  // Every vehicle reports its track through the real OsmAnd port.
  const points = track();
  for (const key of DEVICE_KEYS) {
    for (const p of points) {
      const res = await osmand(server, `/?id=${uniqueIds[key]}&timestamp=${p.t / 1000}&lat=${p.lat.toFixed(6)}&lon=-46.63&speed=${p.speed.toFixed(2)}`);
      if (res.status !== 200) throw new Error(`fixture: OsmAnd position of ${key} answered ${res.status} ${res.text}`);
    }
  }
  const db = server.rastro.ctx.storage.db;
  const deadline = Date.now() + 30_000;
  for (const key of DEVICE_KEYS) {
    for (;;) {
      const row = await db.selectFrom('devices').select('positionId').where('id', '=', device[key]).executeTakeFirstOrThrow();
      const last = row.positionId === null ? undefined : await db.selectFrom('positions').select('fixTime').where('id', '=', Number(row.positionId)).executeTakeFirst();
      if (last && Number(last.fixTime) === points[points.length - 1]!.t) break;
      if (Date.now() > deadline) throw new Error(`fixture: the track of ${key} was not stored`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const latest = await db.selectFrom('devices').select('positionId').where('id', '=', device.customer1).executeTakeFirstOrThrow();
  // An alarm on each vehicle, as the events engine stores them (no API creates events).
  let customerEvent = 0;
  for (const key of DEVICE_KEYS) {
    const row = await db
      .insertInto('events')
      .values({ type: 'alarm', eventTime: T0 + 3 * MIN, deviceId: device[key], positionId: 0, geofenceId: 0, maintenanceId: 0, attributes: JSON.stringify({ alarm: 'sos' }) })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (key === 'customer1') customerEvent = Number(row.id);
  }

  // Sessions: every role signs in with its password before the disabled and expired accounts
  // are restricted below. The expired one keeps its cookie session; the disabled one presents
  // an API token it made (Bearer: stateless, so every case tries it again, and cheap, unlike
  // Basic's password hashing; Basic is tried once per role by a row of its own).
  const credentials = { anonymous: {} } as Record<Role, Credentials>;
  const login = {} as Fixture['login'];
  for (const role of Object.keys(user) as Person[]) {
    if (role === 'staff') continue;
    const email = role === 'admin' ? 'admin' : emailOf(role);
    const password = role === 'admin' ? ADMIN_PASSWORD : PASSWORD;
    login[role] = { email, password };
    const client = server.client();
    await client.login(email, password);
    if (role === 'disabled') {
      const token = await client.post('/api/session/token', new URLSearchParams({ expiration: new Date(Date.now() + 86_400_000).toISOString() }));
      if (token.status !== 200) throw new Error(`fixture: token of the disabled account answered ${token.status} ${token.text}`);
      credentials.disabled = { authorization: `Bearer ${token.text}` };
    } else credentials[role] = { cookie: client.cookie! };
  }
  await must(admin.put(`/api/users/${user.disabled}`, { id: user.disabled, disabled: true }), 'disable');
  await must(admin.put(`/api/users/${user.expired}`, { id: user.expired, expirationTime: new Date(Date.now() - 86_400_000).toISOString() }), 'expire');

  const all = {
    user: Object.values(user),
    device: Object.values(device),
    group: Object.values(group),
  } as World['all'];
  for (const kind of ENTITY_KINDS) all[kind] = Object.values(entity[kind]);

  const world: World = {
    user: user as Record<Person, number>,
    name: name as Record<Person, string>,
    attributes: attributes as Record<Person, Record<string, unknown>>,
    userLimit: userLimit as Record<Person, number>,
    device,
    group,
    entity,
    position: { customer1: Number(latest.positionId) },
    event: { customer1: customerEvent },
    period: { from: new Date(T0 - 60 * MIN).toISOString(), to: new Date(T0 + 120 * MIN).toISOString() },
    all,
  };
  return { world, credentials, login, webRoot };
}

export const ENTITY_PATHS: Record<EntityKind, string> = {
  geofence: '/api/geofences',
  calendar: '/api/calendars',
  notification: '/api/notifications',
  maintenance: '/api/maintenance',
  driver: '/api/drivers',
  computed: '/api/attributes/computed',
  command: '/api/commands',
};

/** The key naming each kind in /api/permissions bodies. */
export const ENTITY_KEYS: Record<EntityKind, string> = {
  geofence: 'geofenceId',
  calendar: 'calendarId',
  notification: 'notificationId',
  maintenance: 'maintenanceId',
  driver: 'driverId',
  computed: 'attributeId',
  command: 'commandId',
};
