import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Group } from '@rastro/domain/entities';
import { deriveErrorCode } from '@rastro/domain/errors';
import type { Change } from '../src/realtime/changes.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectArrayOf, expectSchema } from './openapi.ts';
import { create, idsOf, link, makeUser } from './visibility-fixtures.ts';

describe.each(backends)('groups (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  const changes: Change[] = [];

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    server.rastro.ctx.changes.on((c) => changes.push(c));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a group linked to its creator; groupId is 0 without a parent', async () => {
    changes.length = 0;
    const res = await admin.post<Group>('/api/groups', { name: 'Fleet', attributes: { speedLimit: 60 } });
    expect(res.status).toBe(200);
    const g = expectSchema(res.json, 'Group');
    expect(g).toEqual({ id: g.id, name: 'Fleet', groupId: 0, attributes: { speedLimit: 60 } });
    expect(changes).toContainEqual({ kind: 'group', id: g.id });
    expect(idsOf((await admin.get<Group[]>('/api/groups')).json)).toContain(g.id);
    const child = await create<Group>(admin, '/api/groups', { name: 'Fleet / North', groupId: g.id });
    expect(child.groupId).toBe(g.id);
    expect((await admin.get<Group>(`/api/groups/${child.id}`)).json).toEqual(child);
    const noName = await admin.post('/api/groups', { name: ' ' });
    expect(noName.status).toBe(400);
    expect(noName.text).toMatch(/^Name is required/);
    expect((await admin.post('/api/groups', { name: 'x', groupId: 987654 })).status).toBe(400);
    expect((await admin.get('/api/groups/987654')).status).toBe(404);
  });

  it('shows a user the linked group and two levels below it, not the fourth', async () => {
    const { row: user, client } = await makeUser(server, 'tree@test');
    const g1 = await create<Group>(admin, '/api/groups', { name: 'T1' });
    const g2 = await create<Group>(admin, '/api/groups', { name: 'T2', groupId: g1.id });
    const g3 = await create<Group>(admin, '/api/groups', { name: 'T3', groupId: g2.id });
    const g4 = await create<Group>(admin, '/api/groups', { name: 'T4', groupId: g3.id });
    await link(server, 'userGroup', user.id, g1.id);
    const list = await client.get<Group[]>('/api/groups');
    expectArrayOf(list.json, 'Group');
    expect(list.json.map((g) => g.name)).toEqual(['T1', 'T2', 'T3']);
    expect((await client.get(`/api/groups/${g3.id}`)).status).toBe(200);
    expect((await client.get(`/api/groups/${g4.id}`)).status).toBe(400);
    // userId keeps the group expansion (Traccar's simple lists); admins and the user may ask.
    expect(idsOf((await admin.get<Group[]>(`/api/groups?userId=${user.id}`)).json)).toEqual([g1.id, g2.id, g3.id]);
    expect((await client.get('/api/groups?userId=1')).status).toBe(400);
    // all=true: every group for an administrator, nothing more for a user.
    expect(idsOf((await admin.get<Group[]>('/api/groups?all=true')).json)).toEqual(expect.arrayContaining([g1.id, g4.id]));
    expect(idsOf((await client.get<Group[]>('/api/groups?all=true')).json)).toEqual([g1.id, g2.id, g3.id]);
    // keyword, paging, excludeAttributes
    await admin.put(`/api/groups/${g2.id}`, { name: 'T2', groupId: g1.id, attributes: { a: 1 } });
    expect((await client.get<Group[]>('/api/groups?keyword=t2')).json.map((g) => g.name)).toEqual(['T2']);
    expect((await client.get<Group[]>('/api/groups?limit=1&offset=1')).json.map((g) => g.name)).toEqual(['T2']);
    expect((await client.get<Group[]>('/api/groups?keyword=t2&excludeAttributes=true')).json[0]!.attributes).toEqual({});
    expect((await client.get<Group[]>('/api/groups?keyword=t2')).json[0]!.attributes).toEqual({ a: 1 });
  });

  it('requires a visible parent and refuses cycles', async () => {
    const { row: user, client } = await makeUser(server, 'parent@test');
    const mine = await create<Group>(client, '/api/groups', { name: 'Mine' });
    const foreign = await create<Group>(admin, '/api/groups', { name: 'Foreign' });
    const refused = await client.post('/api/groups', { name: 'Child', groupId: foreign.id });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/^Group access denied/);
    expect((await client.put(`/api/groups/${mine.id}`, { name: 'Mine', groupId: foreign.id })).status).toBe(400);
    const child = await create<Group>(client, '/api/groups', { name: 'Child', groupId: mine.id });
    expect(child.groupId).toBe(mine.id);
    expect(user.id).toBeGreaterThan(0);

    const a = await create<Group>(admin, '/api/groups', { name: 'Ca' });
    const b = await create<Group>(admin, '/api/groups', { name: 'Cb', groupId: a.id });
    const c = await create<Group>(admin, '/api/groups', { name: 'Cc', groupId: b.id });
    const self = await admin.put(`/api/groups/${a.id}`, { name: 'Ca', groupId: a.id });
    expect(self.status).toBe(400);
    const loop = await admin.put(`/api/groups/${a.id}`, { name: 'Ca', groupId: c.id });
    expect(loop.status).toBe(400);
    expect(loop.text).toMatch(/^Invalid parent group/);
    expect((await admin.get<Group>(`/api/groups/${a.id}`)).json.groupId).toBe(0);
    // Moving a leaf elsewhere and back to the root is fine.
    expect((await admin.put<Group>(`/api/groups/${c.id}`, { name: 'Cc', groupId: a.id })).json.groupId).toBe(a.id);
    expect((await admin.put<Group>(`/api/groups/${c.id}`, { name: 'Cc', groupId: 0 })).json.groupId).toBe(0);
  });

  it('deletes a group and unlinks its devices and child groups', async () => {
    const g = await create<Group>(admin, '/api/groups', { name: 'Doomed' });
    const sub = await create<Group>(admin, '/api/groups', { name: 'Doomed child', groupId: g.id });
    const d = await create<Device>(admin, '/api/devices', { name: 'In doomed', uniqueId: 'doomed-1', groupId: g.id });
    changes.length = 0;
    expect((await admin.delete(`/api/groups/${g.id}`)).status).toBe(204);
    expect(changes).toContainEqual({ kind: 'group', id: g.id });
    expect(changes).toContainEqual({ kind: 'device', id: d.id });
    expect((await admin.get<Device>(`/api/devices/${d.id}`)).json.groupId).toBe(0);
    expect((await admin.get<Group>(`/api/groups/${sub.id}`)).json.groupId).toBe(0);
    expect((await admin.get(`/api/groups/${g.id}`)).status).toBe(404);
  });

  it('refuses writes by readonly users and by users who cannot see the group', async () => {
    const g = await create<Group>(admin, '/api/groups', { name: 'Guarded group' });
    const ro = await makeUser(server, 'group-ro@test', { readonly: 1 });
    await link(server, 'userGroup', ro.row.id, g.id);
    expect((await ro.client.get(`/api/groups/${g.id}`)).status).toBe(200);
    const put = await ro.client.put(`/api/groups/${g.id}`, { name: 'x' });
    expect(put.status).toBe(400);
    expect(deriveErrorCode(put.text)).toBe('ACCOUNT_IS_READONLY');
    expect((await ro.client.post('/api/groups', { name: 'x' })).status).toBe(400);
    expect((await ro.client.delete(`/api/groups/${g.id}`)).status).toBe(400);
    const other = await makeUser(server, 'group-other@test');
    expect((await other.client.put(`/api/groups/${g.id}`, { name: 'x' })).status).toBe(400);
    expect((await other.client.delete(`/api/groups/${g.id}`)).status).toBe(400);
    expect((await admin.get<Group>(`/api/groups/${g.id}`)).json.name).toBe('Guarded group');
  });
});
