// Spec §6 advanced permission bits enforced on the API (access/advanced-perms.ts): for every
// gated route, a user missing any one of the bits it needs is refused with a text naming it,
// and the same request with exactly those bits gets past the gate (the route then answers as
// it would for anyone). Ids that exist nowhere keep the passing cases free of side effects on
// writes and deletes: the gate runs before the route looks for the object.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, User } from '@rastro/domain/entities';
import { encodeAdvancedPerms, PERMISSION_BITS as B } from '@rastro/domain/permissions';
import type { Database } from '../src/storage/schema.ts';
import { ADVANCED_PERMISSION_ROUTES, reportBits } from '../src/access/advanced-perms.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { create, makeUser, setServer, type TestUser } from './visibility-fixtures.ts';

const perms = (bits: readonly number[]) => encodeAdvancedPerms(Array.from({ length: 128 }, (_, i) => bits.includes(i)));
const REFUSAL = /^(Write access denied|Access denied) - your permissions /;
const NONE = 987_654;

interface Case {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
  bits: number[];
}

describe.each(backends)('advanced permissions on the API (%s)', (backend) => {
  let server: TestServer;
  let db: Kysely<Database>;
  let admin: TestClient;
  let user: TestUser;
  let device: Device;
  let lockCommand: { id: number };
  let relayCommand: { id: number };
  let uniq = 0;

  const setBits = async (bits: readonly number[] | null) => {
    const attributes = bits === null ? {} : { 'tarkan.advancedPerms': perms(bits) };
    await db.updateTable('users').set({ attributes: JSON.stringify(attributes) }).where('id', '=', user.row.id).execute();
  };
  const send = (c: Case) => {
    // Creates get a fresh unique id each time, so a passing case never collides with the last one.
    const body = typeof c.body === 'function' ? (c.body as () => unknown)() : c.body;
    return user.client.request(c.method, c.path, body);
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    db = server.rastro.ctx.storage.db;
    admin = await server.admin();
    user = await makeUser(server, 'bits@test', { userLimit: 5, deviceLimit: -1 });
    device = await create<Device>(admin, '/api/devices', { name: 'Bits car', uniqueId: 'bits-car' });
    lockCommand = await create(admin, '/api/commands', { description: 'Lock', type: 'engineStop', attributes: {} });
    relayCommand = await create(admin, '/api/commands', { description: 'Relay', type: 'custom', attributes: { data: 'RELAY,1#', 'tarkan.changeNative': 'engineResume' } });
    for (const body of [{ userId: user.row.id, deviceId: device.id }, { userId: user.row.id, commandId: lockCommand.id }, { userId: user.row.id, commandId: relayCommand.id }]) {
      expect((await admin.post('/api/permissions', body)).status).toBe(204);
    }
    await setServer(server, { attributes: JSON.stringify({ 'tarkan.enableAdvancedPerms': true }) });
  });
  afterAll(async () => {
    await server?.close();
  });

  const period = 'from=2024-05-01T00:00:00Z&to=2024-05-02T00:00:00Z';
  const crud = (path: string, area: number, createBit: number, edit: number, remove: number): Case[] => [
    { method: 'GET', path, bits: [area] },
    { method: 'GET', path: `${path}/${NONE}`, bits: [area] },
    { method: 'POST', path, body: {}, bits: [area, createBit] },
    { method: 'PUT', path: `${path}/${NONE}`, body: { id: NONE, name: 'x' }, bits: [area, edit] },
    { method: 'DELETE', path: `${path}/${NONE}`, bits: [area, remove] },
  ];
  const cases = (): Case[] => [
    { method: 'POST', path: '/api/devices', body: () => ({ name: 'New', uniqueId: `bits-new-${++uniq}` }), bits: [B.devices, B.devicesCreate] },
    { method: 'PUT', path: `/api/devices/${NONE}`, body: { id: NONE, name: 'x', uniqueId: 'x' }, bits: [B.devices, B.devicesEdit] },
    { method: 'PUT', path: `/api/devices/${NONE}/accumulators`, body: { deviceId: NONE, totalDistance: 1 }, bits: [B.devices, B.devicesEdit] },
    { method: 'DELETE', path: `/api/devices/${NONE}`, bits: [B.devices, B.devicesDelete] },
    { method: 'POST', path: '/api/commands/send', body: { deviceId: device.id, type: 'engineStop' }, bits: [B.devices, B.devicesLock] },
    { method: 'POST', path: '/api/commands/send', body: { deviceId: device.id, type: 'engineResume' }, bits: [B.devices, B.devicesUnlock] },
    { method: 'POST', path: '/api/commands/send', body: { deviceId: device.id, type: 'custom', attributes: { data: 'X' } }, bits: [B.devices, B.devicesCommand] },
    { method: 'POST', path: '/api/commands/send', body: { deviceId: device.id, id: lockCommand.id }, bits: [B.devices, B.devicesLock] },
    // A saved custom command that replaces the native unlock is an unlock.
    { method: 'POST', path: '/api/commands/send', body: { deviceId: device.id, id: relayCommand.id }, bits: [B.devices, B.devicesUnlock] },

    { method: 'GET', path: '/api/users', bits: [B.users] },
    { method: 'GET', path: `/api/users/${NONE}`, bits: [B.users] },
    { method: 'POST', path: '/api/users', body: () => ({ name: 'Made by bits', email: `made${++uniq}@bits.test`, password: 'secret1' }), bits: [B.users, B.usersCreate] },
    { method: 'PUT', path: `/api/users/${NONE}`, body: { id: NONE, name: 'xyz' }, bits: [B.users, B.usersEdit] },
    { method: 'DELETE', path: `/api/users/${NONE}`, bits: [B.users, B.usersDelete] },
    // One's own record: no area bit; its name, e-mail and phone need self-edit (bit 0).
    { method: 'PUT', path: `/api/users/${user.row.id}`, body: () => ({ name: `Renamed ${++uniq}` }), bits: [B.selfEdit] },

    ...crud('/api/geofences', B.geofences, B.geofencesCreate, B.geofencesEdit, B.geofencesDelete),
    ...crud('/api/groups', B.groups, B.groupsCreate, B.groupsEdit, B.groupsDelete),
    ...crud('/api/notifications', B.notifications, B.notificationsCreate, B.notificationsEdit, B.notificationsDelete),
    ...crud('/api/commands', B.commands, B.commandsCreate, B.commandsEdit, B.commandsDelete),
    ...crud('/api/attributes/computed', B.computedAttributes, B.computedAttributesCreate, B.computedAttributesEdit, B.computedAttributesDelete),
    ...crud('/api/drivers', B.drivers, B.driversCreate, B.driversEdit, B.driversDelete),
    ...crud('/api/calendars', B.calendars, B.calendarsCreate, B.calendarsEdit, B.calendarsDelete),
    ...crud('/api/maintenance', B.maintenance, B.maintenanceCreate, B.maintenanceEdit, B.maintenanceDelete),

    { method: 'GET', path: `/api/reports/route?deviceId=${device.id}&${period}`, bits: [B.reports, B.reportsRoute] },
    { method: 'GET', path: `/api/reports/route/xlsx?deviceId=${device.id}&${period}`, bits: [B.reports, B.reportsRoute] },
    { method: 'GET', path: `/api/reports/stops?deviceId=${device.id}&${period}`, bits: [B.reports, B.reportsStops] },
    { method: 'GET', path: `/api/reports/trips?deviceId=${device.id}&${period}`, bits: [B.reports, B.reportsTrips] },
    { method: 'GET', path: `/api/reports/events?deviceId=${device.id}&${period}`, bits: [B.reports, B.reportsEvents] },
    { method: 'GET', path: `/api/reports/summary?deviceId=${device.id}&${period}`, bits: [B.reports] },
    { method: 'GET', path: `/api/positions?deviceId=${device.id}&${period}`, bits: [B.reports, B.reportsRoute] },

    // Links: the area of what is linked, and editing users when it is linked to a user.
    { method: 'POST', path: '/api/permissions', body: { userId: user.row.id, deviceId: NONE }, bits: [B.devices, B.users, B.usersEdit] },
    { method: 'DELETE', path: '/api/permissions', body: { userId: user.row.id, geofenceId: NONE }, bits: [B.geofences, B.users, B.usersEdit] },
    { method: 'POST', path: '/api/permissions', body: { deviceId: device.id, geofenceId: NONE }, bits: [B.geofences] },
    { method: 'POST', path: '/api/permissions', body: { groupId: NONE, notificationId: NONE }, bits: [B.notifications] },
    { method: 'POST', path: '/api/permissions/bulk', body: [{ userId: user.row.id, managedUserId: NONE }], bits: [B.users, B.users, B.usersEdit] },
    { method: 'DELETE', path: '/api/permissions/bulk', body: [{ deviceId: device.id, driverId: NONE }], bits: [B.drivers] },
  ];

  it('refuses each route to a user missing any one of its bits, and lets it through with them', async () => {
    for (const c of cases()) {
      const label = `${c.method} ${c.path}`;
      for (const missing of new Set(c.bits)) {
        await setBits(c.bits.filter((b) => b !== missing));
        const res = await send(c);
        expect(res.status, `${label} without bit ${missing}`).toBe(400);
        expect(res.text, `${label} without bit ${missing}`).toMatch(REFUSAL);
      }
      await setBits(c.bits);
      const res = await send(c);
      expect(res.text, `${label} with bits ${c.bits.join(',')}`).not.toMatch(REFUSAL);
    }
  });

  it('lets a user with the bits actually do the thing', async () => {
    await setBits([B.geofences, B.geofencesCreate, B.devices, B.devicesCreate]);
    expect((await user.client.get('/api/geofences')).status).toBe(200);
    expect((await user.client.post('/api/geofences', { name: 'Yard', area: 'CIRCLE (-23.5 -46.6, 100)' })).status).toBe(200);
    expect((await user.client.post('/api/devices', { name: 'Mine', uniqueId: 'bits-mine' })).status).toBe(200);
    // The users area is off: the list is refused, with a text naming the area.
    const users = await user.client.get('/api/users');
    expect(users.status).toBe(400);
    expect(users.text).toBe('Access denied - your permissions do not include users');
  });

  it('never gates reading devices, one\'s own record or what has no bit', async () => {
    await setBits([]);
    expect((await user.client.get<Device[]>('/api/devices')).json.map((d) => d.id)).toContain(device.id);
    expect((await user.client.get(`/api/devices/${device.id}`)).status).toBe(200);
    expect((await user.client.get(`/api/positions`)).status).toBe(200);
    expect((await user.client.get<User>(`/api/users/${user.row.id}`)).status).toBe(200);
    expect((await user.client.put(`/api/users/${user.row.id}`, { zoom: 5 })).status).toBe(200);
    expect((await user.client.get('/api/server')).status).toBe(200);
  });

  it('applies only when the licence is plus, the server switch is on and the user has bits', async () => {
    // A user without bits passes every check (spec §6, step "without advanced perms").
    await setBits(null);
    expect((await user.client.get('/api/users')).status).toBe(200);
    expect((await user.client.get('/api/geofences')).status).toBe(200);
    // A shared user without bits is refused.
    await db.updateTable('users').set({ attributes: JSON.stringify({ isShared: user.row.id }) }).where('id', '=', user.row.id).execute();
    expect((await user.client.get('/api/geofences')).text).toMatch(REFUSAL);
    // The server switch off: bits stop mattering.
    await setBits([]);
    await setServer(server, { attributes: '{}' });
    try {
      expect((await user.client.get('/api/geofences')).status).toBe(200);
    } finally {
      await setServer(server, { attributes: JSON.stringify({ 'tarkan.enableAdvancedPerms': true }) });
    }
    // Administrators always pass.
    expect((await admin.get('/api/users')).status).toBe(200);
  });

  it('lets QR drivers through nothing gated, even without the plus licence', async () => {
    const basic = await startTestServer(backend, { RASTRO_LICENSE: 'basic' });
    try {
      const driver = await makeUser(basic, 'qr@test', { attributes: JSON.stringify({ 'tarkan.isQrDriverId': 'D1' }) });
      const plain = await makeUser(basic, 'plain@test', { attributes: JSON.stringify({ 'tarkan.advancedPerms': perms([]) }) });
      expect((await driver.client.get('/api/geofences')).text).toMatch(REFUSAL);
      expect((await driver.client.get('/api/devices')).status).toBe(200);
      // Without plus everyone else passes, bits or not.
      expect((await plain.client.get('/api/geofences')).status).toBe(200);
    } finally {
      await basic.close();
    }
  });

  it('has a rule for every route it names, and reports gate by kind', () => {
    const registered = new Set<string>();
    for (const key of Object.keys(ADVANCED_PERMISSION_ROUTES)) {
      const [method, url] = key.split(' ') as [string, string];
      if (server.rastro.app.hasRoute({ method: method as 'GET', url })) registered.add(key);
    }
    // Every gated route exists: a renamed route cannot silently lose its gate.
    expect([...Object.keys(ADVANCED_PERMISSION_ROUTES)].filter((k) => !registered.has(k))).toEqual([]);
    expect(reportBits('/api/reports/trips/xlsx')).toEqual([B.reports, B.reportsTrips]);
    expect(reportBits('/api/reports/combined')).toEqual([B.reports]);
    expect(reportBits('/api/devices')).toBeNull();
  });
});
