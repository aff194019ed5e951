// /api/geofences over real HTTP on SQLite and PostgreSQL: CRUD with area validation, the
// extended list parameters, links through /api/permissions, anchors, and which geofences
// apply to a device in processing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Group } from '@rastro/domain/entities';
import type { Geofence } from '@rastro/domain/geofence-area';
import { GeofencesRepo } from '../src/geofences/geofences-repo.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectArrayOf, expectSchema } from './openapi.ts';
import { addPosition, create, idsOf, makeUser, setServer } from './visibility-fixtures.ts';

describe.each(backends)('geofences (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  const userLinks = async (userId: number) =>
    (await server.rastro.ctx.storage.db.selectFrom('userGeofence').select('propertyId').where('ownerId', '=', userId).execute())
      .map((r) => Number(r.propertyId));

  it('creates a geofence linked to its creator, reads, updates and deletes it', async () => {
    const { row: user, client } = await makeUser(server, 'geo-crud@test');
    const res = await client.post<Geofence>('/api/geofences', {
      id: -1, name: ' Depot ', description: 'Main yard', area: 'CIRCLE (-23.5 -46.6, 150)', calendarId: 7,
      attributes: { color: '#ff0000', speedLimit: 30, lockOnEnter: true, lockOnExit: false },
    });
    expect(res.status).toBe(200);
    const g = expectSchema(res.json, 'Geofence');
    expect(g).toMatchObject({
      name: 'Depot', description: 'Main yard', area: 'CIRCLE (-23.5 -46.6, 150)', calendarId: 7,
      attributes: { color: '#ff0000', speedLimit: 30, lockOnEnter: true, lockOnExit: false },
    });
    expect(g.id).toBeGreaterThan(0);
    expect(await userLinks(user.id)).toEqual([g.id]);
    expect((await client.get<Geofence>(`/api/geofences/${g.id}`)).json).toEqual(g);

    const put = await client.put<Geofence>(`/api/geofences/${g.id}`, { ...g, name: 'Depot 2', area: 'POLYGON ((1 2, 1 3, 2 3, 1 2))', calendarId: 0 });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ id: g.id, name: 'Depot 2', area: 'POLYGON ((1 2, 1 3, 2 3, 1 2))', calendarId: 0, description: 'Main yard' });
    // Omitted fields are kept.
    const partial = await client.put<Geofence>(`/api/geofences/${g.id}`, { name: 'Depot 3' });
    expect(partial.json).toMatchObject({ name: 'Depot 3', area: 'POLYGON ((1 2, 1 3, 2 3, 1 2))', attributes: { color: '#ff0000' } });

    expect((await client.delete(`/api/geofences/${g.id}`)).status).toBe(204);
    expect(await userLinks(user.id)).toEqual([]);
    // Gone: the user gets the access refusal (400), the administrator 404.
    expect((await client.get(`/api/geofences/${g.id}`)).status).toBe(400);
    expect((await admin.get(`/api/geofences/${g.id}`)).status).toBe(404);
  });

  it('validates name and area with readable 400s', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ area: 'CIRCLE (1 2, 10)' }, /^Name is required/],
      [{ name: '  ', area: 'CIRCLE (1 2, 10)' }, /^Name is required/],
      [{ name: 'A' }, /^Area is required/],
      [{ name: 'A', area: 'CIRCLE (1 2)' }, /^Invalid area/],
      [{ name: 'A', area: 'CIRCLE (95 2, 10)' }, /latitude 95 is out of range/],
      [{ name: 'A', area: 'CIRCLE (1 200, 10)' }, /longitude 200 is out of range/],
      [{ name: 'A', area: 'CIRCLE (1 2, 0)' }, /radius must be greater than 0/],
      [{ name: 'A', area: 'POLYGON ((1 2, 3 4))' }, /at least 3 points/],
      [{ name: 'A', area: 'LINESTRING (1 2)' }, /at least 2 points/],
      [{ name: 'A', area: 'hello' }, /^Invalid area/],
      [{ name: 'A', area: 'CIRCLE (1 2, 10)', attributes: [1] }, /attributes/],
      [[1, 2], /JSON object/],
    ];
    for (const [body, message] of cases) {
      const res = await admin.post('/api/geofences', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.text).toMatch(message);
    }
    const g = await create<Geofence>(admin, '/api/geofences', { name: 'Valid', area: 'LINESTRING (1 2, 3 4)' });
    const bad = await admin.put(`/api/geofences/${g.id}`, { area: 'POLYGON ((1 2))' });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/at least 3 points/);
  });

  it('lists with the extended parameters: all, userId, groupId, deviceId, keyword, paging, excludeAttributes', async () => {
    const { row: user, client } = await makeUser(server, 'geo-list@test');
    const other = await makeUser(server, 'geo-list-other@test');
    const group = await create<Group>(admin, '/api/groups', { name: 'Geo list group' });
    const device = await create<Device>(admin, '/api/devices', { name: 'Geo list device', uniqueId: 'geo-list-1', groupId: group.id });
    const a = await create<Geofence>(client, '/api/geofences', { name: 'Lg alpha', area: 'CIRCLE (1 2, 10)', attributes: { color: 'red' } });
    const b = await create<Geofence>(client, '/api/geofences', { name: 'Lg Bravo', area: 'CIRCLE (1 2, 10)' });
    const c = await create<Geofence>(other.client, '/api/geofences', { name: 'Lg charlie', area: 'CIRCLE (1 2, 10)' });
    expect((await admin.post('/api/permissions', { userId: user.id, groupId: group.id })).status).toBe(204);
    expect((await client.post('/api/permissions', { deviceId: device.id, geofenceId: a.id })).status).toBe(204);
    expect((await client.post('/api/permissions', { groupId: group.id, geofenceId: b.id })).status).toBe(204);

    const mine = await client.get<Geofence[]>('/api/geofences');
    expect(mine.status).toBe(200);
    expectArrayOf(mine.json, 'Geofence');
    expect(mine.json.map((g) => g.name)).toEqual(['Lg alpha', 'Lg Bravo']);
    // all=true: a non-admin gets his own; an admin every geofence (without it, only his links).
    expect(idsOf((await client.get<Geofence[]>('/api/geofences?all=true')).json)).toEqual([a.id, b.id]);
    expect(idsOf((await admin.get<Geofence[]>('/api/geofences')).json)).not.toContain(c.id);
    expect(idsOf((await admin.get<Geofence[]>('/api/geofences?all=true')).json)).toEqual(expect.arrayContaining([a.id, b.id, c.id]));
    // userId: the user himself, his manager or an admin; not someone else.
    expect(idsOf((await admin.get<Geofence[]>(`/api/geofences?userId=${other.row.id}`)).json)).toEqual([c.id]);
    expect((await client.get(`/api/geofences?userId=${other.row.id}`)).status).toBe(400);
    // groupId / deviceId: direct links of that group / device, within the caller's own.
    expect(idsOf((await client.get<Geofence[]>(`/api/geofences?deviceId=${device.id}`)).json)).toEqual([a.id]);
    expect(idsOf((await client.get<Geofence[]>(`/api/geofences?groupId=${group.id}`)).json)).toEqual([b.id]);
    expect((await other.client.get(`/api/geofences?deviceId=${device.id}`)).status).toBe(400);
    expect((await other.client.get(`/api/geofences?groupId=${group.id}`)).status).toBe(400);
    // keyword, paging, excludeAttributes.
    expect((await client.get<Geofence[]>('/api/geofences?keyword=BRAV')).json.map((g) => g.id)).toEqual([b.id]);
    expect((await client.get<Geofence[]>('/api/geofences?limit=1&offset=1')).json.map((g) => g.id)).toEqual([b.id]);
    const bare = await client.get<Geofence[]>('/api/geofences?excludeAttributes=true');
    expect(bare.json.find((g) => g.id === a.id)?.attributes).toEqual({});
    // Someone else's geofence cannot be read, changed, deleted or linked.
    expect((await client.get(`/api/geofences/${c.id}`)).status).toBe(400);
    expect((await client.put(`/api/geofences/${c.id}`, { name: 'x' })).status).toBe(400);
    expect((await client.delete(`/api/geofences/${c.id}`)).status).toBe(400);
    const refused = await client.post('/api/permissions', { deviceId: device.id, geofenceId: c.id });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/^Geofence access denied/);
    // Sharing it through a user link makes it visible.
    expect((await admin.post('/api/permissions', { userId: user.id, geofenceId: c.id })).status).toBe(204);
    expect((await client.get(`/api/geofences/${c.id}`)).status).toBe(200);
  });

  it('refuses writes from readonly accounts (user or server) but not from deviceReadonly ones', async () => {
    const ro = await makeUser(server, 'geo-ro@test', { readonly: 1 });
    const res = await ro.client.post('/api/geofences', { name: 'R', area: 'CIRCLE (1 2, 10)' });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^Account is readonly/);
    const dro = await makeUser(server, 'geo-dro@test', { deviceReadonly: 1 });
    expect((await dro.client.post('/api/geofences', { name: 'D', area: 'CIRCLE (1 2, 10)' })).status).toBe(200);
    const plain = await makeUser(server, 'geo-plain@test');
    const g = await create<Geofence>(plain.client, '/api/geofences', { name: 'P', area: 'CIRCLE (1 2, 10)' });
    await setServer(server, { readonly: 1 });
    try {
      expect((await plain.client.put(`/api/geofences/${g.id}`, { name: 'Q' })).status).toBe(400);
      expect((await plain.client.delete(`/api/geofences/${g.id}`)).status).toBe(400);
      expect((await plain.client.get(`/api/geofences/${g.id}`)).status).toBe(200);
    } finally {
      await setServer(server, { readonly: 0 });
    }
  });

  it('anchors: a circle with isAnchor and deviceId for a visible device, linked to it, then removed', async () => {
    const { row: user, client } = await makeUser(server, 'geo-anchor@test');
    const device = await create<Device>(admin, '/api/devices', { name: 'Anchored', uniqueId: 'geo-anchor-1' });
    const hidden = await create<Device>(admin, '/api/devices', { name: 'Hidden', uniqueId: 'geo-anchor-2' });
    expect((await admin.post('/api/permissions', { userId: user.id, deviceId: device.id })).status).toBe(204);
    // As the client does it: id -1, name "Ancora <device>", a 150 m circle around the position.
    const anchor = await create<Geofence>(client, '/api/geofences', {
      id: -1, name: 'Ancora Anchored', description: '', area: 'CIRCLE (-23.55052 -46.633308, 150)', calendarId: 0,
      attributes: { deviceId: device.id, isAnchor: true },
    });
    expect(anchor).toMatchObject({ description: null, calendarId: 0, attributes: { deviceId: device.id, isAnchor: true } });
    expect((await client.post('/api/permissions', { deviceId: device.id, geofenceId: anchor.id })).status).toBe(204);
    expect(idsOf((await client.get<Geofence[]>(`/api/geofences?deviceId=${device.id}`)).json)).toEqual([anchor.id]);
    // A device the caller does not see cannot be named.
    const refused = await client.post('/api/geofences', {
      name: 'Ancora Hidden', area: 'CIRCLE (1 2, 150)', attributes: { deviceId: hidden.id, isAnchor: true },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/^Device access denied/);
    expect((await client.put(`/api/geofences/${anchor.id}`, { attributes: { deviceId: hidden.id, isAnchor: true } })).status).toBe(400);
    expect((await client.post('/api/geofences', { name: 'x', area: 'CIRCLE (1 2, 1)', attributes: { deviceId: 'abc' } })).status).toBe(400);
    // Removing the anchor removes its links.
    expect((await client.delete(`/api/geofences/${anchor.id}`)).status).toBe(204);
    const links = await server.rastro.ctx.storage.db.selectFrom('deviceGeofence').selectAll().where('propertyId', '=', anchor.id).execute();
    expect(links).toEqual([]);
  });

  it('geofencesForDevice: linked to the device or its group chain (3 levels), never through users', async () => {
    const top = await create<Group>(admin, '/api/groups', { name: 'Geo top' });
    const mid = await create<Group>(admin, '/api/groups', { name: 'Geo mid', groupId: top.id });
    const low = await create<Group>(admin, '/api/groups', { name: 'Geo low', groupId: mid.id });
    const device = await create<Device>(admin, '/api/devices', { name: 'Geo proc', uniqueId: 'geo-proc-1', groupId: low.id });
    await addPosition(server, device.id);
    const mk = (name: string) => create<Geofence>(admin, '/api/geofences', { name, area: 'POLYGON ((0 0, 0 1, 1 1))', attributes: { speedLimit: 20 } });
    const own = await mk('own');
    const viaLow = await mk('via low');
    const viaTop = await mk('via top');
    const userOnly = await mk('user only');
    const unrelated = await mk('unrelated');
    for (const [body] of [
      [{ deviceId: device.id, geofenceId: own.id }],
      [{ groupId: low.id, geofenceId: viaLow.id }],
      [{ groupId: top.id, geofenceId: viaTop.id }],
    ] as const) {
      expect((await admin.post('/api/permissions', body)).status).toBe(204);
    }
    expect((await admin.post('/api/permissions', { userId: 1, geofenceId: userOnly.id })).status).toBe(204);
    const repo = new GeofencesRepo(server.rastro.ctx.storage.db);
    const applied = await repo.geofencesForDevice(device.id);
    expect(applied.map((g) => g.row.id)).toEqual([own.id, viaLow.id, viaTop.id]);
    expect(applied.map((g) => g.row.id)).not.toContain(unrelated.id);
    expect(applied[0]!.area).toEqual({ type: 'polygon', points: [[0, 0], [0, 1], [1, 1]] });
    expect(applied[0]!.attributes).toEqual({ speedLimit: 20 });
  });
});
