// The visibility matrix: who sees which device and group, through the REST lists and gets,
// the latest positions, and the shared Visibility module the socket uses. Users are created
// through POST /api/users (the manager creates the user he manages), links through
// /api/permissions, so the whole path is the one clients take.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Group, Position, User } from '@rastro/domain/entities';
import { deriveErrorCode } from '@rastro/domain/errors';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { addPosition, create, idsOf } from './visibility-fixtures.ts';

const PASSWORD = 'matrix-pass';

describe.each(backends)('visibility matrix (%s)', (backend) => {
  let server: TestServer;
  const clients: Record<string, TestClient> = {};
  const users: Record<string, User> = {};
  const groups: Record<string, Group> = {};
  const devices: Record<string, Device> = {};

  /** What each role must see, by device / group key. */
  const expected: Record<string, { devices: string[]; groups: string[] }> = {
    // A manager also sees what the users of its tree see (issue 13): user A is his.
    manager: { devices: ['dM', 'dA', 'dG1', 'dG2', 'dG3'], groups: ['G1', 'G2', 'G3'] },
    userA: { devices: ['dA', 'dG1', 'dG2', 'dG3'], groups: ['G1', 'G2', 'G3'] },
    userB: { devices: ['dB'], groups: [] },
    // Linked to G3: G3 and its child G4 (the 4th level from G1 is only 2nd from G3).
    readonly: { devices: ['dR', 'dG3', 'dG4'], groups: ['G3', 'G4'] },
  };
  const deviceIds = (keys: string[]) => keys.map((k) => devices[k]!.id).sort((a, b) => a - b);
  const groupIds = (keys: string[]) => keys.map((k) => groups[k]!.id).sort((a, b) => a - b);

  async function login(email: string): Promise<TestClient> {
    const client = server.client();
    await client.login(email, PASSWORD);
    return client;
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    const admin = await server.admin();
    clients.admin = admin;
    // deviceLimit -1: a new user may add no device of his own unless the administrator says so.
    users.manager = await create<User>(admin, '/api/users', { name: 'Manager', email: 'manager@matrix', password: PASSWORD, userLimit: 2, deviceLimit: -1 });
    users.userB = await create<User>(admin, '/api/users', { name: 'User B', email: 'b@matrix', password: PASSWORD });
    users.readonly = await create<User>(admin, '/api/users', { name: 'Reader', email: 'ro@matrix', password: PASSWORD, readonly: true });
    clients.manager = await login('manager@matrix');
    // The manager creates user A, so he manages A.
    users.userA = await create<User>(clients.manager, '/api/users', { name: 'User A', email: 'a@matrix', password: PASSWORD });
    clients.userA = await login('a@matrix');
    clients.userB = await login('b@matrix');
    clients.readonly = await login('ro@matrix');

    // G1 > G2 > G3 > G4: a link to G1 reaches G3 but not G4.
    groups.G1 = await create<Group>(admin, '/api/groups', { name: 'G1' });
    groups.G2 = await create<Group>(admin, '/api/groups', { name: 'G2', groupId: groups.G1.id });
    groups.G3 = await create<Group>(admin, '/api/groups', { name: 'G3', groupId: groups.G2.id });
    groups.G4 = await create<Group>(admin, '/api/groups', { name: 'G4', groupId: groups.G3.id });
    for (const level of ['G1', 'G2', 'G3', 'G4']) {
      devices[`d${level}`] = await create<Device>(admin, '/api/devices', { name: `in ${level}`, uniqueId: `m-${level}`, groupId: groups[level]!.id });
    }
    devices.dA = await create<Device>(admin, '/api/devices', { name: 'A direct', uniqueId: 'm-a' });
    devices.dB = await create<Device>(admin, '/api/devices', { name: 'B direct', uniqueId: 'm-b' });
    devices.dR = await create<Device>(admin, '/api/devices', { name: 'R direct', uniqueId: 'm-r' });
    devices.dX = await create<Device>(admin, '/api/devices', { name: 'Nobody', uniqueId: 'm-x' });
    devices.dM = await create<Device>(clients.manager, '/api/devices', { name: 'M own', uniqueId: 'm-m' });

    const links: Array<Record<string, number>> = [
      { userId: users.userA.id, groupId: groups.G1.id },
      { userId: users.userA.id, deviceId: devices.dA.id },
      { userId: users.userB.id, deviceId: devices.dB.id },
      { userId: users.readonly.id, deviceId: devices.dR.id },
      { userId: users.readonly.id, groupId: groups.G3.id },
    ];
    for (const body of links) expect((await admin.post('/api/permissions', body)).status).toBe(204);
    for (const d of Object.values(devices)) await addPosition(server, d.id);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the administrator sees every device and group with all=true and may get any of them', async () => {
    const admin = clients.admin!;
    expect(idsOf((await admin.get<Device[]>('/api/devices?all=true')).json)).toEqual(deviceIds(Object.keys(devices)));
    expect(idsOf((await admin.get<Group[]>('/api/groups?all=true')).json)).toEqual(groupIds(Object.keys(groups)));
    expect(idsOf((await admin.get<Position[]>('/api/positions')).json.map((p) => ({ id: p.deviceId })))).toEqual(deviceIds(Object.keys(devices)));
    for (const d of Object.values(devices)) expect((await admin.get(`/api/devices/${d.id}`)).status).toBe(200);
    for (const g of Object.values(groups)) expect((await admin.get(`/api/groups/${g.id}`)).status).toBe(200);
  });

  for (const role of ['manager', 'userA', 'userB', 'readonly']) {
    it(`${role} sees exactly their devices, groups and positions, and is refused the rest`, async () => {
      const client = clients[role]!;
      const want = expected[role]!;
      for (const query of ['', '?all=true']) {
        expect(idsOf((await client.get<Device[]>(`/api/devices${query}`)).json), `devices${query}`).toEqual(deviceIds(want.devices));
        expect(idsOf((await client.get<Group[]>(`/api/groups${query}`)).json), `groups${query}`).toEqual(groupIds(want.groups));
      }
      const positions = (await client.get<Position[]>('/api/positions')).json;
      expect(positions.map((p) => p.deviceId).sort((a, b) => a - b)).toEqual(deviceIds(want.devices));
      const lookup = await client.get<Device[]>(`/api/devices?${Object.values(devices).map((d) => `id=${d.id}`).join('&')}`);
      expect(idsOf(lookup.json)).toEqual(deviceIds(want.devices));

      for (const [key, d] of Object.entries(devices)) {
        const visible = want.devices.includes(key);
        const status = visible ? 200 : 400;
        expect((await client.get(`/api/devices/${d.id}`)).status, `get ${key}`).toBe(status);
        expect((await client.get(`/api/positions?deviceId=${d.id}`)).status, `positions ${key}`).toBe(status);
        if (!visible) {
          expect((await client.put(`/api/devices/${d.id}`, { name: 'taken' })).status, `put ${key}`).toBe(400);
          expect((await client.delete(`/api/devices/${d.id}`)).status, `delete ${key}`).toBe(400);
          expect((await client.post('/api/permissions', { userId: users[role]!.id, deviceId: d.id })).status, `link ${key}`).toBe(400);
        }
      }
      for (const [key, g] of Object.entries(groups)) {
        const visible = want.groups.includes(key);
        expect((await client.get(`/api/groups/${g.id}`)).status, `get ${key}`).toBe(visible ? 200 : 400);
        if (!visible) {
          expect((await client.put(`/api/groups/${g.id}`, { name: 'taken' })).status, `put ${key}`).toBe(400);
          expect((await client.delete(`/api/groups/${g.id}`)).status, `delete ${key}`).toBe(400);
          expect((await client.post('/api/devices', { name: 'sneak', uniqueId: `sneak-${role}-${key}`, groupId: g.id })).status).toBe(400);
        }
      }
      // Nothing was changed by the refused writes.
      const all = (await clients.admin!.get<Device[]>('/api/devices?all=true')).json;
      expect(all.some((d) => d.name === 'taken' || d.name === 'sneak')).toBe(false);
    });
  }

  it('the manager reaches the links of the user he manages, not of others', async () => {
    const manager = clients.manager!;
    expect(idsOf((await manager.get<Device[]>(`/api/devices?userId=${users.userA!.id}`)).json)).toEqual(deviceIds(['dA']));
    expect(idsOf((await manager.get<Group[]>(`/api/groups?userId=${users.userA!.id}`)).json)).toEqual(groupIds(['G1', 'G2', 'G3']));
    expect((await manager.get(`/api/devices?userId=${users.userB!.id}`)).status).toBe(400);
    expect((await clients.userA!.get(`/api/devices?userId=${users.userB!.id}`)).status).toBe(400);
    // He may hand his own device to A, not to B.
    expect((await manager.post('/api/permissions', { userId: users.userA!.id, deviceId: devices.dM!.id })).status).toBe(204);
    expect(idsOf((await clients.userA!.get<Device[]>('/api/devices')).json)).toContain(devices.dM!.id);
    expect((await manager.post('/api/permissions', { userId: users.userB!.id, deviceId: devices.dM!.id })).status).toBe(400);
    expect((await manager.delete('/api/permissions', { userId: users.userA!.id, deviceId: devices.dM!.id })).status).toBe(204);
  });

  it('users who can write change what they see', async () => {
    const res = await clients.userA!.put<Device>(`/api/devices/${devices.dG3!.id}`, { name: 'in G3 (renamed by A)' });
    expect(res.status).toBe(200);
    expect(res.json.name).toBe('in G3 (renamed by A)');
    expect((await clients.userB!.put<Group>(`/api/groups/${groups.G1!.id}`, { name: 'nope' })).status).toBe(400);
  });

  it('the readonly user is refused every write, even on what he sees', async () => {
    const ro = clients.readonly!;
    const d = devices.dR!;
    const refusals = [
      await ro.put(`/api/devices/${d.id}`, { name: 'changed' }),
      await ro.delete(`/api/devices/${d.id}`),
      await ro.post('/api/devices', { name: 'new', uniqueId: 'ro-new' }),
      await ro.put(`/api/devices/${d.id}/accumulators`, { deviceId: d.id, totalDistance: 5 }),
      await ro.post('/api/groups', { name: 'new' }),
      await ro.put(`/api/groups/${groups.G3!.id}`, { name: 'changed' }),
      await ro.delete(`/api/groups/${groups.G3!.id}`),
      await ro.post('/api/permissions', { userId: users.readonly!.id, deviceId: d.id }),
      await ro.delete('/api/permissions', { userId: users.readonly!.id, deviceId: d.id }),
    ];
    for (const res of refusals) {
      expect(res.status).toBe(400);
      expect(deriveErrorCode(res.text)).toBe('ACCOUNT_IS_READONLY');
    }
    expect((await ro.get<Device>(`/api/devices/${d.id}`)).json.name).toBe('R direct');
    expect((await ro.get<Group>(`/api/groups/${groups.G3!.id}`)).json.name).toBe('G3');
  });

  it('the socket module agrees: deviceIds and usersOfDevice follow the same links', async () => {
    const { visibility, users: repo } = server.rastro.ctx;
    for (const role of ['manager', 'userA', 'userB', 'readonly']) {
      const row = (await repo.findById(users[role]!.id))!;
      expect([...(await visibility.deviceIds(row))].sort((a, b) => a - b), role).toEqual(deviceIds(expected[role]!.devices));
      expect([...(await visibility.groupIds(row))].sort((a, b) => a - b), role).toEqual(groupIds(expected[role]!.groups));
      for (const [key, d] of Object.entries(devices)) {
        expect(await visibility.canSeeDevice(row, d.id), `${role} ${key}`).toBe(expected[role]!.devices.includes(key));
      }
    }
    const audience = async (key: string) => [...(await visibility.usersOfDevice(devices[key]!.id))].sort((a, b) => a - b);
    const ids = (...roles: string[]) => [1, ...roles.map((r) => users[r]!.id)].sort((a, b) => a - b);
    expect(await audience('dG1')).toEqual(ids('userA', 'manager'));
    expect(await audience('dG3')).toEqual(ids('userA', 'manager', 'readonly'));
    expect(await audience('dG4')).toEqual(ids('readonly'));
    expect(await audience('dM')).toEqual(ids('manager'));
    expect(await audience('dX')).toEqual(ids());
  });
});
