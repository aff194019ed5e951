import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Group } from '@rastro/domain/entities';
import { deriveErrorCode } from '@rastro/domain/errors';
import type { Change } from '../src/realtime/changes.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectArrayOf } from './openapi.ts';
import { create, idsOf, link, makeUser } from './visibility-fixtures.ts';

describe.each(backends)('permissions (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  const changes: Change[] = [];

  const links = async (table: 'userDevice' | 'userGroup' | 'userUser' | 'deviceDevice', ownerId: number) =>
    (await server.rastro.ctx.storage.db.selectFrom(table).select('propertyId').where('ownerId', '=', ownerId).execute())
      .map((r) => Number(r.propertyId))
      .sort((a, b) => a - b);

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    server.rastro.ctx.changes.on((c) => changes.push(c));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('links and unlinks a device to a user; linking twice is harmless', async () => {
    const { row: user, client } = await makeUser(server, 'perm-a@test');
    const d = await create<Device>(admin, '/api/devices', { name: 'P1', uniqueId: 'perm-1' });
    expect((await client.get<Device[]>('/api/devices')).json).toEqual([]);
    changes.length = 0;
    expect((await admin.post('/api/permissions', { userId: user.id, deviceId: d.id })).status).toBe(204);
    expect(changes).toEqual([{ kind: 'permissions' }]);
    expect((await admin.post('/api/permissions', { userId: user.id, deviceId: d.id })).status).toBe(204);
    expect(await links('userDevice', user.id)).toEqual([d.id]);
    expect(idsOf((await client.get<Device[]>('/api/devices')).json)).toEqual([d.id]);
    changes.length = 0;
    expect((await admin.delete('/api/permissions', { userId: user.id, deviceId: d.id })).status).toBe(204);
    expect(changes).toEqual([{ kind: 'permissions' }]);
    expect(await links('userDevice', user.id)).toEqual([]);
    expect((await client.get(`/api/devices/${d.id}`)).status).toBe(400);
  });

  it('links groups, managed users and linked devices', async () => {
    const manager = await makeUser(server, 'perm-mgr@test', { userLimit: 5 });
    const managed = await makeUser(server, 'perm-managed@test');
    const g = await create<Group>(admin, '/api/groups', { name: 'Perm group' });
    const d1 = await create<Device>(admin, '/api/devices', { name: 'P2', uniqueId: 'perm-2', groupId: g.id });
    const d2 = await create<Device>(admin, '/api/devices', { name: 'P3', uniqueId: 'perm-3' });
    expect((await admin.post('/api/permissions', { userId: managed.row.id, groupId: g.id })).status).toBe(204);
    expect(idsOf((await managed.client.get<Device[]>('/api/devices')).json)).toEqual([d1.id]);
    expect((await admin.post('/api/permissions', { userId: manager.row.id, managedUserId: managed.row.id })).status).toBe(204);
    expect(await links('userUser', manager.row.id)).toEqual([managed.row.id]);
    expect((await admin.post('/api/permissions', { deviceId: d1.id, linkedDeviceId: d2.id })).status).toBe(204);
    expect(idsOf((await admin.get<Device[]>(`/api/devices?deviceId=${d1.id}`)).json)).toEqual([d2.id]);
    // A link to a missing object is refused with a message, not a database error.
    const missing = await admin.post('/api/permissions', { userId: managed.row.id, deviceId: 987654 });
    expect(missing.status).toBe(400);
    expect(missing.text).toMatch(/^Device not found/);
  });

  it('refuses malformed bodies and unknown key pairs', async () => {
    const cases: unknown[] = [
      { userId: 1 },
      { userId: 1, deviceId: 2, groupId: 3 },
      { deviceId: 2, userId: 1 }, // the first key is the owner: device×user is no link kind
      { geofenceId: 2, deviceId: 1 }, // geofences are linked to devices, not the other way round
      { userId: 'abc', deviceId: 2 },
      { userId: 0, deviceId: 2 },
      { userId: 1, managedUserId: 1 },
      [],
      '"text"',
    ];
    for (const body of cases) {
      const res = await admin.post('/api/permissions', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.text, JSON.stringify(body)).toMatch(/^Invalid permission/);
    }
  });

  it('links and unlinks in bulk with one key pair', async () => {
    const { row: user } = await makeUser(server, 'perm-bulk@test');
    const devices = [];
    for (let i = 0; i < 3; i++) devices.push(await create<Device>(admin, '/api/devices', { name: `B${i}`, uniqueId: `perm-bulk-${i}` }));
    const body = devices.map((d) => ({ userId: user.id, deviceId: d.id }));
    changes.length = 0;
    expect((await admin.post('/api/permissions/bulk', body)).status).toBe(204);
    expect(changes).toEqual([{ kind: 'permissions' }]);
    expect(await links('userDevice', user.id)).toEqual(idsOf(devices));
    expect((await admin.delete('/api/permissions/bulk', body.slice(0, 2))).status).toBe(204);
    expect(await links('userDevice', user.id)).toEqual([devices[2]!.id]);
    const mixed = await admin.post('/api/permissions/bulk', [{ userId: user.id, deviceId: devices[0]!.id }, { userId: user.id, groupId: 1 }]);
    expect(mixed.status).toBe(400);
    expect(mixed.text).toMatch(/same two keys/);
    expect((await admin.post('/api/permissions/bulk', [])).status).toBe(400);
    expect((await admin.post('/api/permissions/bulk', { userId: user.id, deviceId: 1 })).status).toBe(400);
    // Nothing of a refused bulk request is applied.
    expect(await links('userDevice', user.id)).toEqual([devices[2]!.id]);
  });

  it('lets non-administrators link only what they can reach, and never readonly users', async () => {
    const manager = await makeUser(server, 'perm-m2@test', { userLimit: 2 });
    const managed = await makeUser(server, 'perm-u2@test');
    const stranger = await makeUser(server, 'perm-s2@test');
    await link(server, 'userUser', manager.row.id, managed.row.id);
    const own = await create<Device>(manager.client, '/api/devices', { name: 'Mgr own', uniqueId: 'perm-own' });
    const foreign = await create<Device>(admin, '/api/devices', { name: 'Foreign', uniqueId: 'perm-foreign' });

    // Manager gives a device he sees to a user he manages.
    expect((await manager.client.post('/api/permissions', { userId: managed.row.id, deviceId: own.id })).status).toBe(204);
    expect(idsOf((await managed.client.get<Device[]>('/api/devices')).json)).toEqual([own.id]);
    // Not a device he cannot see, not to a user he does not manage.
    const notSeen = await manager.client.post('/api/permissions', { userId: managed.row.id, deviceId: foreign.id });
    expect(notSeen.status).toBe(400);
    expect(notSeen.text).toMatch(/^Device access denied/);
    const notManaged = await manager.client.post('/api/permissions', { userId: stranger.row.id, deviceId: own.id });
    expect(notManaged.status).toBe(400);
    expect(notManaged.text).toMatch(/^User access denied/);
    // A plain user can neither take over other users nor hand out devices to them.
    const takeOver = await managed.client.post('/api/permissions', { userId: managed.row.id, managedUserId: stranger.row.id });
    expect(takeOver.status).toBe(400);
    expect((await managed.client.post('/api/permissions', { userId: stranger.row.id, deviceId: own.id })).status).toBe(400);
    // Unlinking follows the same rules.
    expect((await stranger.client.delete('/api/permissions', { userId: managed.row.id, deviceId: own.id })).status).toBe(400);
    expect((await manager.client.delete('/api/permissions', { userId: managed.row.id, deviceId: own.id })).status).toBe(204);

    const ro = await makeUser(server, 'perm-ro@test', { readonly: 1 });
    await link(server, 'userDevice', ro.row.id, own.id);
    const res = await ro.client.post('/api/permissions', { userId: ro.row.id, deviceId: own.id });
    expect(res.status).toBe(400);
    expect(deriveErrorCode(res.text)).toBe('ACCOUNT_IS_READONLY');
    expect((await ro.client.delete('/api/permissions', { userId: ro.row.id, deviceId: own.id })).status).toBe(400);
    expect(await links('userDevice', ro.row.id)).toEqual([own.id]);
  });

  it('lists links for administrators only, with 0 as a wildcard', async () => {
    const { row: user, client } = await makeUser(server, 'perm-list@test');
    const d1 = await create<Device>(admin, '/api/devices', { name: 'L1', uniqueId: 'perm-l1' });
    const d2 = await create<Device>(admin, '/api/devices', { name: 'L2', uniqueId: 'perm-l2' });
    await link(server, 'userDevice', user.id, d1.id);
    await link(server, 'userDevice', user.id, d2.id);
    const res = await admin.get<Array<Record<string, number>>>(`/api/permissions?userId=${user.id}&deviceId=0`);
    expect(res.status).toBe(200);
    expectArrayOf(res.json, 'Permission');
    expect(res.json).toEqual([{ userId: user.id, deviceId: d1.id }, { userId: user.id, deviceId: d2.id }]);
    expect(Object.keys(res.json[0]!)).toEqual(['userId', 'deviceId']);
    const byDevice = await admin.get<Array<Record<string, number>>>(`/api/permissions?userId=0&deviceId=${d2.id}`);
    // The creating administrator is linked too.
    expect(byDevice.json).toEqual([{ userId: 1, deviceId: d2.id }, { userId: user.id, deviceId: d2.id }]);
    expect((await admin.get('/api/permissions?userId=0&deviceId=0')).status).toBe(400);
    expect((await admin.get('/api/permissions?userId=1')).status).toBe(400);
    expect((await admin.get('/api/permissions?userId=1&fooId=2')).status).toBe(400);
    expect((await client.get(`/api/permissions?userId=${user.id}&deviceId=0`)).status).toBe(400);
  });
});
