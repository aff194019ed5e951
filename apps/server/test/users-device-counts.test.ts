// GET /tarkan/users/device-counts over real HTTP: each user's count is what its deviceLimit
// counts (direct links, groups three levels deep, a manager's tree; deleted devices left out),
// and each caller gets the users it manages only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Group, User } from '@rastro/domain/entities';
import { countVisibleDevices } from '../src/access/visibility.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';

const PATH = '/tarkan/users/device-counts';

describe.each(backends)('users device counts (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  const ids: Record<string, number> = {};

  async function ok<T>(res: Promise<{ status: number; text: string; json: T }>): Promise<T> {
    const r = await res;
    expect(r.status, r.text).toBeLessThan(300);
    return r.json;
  }
  const user = async (key: string, fields: Record<string, unknown> = {}) => {
    ids[key] = (await ok(admin.post<User>('/api/users', { name: `User ${key}`, email: `${key}@example.com`, password: 'secret1', ...fields }))).id;
  };
  const device = async (key: string, fields: Record<string, unknown> = {}) => {
    ids[key] = (await ok(admin.post<Device>('/api/devices', { name: `Device ${key}`, uniqueId: `uid-${key}`, ...fields }))).id;
  };
  const group = async (key: string, parent?: string) => {
    ids[key] = (await ok(admin.post<Group>('/api/groups', { name: `Group ${key}`, groupId: parent ? ids[parent] : 0 }))).id;
  };
  const link = (body: Record<string, number>) => ok(admin.post('/api/permissions', body));
  async function as(key: string): Promise<TestClient> {
    const c = server.client();
    await c.login(`${key}@example.com`, 'secret1');
    return c;
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    // reseller ─┬─ sub (manager) ── customerB
    //           └─ customerA
    // other (a customer of nobody's tree)
    await user('reseller', { userLimit: 10 });
    await user('sub', { userLimit: 5 });
    await user('customerA');
    await user('customerB');
    await user('other');
    await user('plain');
    await link({ userId: ids.reseller!, managedUserId: ids.sub! });
    await link({ userId: ids.reseller!, managedUserId: ids.customerA! });
    await link({ userId: ids.sub!, managedUserId: ids.customerB! });

    await group('top');
    await group('child', 'top');
    await group('grandchild', 'child');
    await device('d1');
    await device('d2', { groupId: ids.top });
    await device('d3', { groupId: ids.child });
    await device('d4', { groupId: ids.grandchild });
    await device('d5');
    await device('d6');
    await device('gone');
    // Safe-mode deletion renames the identifier: such a device counts for nobody.
    await server.rastro.ctx.storage.db.updateTable('devices').set({ uniqueId: 'deleted-uid-gone-1700000000' }).where('id', '=', ids.gone!).execute();

    await link({ userId: ids.customerA!, deviceId: ids.d1! });
    await link({ userId: ids.customerA!, deviceId: ids.gone! });
    await link({ userId: ids.customerB!, groupId: ids.top! });
    // Linked twice in the reseller's tree (to itself and to customerA): counted once.
    await link({ userId: ids.reseller!, deviceId: ids.d1! });
    await link({ userId: ids.reseller!, deviceId: ids.d5! });
    await link({ userId: ids.other!, deviceId: ids.d6! });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('counts direct links, groups three levels deep and a manager\'s tree, as the device limit does', async () => {
    const counts = await ok(admin.get<Record<string, number>>(PATH));
    const expected: Record<string, number> = {
      customerA: 1, // d1 (the deleted one is left out)
      customerB: 3, // d2, d3, d4 through the group and its descendants
      sub: 3, // customerB's
      reseller: 5, // d1, d5, and sub's tree: d2, d3, d4
      other: 1,
    };
    for (const [key, n] of Object.entries(expected)) expect(counts[String(ids[key])], key).toBe(n);
    // Users without devices are left out (0), the administrator included (no links).
    expect(counts[String(ids.plain)]).toBeUndefined();
    // The same figure the device limit checks, user by user.
    for (const key of Object.keys(expected)) {
      expect(await countVisibleDevices(server.rastro.ctx.storage.db, ids[key]!), key).toBe(counts[String(ids[key])]);
    }
  });

  it('gives a manager itself and its whole tree, nobody else', async () => {
    const reseller = await as('reseller');
    const counts = await ok(reseller.get<Record<string, number>>(PATH));
    expect(counts).toEqual({ [ids.reseller!]: 5, [ids.customerA!]: 1, [ids.sub!]: 3, [ids.customerB!]: 3 });
    const sub = await as('sub');
    expect(await ok(sub.get<Record<string, number>>(PATH))).toEqual({ [ids.sub!]: 3, [ids.customerB!]: 3 });
  });

  it('follows links as they change', async () => {
    await ok(admin.delete('/api/permissions', { userId: ids.customerB!, groupId: ids.top! }));
    await link({ userId: ids.customerB!, deviceId: ids.d3! });
    const sub = await as('sub');
    expect(await ok(sub.get<Record<string, number>>(PATH))).toEqual({ [ids.sub!]: 1, [ids.customerB!]: 1 });
    await ok(admin.delete('/api/permissions', { userId: ids.customerB!, deviceId: ids.d3! }));
    await link({ userId: ids.customerB!, groupId: ids.top! });
  });

  it('refuses people who manage no users, and callers without a session', async () => {
    const customer = await as('customerA');
    const res = await customer.get(PATH);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^Manager access required/);
    const anonymous = await server.client().get(PATH);
    expect(anonymous.status).toBe(401);
  });

  it('refuses a manager whose users area is off under advanced permissions', async () => {
    const current = (await admin.get<{ attributes: Record<string, unknown> }>('/api/server')).json;
    await ok(admin.put('/api/server', { ...current, attributes: { ...current.attributes, 'tarkan.enableAdvancedPerms': true } }));
    const before = (await admin.get<User>(`/api/users/${ids.sub}`)).json;
    // Devices area only (bit 8): the users area (bit 16) is off.
    await ok(admin.put(`/api/users/${ids.sub}`, { ...before, attributes: { ...before.attributes, 'tarkan.advancedPerms': '00800000000000000000000000000000' } }));
    const sub = await as('sub');
    const refused = await sub.get(PATH);
    expect(refused.status).toBe(400);
    // With the users area on again it answers.
    await ok(admin.put(`/api/users/${ids.sub}`, { ...before, attributes: { ...before.attributes, 'tarkan.advancedPerms': '00808000000000000000000000000000' } }));
    expect((await sub.get(PATH)).status).toBe(200);
    await ok(admin.put('/api/server', current));
  });
});
