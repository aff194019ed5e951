import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Position } from '@rastro/domain/entities';
import { deriveErrorCode } from '@rastro/domain/errors';
import type { Change } from '../src/realtime/changes.ts';
import type { LiveBatch } from '../src/realtime/live.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectArrayOf, expectSchema } from './openapi.ts';
import { addPosition, create, idsOf, link, makeUser, setServer } from './visibility-fixtures.ts';

describe.each(backends)('devices (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  const changes: Change[] = [];
  const live: LiveBatch[] = [];

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    server.rastro.ctx.changes.on((c) => changes.push(c));
    server.rastro.ctx.live.subscribe((b) => live.push(b));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a device linked to its creator, with Traccar JSON and no internal state', async () => {
    changes.length = 0;
    const res = await admin.post<Device>('/api/devices', {
      name: 'Truck 1', uniqueId: ' 111 ', phone: '+5511999', model: 'GT06', category: 'truck',
      status: 'online', lastUpdate: '2020-01-01T00:00:00Z', positionId: 77, attributes: { speedLimit: 50 },
    });
    expect(res.status).toBe(200);
    const d = expectSchema(res.json, 'Device');
    expect(d).toMatchObject({
      name: 'Truck 1', uniqueId: '111', phone: '+5511999', model: 'GT06', category: 'truck',
      // server-managed fields are ignored on input; a never-connected device is offline
      status: 'offline', lastUpdate: null, positionId: null, disabled: false,
      // No group, no calendar: 0, as Traccar answers.
      groupId: 0, calendarId: 0,
      attributes: { speedLimit: 50 },
    });
    expect(Object.keys(d)).not.toContain('motionState');
    expect(Object.keys(d).some((k) => k.startsWith('motion') || k.startsWith('overspeed'))).toBe(false);
    expect(changes).toContainEqual({ kind: 'device', id: d.id });
    const link = await server.rastro.ctx.storage.db.selectFrom('userDevice').selectAll().where('propertyId', '=', d.id).execute();
    expect(link.map((l) => Number(l.ownerId))).toEqual([1]);
    const one = await admin.get<Device>(`/api/devices/${d.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual(d);
  });

  it('takes groupId 0 or null as no group, and answers no group as 0', async () => {
    const group = await create<{ id: number }>(admin, '/api/groups', { name: 'Zero group' });
    const d = await create<Device>(admin, '/api/devices', { name: 'Grouped', uniqueId: 'zero-1', groupId: group.id, calendarId: 0 });
    expect(d).toMatchObject({ groupId: group.id, calendarId: 0 });
    const cleared = await admin.put<Device>(`/api/devices/${d.id}`, { ...d, groupId: 0 });
    expect(cleared.json.groupId).toBe(0);
    const stored = await server.rastro.ctx.storage.db.selectFrom('devices').select(['groupId', 'calendarId']).where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ groupId: null, calendarId: null });
    await admin.put(`/api/devices/${d.id}`, { ...d, groupId: group.id });
    expect((await admin.put<Device>(`/api/devices/${d.id}`, { ...d, groupId: null })).json.groupId).toBe(0);
    expect((await admin.get<Device[]>(`/api/devices?id=${d.id}`)).json[0]).toMatchObject({ groupId: 0, calendarId: 0 });
  });

  it('requires name and uniqueId and refuses a duplicate uniqueId', async () => {
    const noName = await admin.post('/api/devices', { uniqueId: 'x1' });
    expect(noName.status).toBe(400);
    expect(noName.text).toMatch(/^Name is required/);
    const noId = await admin.post('/api/devices', { name: 'X', uniqueId: '   ' });
    expect(noId.status).toBe(400);
    expect(noId.text).toMatch(/^Unique identifier is required/);
    const notObject = await admin.post('/api/devices', [1, 2]);
    expect(notObject.status).toBe(400);
    await create(admin, '/api/devices', { name: 'Dup A', uniqueId: 'dup-1' });
    const dup = await admin.post('/api/devices', { name: 'Dup B', uniqueId: 'dup-1' });
    expect(dup.status).toBe(400);
    expect(deriveErrorCode(dup.text)).toBe('DUPLICATE_UNIQUE_IDENTIFIER');
    const reserved = await admin.post('/api/devices', { name: 'R', uniqueId: 'deleted-a-1' });
    expect(reserved.status).toBe(400);
    const badAttrs = await admin.post('/api/devices', { name: 'A', uniqueId: 'attrs-1', attributes: 'nope' });
    expect(badAttrs.status).toBe(400);
    expect(badAttrs.text).toMatch(/attributes/);
  });

  it('updates a device, ignoring server-managed fields and keeping omitted ones', async () => {
    const d = await create<Device>(admin, '/api/devices', { name: 'Van', uniqueId: 'upd-1', phone: '123', contact: 'Ana' });
    const pos = await addPosition(server, d.id);
    changes.length = 0;
    const res = await admin.put<Device>(`/api/devices/${d.id}`, {
      id: d.id, name: 'Van 2', uniqueId: 'upd-1b', status: 'online', positionId: 999999, lastUpdate: '2001-01-01T00:00:00Z', phone: null,
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ name: 'Van 2', uniqueId: 'upd-1b', status: 'offline', positionId: pos.id, phone: null, contact: 'Ana' });
    expect(changes).toContainEqual({ kind: 'device', id: d.id });
    await create(admin, '/api/devices', { name: 'Other', uniqueId: 'upd-2' });
    const dup = await admin.put(`/api/devices/${d.id}`, { name: 'Van 2', uniqueId: 'upd-2' });
    expect(dup.status).toBe(400);
    expect(dup.text).toMatch(/^Duplicate unique identifier/);
    const blank = await admin.put(`/api/devices/${d.id}`, { name: '' });
    expect(blank.status).toBe(400);
    const missing = await admin.put('/api/devices/987654', { name: 'x' });
    expect(missing.status).toBe(404);
  });

  it('lists with Traccar parameters: all, userId, deviceId, id, uniqueId, keyword, paging', async () => {
    const { row: user, client } = await makeUser(server, 'list-user@test');
    const group = await create<{ id: number }>(admin, '/api/groups', { name: 'List group' });
    const a = await create<Device>(admin, '/api/devices', { name: 'Lz Alpha', uniqueId: 'L-1', model: 'Teltonika FMB920' });
    const b = await create<Device>(admin, '/api/devices', { name: 'Lz beta', uniqueId: 'L-2', groupId: group.id });
    const c = await create<Device>(admin, '/api/devices', { name: 'Lz Charlie', uniqueId: 'L-3', contact: 'Maria Souza' });
    await link(server, 'userDevice', user.id, a.id);
    await link(server, 'userGroup', user.id, group.id);
    await link(server, 'deviceDevice', a.id, c.id);

    // Default: what the user sees (direct + through groups), sorted by name.
    const mine = await client.get<Device[]>('/api/devices');
    expect(mine.status).toBe(200);
    expectArrayOf(mine.json, 'Device');
    expect(mine.json.map((d) => d.name)).toEqual(['Lz Alpha', 'Lz beta']);
    // all=true gives a non-admin nothing more.
    expect(idsOf((await client.get<Device[]>('/api/devices?all=true')).json)).toEqual(idsOf(mine.json));
    // An administrator without all=true lists only his own links; with it, every device.
    await server.rastro.ctx.storage.db.deleteFrom('userDevice').where('ownerId', '=', 1).where('propertyId', '=', c.id).execute();
    const adminOwn = idsOf((await admin.get<Device[]>('/api/devices')).json);
    expect(adminOwn).toContain(a.id);
    expect(adminOwn).not.toContain(c.id);
    expect(idsOf((await admin.get<Device[]>('/api/devices?all=true')).json)).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    // userId: direct links only (no groups); the user may ask for himself, not for others.
    expect(idsOf((await admin.get<Device[]>(`/api/devices?userId=${user.id}`)).json)).toEqual([a.id]);
    expect(idsOf((await client.get<Device[]>(`/api/devices?userId=${user.id}`)).json)).toEqual([a.id]);
    expect((await client.get('/api/devices?userId=1')).status).toBe(400);
    // groupId is no parameter of Traccar's device list: ignored, every device the caller sees, even
    // for a group he does not see.
    expect(idsOf((await client.get<Device[]>(`/api/devices?groupId=${group.id}`)).json)).toEqual(idsOf(mine.json));
    expect(idsOf((await client.get<Device[]>('/api/devices?groupId=987654')).json)).toEqual(idsOf(mine.json));
    // deviceId: linked devices.
    expect(idsOf((await admin.get<Device[]>(`/api/devices?deviceId=${a.id}`)).json)).toEqual([c.id]);
    // The user sees a but not c: linked devices are narrowed to what he sees.
    expect((await client.get<Device[]>(`/api/devices?deviceId=${a.id}`)).json).toEqual([]);
    expect((await client.get(`/api/devices?deviceId=${c.id}`)).status).toBe(400);
    // Exact lookups within visible devices.
    expect(idsOf((await client.get<Device[]>(`/api/devices?id=${a.id}&id=${b.id}&id=${c.id}`)).json)).toEqual([a.id, b.id]);
    expect(idsOf((await client.get<Device[]>('/api/devices?uniqueId=L-2&uniqueId=L-3')).json)).toEqual([b.id]);
    expect(idsOf((await admin.get<Device[]>('/api/devices?uniqueId=L-3')).json)).toEqual([c.id]);
    // Keyword: case-insensitive over name, uniqueId, phone, model, contact.
    expect(idsOf((await admin.get<Device[]>('/api/devices?all=true&keyword=fmb9')).json)).toEqual([a.id]);
    expect(idsOf((await admin.get<Device[]>('/api/devices?all=true&keyword=SOUZA')).json)).toEqual([c.id]);
    expect(idsOf((await admin.get<Device[]>('/api/devices?all=true&keyword=lz%20B')).json)).toEqual([b.id]);
    expect((await admin.get<Device[]>('/api/devices?all=true&keyword=%25')).json).toEqual([]);
    // Paging over the name order.
    const page = await admin.get<Device[]>('/api/devices?all=true&keyword=Lz&limit=1&offset=1');
    expect(page.json.map((d) => d.name)).toEqual(['Lz beta']);
    const rest = await admin.get<Device[]>('/api/devices?all=true&keyword=Lz&offset=2');
    expect(rest.json.map((d) => d.name)).toEqual(['Lz Charlie']);
    // excludeAttributes keeps the shape with an empty map.
    await admin.put(`/api/devices/${a.id}`, { attributes: { color: 'red' } });
    const lean = await admin.get<Device[]>(`/api/devices?id=${a.id}&excludeAttributes=true`);
    expect(lean.json[0]!.attributes).toEqual({});
    expect((await admin.get<Device[]>(`/api/devices?id=${a.id}`)).json[0]!.attributes).toEqual({ color: 'red' });
    // Bad parameters are refused, not a crash: text that is no number a 404 as in Traccar, a bad number a 400.
    expect((await admin.get('/api/devices?limit=abc')).status).toBe(404);
    expect((await admin.get('/api/devices?id=-3')).status).toBe(400);
  });

  it('answers id lookups for more ids than one query slice', async () => {
    const created: number[] = [];
    for (let i = 0; i < 5; i++) created.push((await create<Device>(admin, '/api/devices', { name: `Bulk ${i}`, uniqueId: `bulk-${i}` })).id);
    const ids = [...Array.from({ length: 1200 }, (_, i) => 500_000 + i), ...created];
    const res = await admin.get<Device[]>(`/api/devices?${ids.map((id) => `id=${id}`).join('&')}`);
    expect(res.status).toBe(200);
    expect(idsOf(res.json)).toEqual(created);
  });

  it('refuses device writes to deviceReadonly and readonly users, and reads of unseen devices', async () => {
    const d = await create<Device>(admin, '/api/devices', { name: 'Guarded', uniqueId: 'guard-1' });
    const ro = await makeUser(server, 'dro@test', { deviceReadonly: 1 });
    await link(server, 'userDevice', ro.row.id, d.id);
    const put = await ro.client.put(`/api/devices/${d.id}`, { name: 'hacked' });
    expect(put.status).toBe(400);
    expect(deriveErrorCode(put.text)).toBe('ACCOUNT_IS_DEVICE_READONLY');
    expect((await ro.client.post('/api/devices', { name: 'n', uniqueId: 'guard-2' })).status).toBe(400);
    expect((await ro.client.delete(`/api/devices/${d.id}`)).status).toBe(400);
    expect((await ro.client.get(`/api/devices/${d.id}`)).status).toBe(200);
    const stranger = await makeUser(server, 'stranger@test');
    expect((await stranger.client.get(`/api/devices/${d.id}`)).status).toBe(400);
    expect((await stranger.client.get('/api/devices/987654')).status).toBe(400);
    expect((await admin.get('/api/devices/987654')).status).toBe(404);
    expect((await stranger.client.put(`/api/devices/${d.id}`, { name: 'x' })).status).toBe(400);
    expect((await stranger.client.delete(`/api/devices/${d.id}`)).status).toBe(400);
    expect((await admin.get(`/api/devices/${d.id}`)).json).toMatchObject({ name: 'Guarded' });
  });

  it('refuses a group the caller cannot see', async () => {
    const user = await makeUser(server, 'grp-ref@test');
    const hidden = await create<{ id: number }>(admin, '/api/groups', { name: 'Hidden' });
    const res = await user.client.post('/api/devices', { name: 'G', uniqueId: 'gref-1', groupId: hidden.id });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^Group access denied/);
    const missing = await admin.post('/api/devices', { name: 'G', uniqueId: 'gref-2', groupId: 987654 });
    expect(missing.status).toBe(400);
  });

  it('deletes a device with its history', async () => {
    const d = await create<Device>(admin, '/api/devices', { name: 'Gone', uniqueId: 'gone-1' });
    await addPosition(server, d.id);
    changes.length = 0;
    const res = await admin.delete(`/api/devices/${d.id}`);
    expect(res.status).toBe(204);
    expect(changes).toContainEqual({ kind: 'deviceRemoved', id: d.id });
    const db = server.rastro.ctx.storage.db;
    expect(await db.selectFrom('devices').select('id').where('id', '=', d.id).execute()).toEqual([]);
    expect(await db.selectFrom('positions').select('id').where('deviceId', '=', d.id).execute()).toEqual([]);
    expect((await admin.get(`/api/devices/${d.id}`)).status).toBe(404);
  });

  it('in safe mode renames the deleted device, keeps its history and hides it everywhere', async () => {
    await setServer(server, { attributes: JSON.stringify({ 'tarkan.enableLazyDeletion': true }) });
    try {
      const d = await create<Device>(admin, '/api/devices', { name: 'Lazy', uniqueId: 'lazy-1' });
      const p = await addPosition(server, d.id);
      const before = Math.floor(Date.now() / 1000);
      expect((await admin.delete(`/api/devices/${d.id}`)).status).toBe(204);
      const db = server.rastro.ctx.storage.db;
      const row = await db.selectFrom('devices').select('uniqueId').where('id', '=', d.id).executeTakeFirstOrThrow();
      const match = /^deleted-lazy-1-(\d+)$/.exec(row.uniqueId);
      expect(match).not.toBeNull();
      expect(Number(match![1])).toBeGreaterThanOrEqual(before);
      expect(await db.selectFrom('positions').select('id').where('id', '=', p.id).execute()).toHaveLength(1);
      expect(idsOf((await admin.get<Device[]>('/api/devices?all=true')).json)).not.toContain(d.id);
      expect((await admin.get<Device[]>(`/api/devices?id=${d.id}`)).json).toEqual([]);
      expect((await admin.get<Device[]>(`/api/devices?uniqueId=${row.uniqueId}`)).json).toEqual([]);
      expect((await admin.get(`/api/devices/${d.id}`)).status).toBe(404);
      expect((await admin.get<Position[]>('/api/positions')).json.map((x) => x.deviceId)).not.toContain(d.id);
      // The original identifier is free again.
      expect((await admin.post('/api/devices', { name: 'Lazy again', uniqueId: 'lazy-1' })).status).toBe(200);
    } finally {
      await setServer(server, { attributes: '{}' });
    }
  });

  it('enforces the user device limit (0 = none, N = at most N visible devices)', async () => {
    const none = await makeUser(server, 'limit0@test', { deviceLimit: 0 });
    const refused = await none.client.post('/api/devices', { name: 'n', uniqueId: 'lim-0' });
    expect(refused.status).toBe(400);
    expect(deriveErrorCode(refused.text)).toBe('USER_DEVICE_LIMIT_REACHED');

    const two = await makeUser(server, 'limit2@test', { deviceLimit: 2 });
    const group = await create<{ id: number }>(admin, '/api/groups', { name: 'Limit group' });
    await create(admin, '/api/devices', { name: 'in group', uniqueId: 'lim-g', groupId: group.id });
    await link(server, 'userGroup', two.row.id, group.id);
    // One device seen through the group: one more may be added, then the limit is reached.
    expect((await two.client.post('/api/devices', { name: 'first', uniqueId: 'lim-1' })).status).toBe(200);
    const third = await two.client.post('/api/devices', { name: 'second', uniqueId: 'lim-2' });
    expect(third.status).toBe(400);
    expect(deriveErrorCode(third.text)).toBe('USER_DEVICE_LIMIT_REACHED');
  });

  it('enforces the server attribute tarkan.deviceLimit for everyone', async () => {
    const total = (await admin.get<Device[]>('/api/devices?all=true')).json.length;
    await setServer(server, { attributes: JSON.stringify({ 'tarkan.deviceLimit': String(total + 1) }) });
    try {
      expect((await admin.post('/api/devices', { name: 'last', uniqueId: 'srv-lim-1' })).status).toBe(200);
      const res = await admin.post('/api/devices', { name: 'over', uniqueId: 'srv-lim-2' });
      expect(res.status).toBe(400);
      expect(deriveErrorCode(res.text)).toBe('USER_DEVICE_LIMIT_REACHED');
    } finally {
      await setServer(server, { attributes: '{}' });
    }
    expect((await admin.post('/api/devices', { name: 'over', uniqueId: 'srv-lim-2' })).status).toBe(200);
  });

  it('sets accumulators by storing a copy of the latest position and pushing it', async () => {
    const d = await create<Device>(admin, '/api/devices', { name: 'Odo', uniqueId: 'odo-1' });
    const noPosition = await admin.put(`/api/devices/${d.id}/accumulators`, { deviceId: d.id, totalDistance: 1000 });
    expect(noPosition.status).toBe(400);
    expect(noPosition.text).toMatch(/^No position yet/);

    const first = await addPosition(server, d.id, { attributes: JSON.stringify({ ignition: true, totalDistance: 5 }), address: 'Rua A' });
    live.length = 0;
    changes.length = 0;
    const res = await admin.put(`/api/devices/${d.id}/accumulators`, { deviceId: d.id, totalDistance: 123456.5, hours: 3_600_000 });
    expect(res.status).toBe(204);
    const latest = await admin.get<Position[]>(`/api/positions?deviceId=${d.id}`);
    expect(latest.json).toHaveLength(1);
    const p = latest.json[0]!;
    expect(p.id).not.toBe(first.id);
    expect(p).toMatchObject({ deviceId: d.id, latitude: first.latitude, longitude: first.longitude, address: 'Rua A' });
    expect(p.attributes).toEqual({ ignition: true, totalDistance: 123456.5, hours: 3_600_000 });
    expect((await admin.get<Device>(`/api/devices/${d.id}`)).json.positionId).toBe(p.id);
    expect(live).toHaveLength(1);
    expect(live[0]!.positions).toEqual([p]);
    expect(live[0]!.devices?.[0]).toMatchObject({ id: d.id, positionId: p.id });
    expect(changes).toContainEqual({ kind: 'device', id: d.id });

    // Only hours: the distance stays.
    expect((await admin.put(`/api/devices/${d.id}/accumulators`, { deviceId: d.id, hours: 10 })).status).toBe(204);
    const again = (await admin.get<Position[]>(`/api/positions?deviceId=${d.id}`)).json[0]!;
    expect(again.attributes).toMatchObject({ totalDistance: 123456.5, hours: 10 });

    expect((await admin.put(`/api/devices/${d.id}/accumulators`, { deviceId: d.id })).status).toBe(400);
    expect((await admin.put(`/api/devices/${d.id}/accumulators`, { deviceId: d.id, totalDistance: -1 })).status).toBe(400);
    expect((await admin.put(`/api/devices/${d.id}/accumulators`, { deviceId: d.id + 1000, totalDistance: 1 })).status).toBe(400);
    const ro = await makeUser(server, 'odo-ro@test', { deviceReadonly: 1 });
    await link(server, 'userDevice', ro.row.id, d.id);
    expect((await ro.client.put(`/api/devices/${d.id}/accumulators`, { deviceId: d.id, totalDistance: 1 })).status).toBe(400);
  });
});

describe.each(backends)('devices with RASTRO_DEVICE_LIMIT (%s)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_DEVICE_LIMIT: '2' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses the device beyond the operator limit; lazily deleted devices do not count', async () => {
    const admin = await server.admin();
    await setServer(server, { attributes: JSON.stringify({ 'tarkan.enableLazyDeletion': true }) });
    const a = await create<Device>(admin, '/api/devices', { name: 'a', uniqueId: 'cfg-1' });
    await create(admin, '/api/devices', { name: 'b', uniqueId: 'cfg-2' });
    const over = await admin.post('/api/devices', { name: 'c', uniqueId: 'cfg-3' });
    expect(over.status).toBe(400);
    expect(deriveErrorCode(over.text)).toBe('USER_DEVICE_LIMIT_REACHED');
    expect((await admin.delete(`/api/devices/${a.id}`)).status).toBe(204);
    expect((await admin.post('/api/devices', { name: 'c', uniqueId: 'cfg-3' })).status).toBe(200);
  });
});
