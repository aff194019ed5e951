// Resellers and user trees (issue 13, items 4 and 5): a reseller R, its sub-reseller S and
// S's customer C, made through the API the way a reseller's staff would, beside an unrelated
// manager O. Each level sees exactly its tree (users, devices, groups, socket positions),
// limits add up (C's device and S's users count against R), cycles are refused, the closure
// stays the closure of the links whatever happens to them, and nobody raises their own
// privileges or makes a user above themselves.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Group, User } from '@rastro/domain/entities';
import { deriveErrorCode } from '@rastro/domain/errors';
import { encodeAdvancedPerms } from '@rastro/domain/permissions';
import type { Database } from '../src/storage/schema.ts';
import { closureOf } from '../src/storage/migrations/011-user-tree.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { LiveSocket, idsOf, isKey, livePosition } from './socket-client.ts';
import { create, idsOf as sortedIds, setServer } from './visibility-fixtures.ts';

const PASSWORD = 'tree-pass';
const perms = (...bits: number[]) => encodeAdvancedPerms(Array.from({ length: 128 }, (_, i) => bits.includes(i)));

describe.each(backends)('reseller trees (%s)', (backend) => {
  let server: TestServer;
  let db: Kysely<Database>;
  let admin: TestClient;
  const users: Record<string, User> = {};
  const clients: Record<string, TestClient> = {};
  const devices: Record<string, Device> = {};

  async function login(key: string, email: string): Promise<TestClient> {
    const client = server.client();
    await client.login(email, PASSWORD);
    clients[key] = client;
    return client;
  }
  const createUser = (client: TestClient, body: Record<string, unknown>) => create<User>(client, '/api/users', { password: PASSWORD, ...body });
  const userNames = async (client: TestClient) => (await client.get<User[]>('/api/users')).json.map((u) => u.name);
  const deviceIds = (...keys: string[]) => keys.map((k) => devices[k]!.id).sort((a, b) => a - b);
  const treeRows = async () =>
    (await db.selectFrom('userTree').select(['ancestorId', 'descendantId', 'paths']).execute())
      .map((r) => `${Number(r.ancestorId)}>${Number(r.descendantId)}:${Number(r.paths)}`)
      .sort();

  beforeAll(async () => {
    server = await startTestServer(backend);
    db = server.rastro.ctx.storage.db;
    admin = await server.admin();
    users.R = await createUser(admin, {
      name: 'Reseller Rita', email: 'r@tree.test', userLimit: 10, deviceLimit: 3,
      attributes: { 'tarkan.reseller': true, 'tarkan.subReseller': true, 'tarkan.limitReseller': 4, 'tarkan.domainReseller': 'Rita.Example.com' },
    });
    const r = await login('R', 'r@tree.test');
    users.S = await createUser(r, { name: 'Sub Sam', email: 's@tree.test', userLimit: 3, deviceLimit: 3, attributes: { 'tarkan.reseller': true } });
    const s = await login('S', 's@tree.test');
    users.C = await createUser(s, { name: 'Customer Cid', email: 'c@tree.test', deviceLimit: 3 });
    const c = await login('C', 'c@tree.test');
    users.O = await createUser(admin, { name: 'Other Olga', email: 'o@tree.test', userLimit: 5, deviceLimit: -1 });
    const o = await login('O', 'o@tree.test');
    users.OC = await createUser(o, { name: 'Other Customer', email: 'oc@tree.test' });

    devices.dR = await create<Device>(r, '/api/devices', { name: 'R car', uniqueId: 'tree-r' });
    devices.dS = await create<Device>(s, '/api/devices', { name: 'S car', uniqueId: 'tree-s' });
    devices.dC = await create<Device>(c, '/api/devices', { name: 'C car', uniqueId: 'tree-c' });
    devices.dO = await create<Device>(o, '/api/devices', { name: 'O car', uniqueId: 'tree-o' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stores the reseller fields as validated attributes', async () => {
    expect(users.R!.attributes).toEqual({
      'tarkan.reseller': true, 'tarkan.subReseller': true, 'tarkan.limitReseller': 4, 'tarkan.domainReseller': 'rita.example.com',
    });
    const bad = await admin.put(`/api/users/${users.R!.id}`, { ...users.R, attributes: { ...users.R!.attributes, 'tarkan.domainReseller': 'http://x' } });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/^Invalid attributes\.tarkan\.domainReseller - must be a host name/);
    const limit = await admin.put(`/api/users/${users.R!.id}`, { ...users.R, attributes: { ...users.R!.attributes, 'tarkan.limitReseller': '4' } });
    expect(limit.text).toMatch(/^Invalid attributes\.tarkan\.limitReseller - /);
  });

  it('each level sees exactly its tree: users, devices, groups', async () => {
    expect(await userNames(clients.R!)).toEqual(['Customer Cid', 'Sub Sam']);
    expect(await userNames(clients.S!)).toEqual(['Customer Cid']);
    expect(await userNames(clients.C!)).toEqual([]);
    expect(await userNames(clients.O!)).toEqual(['Other Customer']);
    // userId=N stays Traccar's direct links (what the related-objects dialog ticks).
    expect((await clients.R!.get<User[]>(`/api/users?userId=${users.S!.id}`)).json.map((u) => u.id)).toEqual([users.C!.id]);
    expect((await clients.R!.get<User[]>(`/api/users?userId=${users.R!.id}`)).json.map((u) => u.id)).toEqual([users.S!.id]);

    expect(sortedIds((await clients.R!.get<Device[]>('/api/devices')).json)).toEqual(deviceIds('dR', 'dS', 'dC'));
    expect(sortedIds((await clients.S!.get<Device[]>('/api/devices')).json)).toEqual(deviceIds('dS', 'dC'));
    expect(sortedIds((await clients.C!.get<Device[]>('/api/devices')).json)).toEqual(deviceIds('dC'));
    expect(sortedIds((await clients.O!.get<Device[]>('/api/devices')).json)).toEqual(deviceIds('dO'));

    // R manages C two levels down: reads, edits, links; never O's side.
    expect((await clients.R!.get<User>(`/api/users/${users.C!.id}`)).status).toBe(200);
    const renamed = await clients.R!.put<User>(`/api/users/${users.C!.id}`, { ...users.C, name: 'Customer Cid' });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await clients.R!.get(`/api/devices?userId=${users.C!.id}`)).status).toBe(200);
    for (const path of [`/api/users/${users.O!.id}`, `/api/users/${users.OC!.id}`, `/api/devices/${devices.dO!.id}`, `/api/devices?userId=${users.OC!.id}`]) {
      expect((await clients.R!.get(path)).status, path).toBe(400);
    }
    expect((await clients.S!.get(`/api/users/${users.R!.id}`)).status).toBe(400);
    expect((await clients.S!.get(`/api/devices/${devices.dR!.id}`)).status).toBe(400);

    const group = await create<Group>(clients.C!, '/api/groups', { name: 'C fleet' });
    expect((await clients.R!.get<Group[]>('/api/groups')).json.map((g) => g.id)).toContain(group.id);
    expect((await clients.O!.get<Group[]>('/api/groups')).json.map((g) => g.id)).not.toContain(group.id);
  });

  it('sends each level the positions of its tree, and follows link changes', async () => {
    const sockets: Record<string, LiveSocket> = {};
    try {
      for (const key of ['R', 'S', 'C', 'O']) {
        sockets[key] = await LiveSocket.open(server.url, { cookie: clients[key]!.cookie });
        await sockets[key]!.next(isKey('positions'));
      }
      const { visibility } = server.rastro.ctx;
      expect([...(await visibility.usersOfDevice(devices.dC!.id))].sort((a, b) => a - b))
        .toEqual([1, users.R!.id, users.S!.id, users.C!.id].sort((a, b) => a - b));

      server.rastro.ctx.live.publish({ positions: [livePosition(devices.dO!.id), livePosition(devices.dC!.id), livePosition(devices.dR!.id)] });
      expect(idsOf(await sockets.R!.next(isKey('positions')), 'positions')).toEqual([devices.dC!.id, devices.dR!.id]);
      expect(idsOf(await sockets.S!.next(isKey('positions')), 'positions')).toEqual([devices.dC!.id]);
      expect(idsOf(await sockets.C!.next(isKey('positions')), 'positions')).toEqual([devices.dC!.id]);
      expect(idsOf(await sockets.O!.next(isKey('positions')), 'positions')).toEqual([devices.dO!.id]);

      // The administrator takes S (and so C) out of R's tree: R stops hearing C's car at once.
      expect((await admin.delete('/api/permissions', { userId: users.R!.id, managedUserId: users.S!.id })).status).toBe(204);
      await waitFor(async () => !(await visibility.usersOfDevice(devices.dC!.id)).has(users.R!.id));
      await new Promise((resolve) => setTimeout(resolve, 200)); // the hub recomputes audiences after the change
      server.rastro.ctx.live.publish({ positions: [livePosition(devices.dC!.id)] });
      server.rastro.ctx.live.publish({ positions: [livePosition(devices.dR!.id)] });
      // Messages keep their order: if the next one is dR alone, dC never came.
      expect(idsOf(await sockets.R!.next(isKey('positions')), 'positions')).toEqual([devices.dR!.id]);
      expect(await userNames(clients.R!)).toEqual([]);
      expect((await clients.R!.get(`/api/users/${users.C!.id}`)).status).toBe(400);

      // And back.
      expect((await admin.post('/api/permissions', { userId: users.R!.id, managedUserId: users.S!.id })).status).toBe(204);
      await waitFor(async () => (await visibility.usersOfDevice(devices.dC!.id)).has(users.R!.id));
      await new Promise((resolve) => setTimeout(resolve, 200));
      sockets.R!.skipAll();
      server.rastro.ctx.live.publish({ positions: [livePosition(devices.dC!.id)] });
      expect(idsOf(await sockets.R!.next(isKey('positions')), 'positions')).toEqual([devices.dC!.id]);
      expect(await userNames(clients.R!)).toEqual(['Customer Cid', 'Sub Sam']);
    } finally {
      for (const s of Object.values(sockets)) s.close();
    }
  });

  it('adds device limits up the tree: C\'s car counts against R', async () => {
    // R (deviceLimit 3) holds dR, dS, dC: full, though S (2 of 3) and C (1 of 3) have room.
    const refused = await clients.C!.post('/api/devices', { name: 'C second', uniqueId: 'tree-c2' });
    expect(refused.status).toBe(400);
    expect(deriveErrorCode(refused.text)).toBe('USER_DEVICE_LIMIT_REACHED');
    expect((await clients.S!.post('/api/devices', { name: 'S second', uniqueId: 'tree-s2' })).status).toBe(400);
    // The administrator raises R's limit: C may add one more.
    expect((await admin.put(`/api/users/${users.R!.id}`, { ...users.R, deviceLimit: 4 })).status).toBe(200);
    devices.dC2 = await create<Device>(clients.C!, '/api/devices', { name: 'C second', uniqueId: 'tree-c2' });
    expect((await clients.C!.post('/api/devices', { name: 'C third', uniqueId: 'tree-c3' })).status).toBe(400);
  });

  it('adds user limits up the tree: R\'s reseller limit binds S\'s customers, even all at once', async () => {
    // R's tree may hold 4 users (tarkan.limitReseller; its userLimit is 10) and holds S and C.
    // S may hold 3 and holds C. 6 simultaneous creates by S: exactly the 2 places R has left succeed.
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => clients.S!.post<User>('/api/users', { name: `Rush ${i}`, email: `rush${i}@tree.test`, password: PASSWORD })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(2);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.text).toMatch(/^Manager user limit reached - an account above you/);
    expect(await userNames(clients.S!)).toHaveLength(3);
    // R itself has no place left either.
    const own = await clients.R!.post('/api/users', { name: 'One more', email: 'more@tree.test', password: PASSWORD });
    expect(own.text).toMatch(/^Manager user limit reached - you cannot create more users/);
    // Nor can R grow its tree by linking someone from outside (it cannot reach them) or past its limit.
    expect((await clients.R!.post('/api/permissions', { userId: users.R!.id, managedUserId: users.OC!.id })).status).toBe(400);
    const rush = (await clients.S!.get<User[]>('/api/users')).json.find((u) => u.name.startsWith('Rush'))!;
    expect((await clients.R!.delete(`/api/users/${rush.id}`)).status).toBe(204);
    expect((await clients.R!.post('/api/users', { name: 'One more', email: 'more@tree.test', password: PASSWORD })).status).toBe(200);
  });

  it('refuses links that would make a cycle, and the database refuses them too', async () => {
    const cycle = await admin.post('/api/permissions', { userId: users.C!.id, managedUserId: users.R!.id });
    expect(cycle.status).toBe(400);
    expect(cycle.text).toMatch(/^User tree cycle - /);
    const byReseller = await clients.R!.post('/api/permissions', { userId: users.C!.id, managedUserId: users.S!.id });
    expect(byReseller.status).toBe(400);
    expect(byReseller.text).toMatch(/^User tree cycle - /);
    const bulk = await admin.post('/api/permissions/bulk', [{ userId: users.O!.id, managedUserId: users.R!.id }, { userId: users.C!.id, managedUserId: users.O!.id }]);
    expect(bulk.status).toBe(400);
    // The bulk request was one transaction: its first link is gone with the refusal.
    expect(await db.selectFrom('userUser').select('ownerId').where('ownerId', '=', users.O!.id).where('propertyId', '=', users.R!.id).execute()).toEqual([]);
    await expect(db.insertInto('userUser').values({ ownerId: users.C!.id, propertyId: users.R!.id }).execute()).rejects.toThrow(/User tree cycle/);
    await expect(db.insertInto('userUser').values({ ownerId: users.C!.id, propertyId: users.C!.id }).execute()).rejects.toThrow(/User tree cycle/);
  });

  it('keeps the tree the closure of the links through any sequence of links, unlinks and deletions', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) ids.push((await createUser(admin, { name: `Graph ${i}`, email: `graph${i}@tree.test` })).id);
    let seed = 12345;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let step = 0; step < 80; step++) {
      const owner = ids[random(ids.length)]!;
      const property = ids[random(ids.length)]!;
      const exists = await db.selectFrom('userUser').select('ownerId').where('ownerId', '=', owner).where('propertyId', '=', property).executeTakeFirst();
      if (exists) await db.deleteFrom('userUser').where('ownerId', '=', owner).where('propertyId', '=', property).execute();
      else await db.insertInto('userUser').values({ ownerId: owner, propertyId: property }).execute().catch(() => undefined); // cycles are refused
      if (step === 60) {
        // A user in the middle goes: its links cascade, the closure follows.
        const gone = ids.splice(random(ids.length), 1)[0]!;
        await db.deleteFrom('users').where('id', '=', gone).execute();
      }
    }
    const links = (await db.selectFrom('userUser').select(['ownerId', 'propertyId']).execute()).map((l) => ({ ownerId: Number(l.ownerId), propertyId: Number(l.propertyId) }));
    const expected = closureOf(links).map((r) => `${r.ancestorId}>${r.descendantId}:${r.paths}`).sort();
    expect(await treeRows()).toEqual(expected);
    // The walk did build a graph among these users (not only the fixture's links).
    expect(expected.filter((row) => ids.some((id) => row.startsWith(`${id}>`))).length).toBeGreaterThan(3);
  });

  it('never lets anyone but an administrator raise their own privileges', async () => {
    const me = (await clients.R!.get<User>(`/api/users/${users.R!.id}`)).json;
    const changes: Array<Record<string, unknown>> = [
      { administrator: true }, { deviceLimit: 100 }, { userLimit: 100 }, { readonly: true }, { deviceReadonly: true }, { limitCommands: true },
      { expirationTime: '2099-01-01T00:00:00Z' }, { disabled: true },
      { attributes: { ...me.attributes, 'tarkan.advancedPerms': perms(8, 16) } },
      { attributes: { ...me.attributes, 'tarkan.reseller': false } },
      { attributes: { ...me.attributes, 'tarkan.subReseller': false } },
      { attributes: { ...me.attributes, 'tarkan.limitReseller': 100 } },
      { attributes: { ...me.attributes, 'tarkan.domainReseller': 'mine.example.com' } },
      // Billing terms are set by whoever bills this user, never by the user.
      { attributes: { ...me.attributes, 'tarkan.billingPrice': 1 } },
      { attributes: { ...me.attributes, 'tarkan.billingTrustUnlock': 1 } },
      { attributes: { ...me.attributes, 'tarkan.enableBilling': false } },
    ];
    for (const change of changes) {
      const res = await clients.R!.put(`/api/users/${me.id}`, { ...me, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(deriveErrorCode(res.text), JSON.stringify(change)).toBe('ADMINISTRATOR_ACCESS_REQUIRED');
    }
    expect((await clients.R!.get<User>(`/api/users/${me.id}`)).json).toEqual(me);
    // What is theirs to change still is.
    expect((await clients.R!.put<User>(`/api/users/${me.id}`, { ...me, zoom: 7, attributes: { ...me.attributes, color: 'blue' } })).status).toBe(200);
  });

  it('never lets a manager make a user above itself', async () => {
    const s = clients.S!;
    const c = (await s.get<User>(`/api/users/${users.C!.id}`)).json;
    const refused = async (path: string, body: unknown, code: string, method: 'post' | 'put' = 'put') => {
      const res = await s[method](path, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(deriveErrorCode(res.text), res.text).toBe(code);
    };
    await refused(`/api/users/${c.id}`, { ...c, administrator: true }, 'ADMINISTRATOR_ACCESS_REQUIRED');
    // S is a reseller, but not allowed sub-resellers.
    await refused(`/api/users/${c.id}`, { ...c, attributes: { 'tarkan.reseller': true } }, 'RESELLER_ACCESS_REQUIRED');
    await refused(`/api/users/${c.id}`, { ...c, attributes: { 'tarkan.domainReseller': 'c.example.com' } }, 'RESELLER_ACCESS_REQUIRED');
    // S holds 3 devices of its 3 (dS, dC, dC2): C may keep what it sees, not get more; never unlimited.
    await refused(`/api/users/${c.id}`, { ...c, deviceLimit: 5 }, 'LIMIT_ABOVE_YOUR_OWN');
    await refused(`/api/users/${c.id}`, { ...c, deviceLimit: -1 }, 'LIMIT_ABOVE_YOUR_OWN');
    expect((await s.put(`/api/users/${c.id}`, { ...c, deviceLimit: 2 })).status).toBe(200);
    await refused(`/api/users/${c.id}`, { ...c, userLimit: -1 }, 'LIMIT_ABOVE_YOUR_OWN');
    await refused('/api/users', { name: 'Boss', email: 'boss@tree.test', password: PASSWORD, administrator: true }, 'ADMINISTRATOR_ACCESS_REQUIRED', 'post');
    // R may make S's customer a reseller (R is allowed sub-resellers) within what its own
    // reseller limit leaves: its tree is full (4 of 4), so C may hold no users of its own.
    const made = await clients.R!.put<User>(`/api/users/${c.id}`, { ...c, deviceLimit: 2, attributes: { 'tarkan.reseller': true, 'tarkan.limitReseller': 0 } });
    expect(made.status, made.text).toBe(200);
    const tooMany = await clients.R!.put(`/api/users/${c.id}`, { ...made.json, attributes: { 'tarkan.reseller': true, 'tarkan.limitReseller': 1 } });
    expect(deriveErrorCode(tooMany.text)).toBe('LIMIT_ABOVE_YOUR_OWN');
  });

  it('hands out advanced permission bits only among the manager\'s own', async () => {
    await setServer(server, { attributes: JSON.stringify({ 'tarkan.enableAdvancedPerms': true }) });
    // Room in R's tree for one more user.
    const r = (await admin.get<User>(`/api/users/${users.R!.id}`)).json;
    expect((await admin.put(`/api/users/${r.id}`, { ...r, attributes: { ...r.attributes, 'tarkan.limitReseller': 10 } })).status).toBe(200);
    try {
      // R has no bits of its own (so every area): it may give S any.
      const s = (await clients.R!.get<User>(`/api/users/${users.S!.id}`)).json;
      const given = await clients.R!.put<User>(`/api/users/${s.id}`, { ...s, attributes: { ...s.attributes, 'tarkan.advancedPerms': perms(8, 13, 16, 17, 18, 48) } });
      expect(given.status, given.text).toBe(200);
      const c = (await clients.S!.get<User>(`/api/users/${users.C!.id}`)).json;
      const above = await clients.S!.put(`/api/users/${c.id}`, { ...c, attributes: { ...c.attributes, 'tarkan.advancedPerms': perms(8, 40) } });
      expect(deriveErrorCode(above.text)).toBe('PERMISSIONS_ABOVE_YOUR_OWN');
      const within = await clients.S!.put<User>(`/api/users/${c.id}`, { ...c, attributes: { ...c.attributes, 'tarkan.advancedPerms': perms(8, 13) } });
      expect(within.status, within.text).toBe(200);
      // A user S creates without bits starts with S's own, not with every area.
      const fresh = await clients.S!.post<User>('/api/users', { name: 'Fresh Fay', email: 'fay@tree.test', password: PASSWORD });
      expect(fresh.status, fresh.text).toBe(200);
      expect(fresh.json.attributes['tarkan.advancedPerms']).toBe(perms(8, 13, 16, 17, 18, 48));
    } finally {
      await setServer(server, { attributes: '{}' });
    }
  });

  it('gives self-registered users no privilege attribute', async () => {
    await setServer(server, { registration: 1 });
    try {
      const res = await server.client().post<User>('/api/users', {
        name: 'Signing Up', email: 'signup@tree.test', password: PASSWORD,
        attributes: { 'tarkan.reseller': true, 'tarkan.subReseller': true, 'tarkan.limitReseller': 9, 'tarkan.advancedPerms': perms(1), color: 'red' },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json.attributes).toEqual({ color: 'red' });
    } finally {
      await setServer(server, { registration: 0 });
    }
  });

  it('takes a deleted user\'s part of the tree away from the managers above', async () => {
    expect((await clients.R!.delete(`/api/users/${users.S!.id}`)).status).toBe(204);
    expect(await userNames(clients.R!)).not.toContain('Customer Cid');
    expect((await clients.R!.get(`/api/users/${users.C!.id}`)).status).toBe(400);
    expect(sortedIds((await clients.R!.get<Device[]>('/api/devices')).json)).toEqual(deviceIds('dR'));
    const above = await db.selectFrom('userTree').select('ancestorId').where('descendantId', '=', users.C!.id).execute();
    expect(above).toEqual([]);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
