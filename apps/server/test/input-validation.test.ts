// Input hardening over real HTTP, one test per finding of the issue: every body is read by the
// domain's zod schemas, JSON is depth- and surrogate-checked before parsing, forms and queries
// must be well-formed, empty updates are refused, OsmAnd reports out of range are refused, and
// a stored value that cannot be shown never breaks a list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Position, User } from '@rastro/domain/entities';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { addPosition, create, link, makeUser, type TestUser } from './visibility-fixtures.ts';
import { countPositions, createDevice, osmand, postJson } from './ingest-helpers.ts';

const UNREPRESENTABLE = 8640000000000001;

describe.each(backends)('input validation (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestUser;
  let device: Device;

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    // An ordinary user with a manager above them (both see the device).
    const manager = await makeUser(server, 'iv-manager@test', { userLimit: 5 });
    user = await makeUser(server, 'iv-user@test');
    await link(server, 'userUser', manager.row.id, user.row.id);
    device = await create<Device>(user.client, '/api/devices', { name: 'Own', uniqueId: 'iv-own' });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function listsStillWork(): Promise<void> {
    for (const client of [admin, user.client]) {
      const res = await client.get('/api/devices?all=true');
      expect(res.status, res.text).toBe(200);
    }
  }

  it('an ordinary user cannot store an unrepresentable expirationTime; lists keep working', async () => {
    for (const expirationTime of [UNREPRESENTABLE, -1e30, 1e308, 1.5, '2025-02-30T10:00:00Z', '+275760-09-13T00:00:00.001Z']) {
      const res = await user.client.put(`/api/devices/${device.id}`, { ...device, expirationTime });
      expect(res.status, String(expirationTime)).toBe(400);
      expect(res.text.split('\n')[0]).toMatch(/^Invalid expirationTime - /);
    }
    const row = await server.rastro.ctx.storage.db.selectFrom('devices').select('expirationTime').where('id', '=', device.id).executeTakeFirstOrThrow();
    expect(row.expirationTime).toBeNull();
    await listsStillWork();
  });

  it('a stored value no date can hold is shown as null and never breaks a list', async () => {
    const db = server.rastro.ctx.storage.db;
    const broken = await create<Device>(admin, '/api/devices', { name: 'Broken', uniqueId: 'iv-broken' });
    await db.updateTable('devices').set({ expirationTime: UNREPRESENTABLE }).where('id', '=', broken.id).execute();
    const list = await admin.get<Device[]>('/api/devices?all=true');
    expect(list.status, list.text).toBe(200);
    expect(list.json.find((d) => d.id === broken.id)?.expirationTime).toBeNull();
    expect((await admin.get<Device>(`/api/devices/${broken.id}`)).json.expirationTime).toBeNull();

    const odd = await makeUser(server, 'iv-odd@test');
    await db.updateTable('users').set({ expirationTime: -UNREPRESENTABLE }).where('id', '=', odd.row.id).execute();
    const users = await admin.get<User[]>('/api/users');
    expect(users.status, users.text).toBe(200);
    expect(users.json.find((u) => u.id === odd.row.id)?.expirationTime).toBeNull();

    // Attributes nested too deep for the answer's serialisation read as {}.
    const deep = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    await db.updateTable('devices').set({ attributes: deep }).where('id', '=', broken.id).execute();
    const again = await admin.get<Device[]>('/api/devices?all=true');
    expect(again.status, again.text).toBe(200);
    expect(again.json.find((d) => d.id === broken.id)?.attributes).toEqual({});

    const position = await addPosition(server, broken.id, { fixTime: -UNREPRESENTABLE });
    const positions = await admin.get<Position[]>(`/api/positions?id=${position.id}`);
    expect(positions.status, positions.text).toBe(200);
    expect(positions.json[0]?.fixTime).toBeNull();
  });

  it('impossible dates are refused, not shifted into the next month', async () => {
    const res = await admin.post('/api/devices', { name: 'Feb', uniqueId: 'iv-feb', expirationTime: '2025-02-30T10:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.text).toBe('Invalid expirationTime - not a real date or time of day');
    const leap = await admin.post<Device>('/api/devices', { name: 'Leap', uniqueId: 'iv-leap', expirationTime: '2028-02-29T10:00:00Z' });
    expect(leap.json.expirationTime).toBe('2028-02-29T10:00:00.000+00:00');
    const report = await admin.get(`/api/reports/route?deviceId=${device.id}&from=2025-02-30T00:00:00Z&to=2025-03-03T00:00:00Z`);
    expect(report.status).toBe(400);
    expect(report.text).toMatch(/^Invalid from/);
  });

  it('JSON nested 10,000 deep is refused with a 400 before parsing; a body over the limit gets 413', async () => {
    const deep = `{"name":"d","uniqueId":"iv-deep","attributes":{"a":${'['.repeat(10_000)}1${']'.repeat(10_000)}}}`;
    const res = await admin.post('/api/devices', deep);
    expect(res.status).toBe(400);
    expect(res.text).toBe('Invalid body - JSON nested deeper than 64 levels');
    const big = await admin.post('/api/devices', JSON.stringify({ name: 'b', uniqueId: 'iv-big', attributes: { x: 'x'.repeat(1024 * 1024) } }));
    expect(big.status).toBe(413);
    expect(big.text).toMatch(/too large/i);
    expect((await admin.get<Device[]>('/api/devices?all=true')).json.some((d) => d.uniqueId === 'iv-deep' || d.uniqueId === 'iv-big')).toBe(false);
  });

  it('a lone UTF-16 surrogate is refused with a 400 naming the field; a proper pair is kept', async () => {
    const lone = await admin.post('/api/devices', '{"name":"d\\ud800","uniqueId":"iv-sur"}');
    expect(lone.status).toBe(400);
    expect(lone.text).toBe('Invalid name - the text holds an unpaired UTF-16 surrogate');
    const nested = await admin.post('/api/devices', '{"name":"d","uniqueId":"iv-sur","attributes":{"note":["x","\\udc00"]}}');
    expect(nested.text).toBe('Invalid attributes.note[1] - the text holds an unpaired UTF-16 surrogate');
    const pair = await admin.post<Device>('/api/devices', '{"name":"d\\ud83d\\ude9a","uniqueId":"iv-sur"}');
    expect(pair.status, pair.text).toBe(200);
    expect(pair.json.name).toBe('d🚚');
    // Not valid UTF-8 at all, and a NUL (PostgreSQL text cannot hold it).
    const bytes = await fetch(`${server.url}/api/devices`, {
      method: 'POST', headers: { cookie: admin.cookie!, 'content-type': 'application/json' }, body: Buffer.from('{"name":"\xff","uniqueId":"x"}', 'latin1'),
    });
    expect(bytes.status).toBe(400);
    expect(await bytes.text()).toMatch(/^Invalid body - .*UTF-8/);
    const nul = await admin.post('/api/devices', { name: 'a\u0000b', uniqueId: 'iv-nul' });
    expect(nul.text).toMatch(/^Invalid name - .*NUL/);
  });

  it('prototype keys in JSON are refused; in forms and queries they are plain keys', async () => {
    const proto = await admin.post('/api/devices', '{"name":"p","uniqueId":"iv-proto","__proto__":{"administrator":true}}');
    expect(proto.status).toBe(400);
    const ctor = await admin.post('/api/devices', '{"name":"p","uniqueId":"iv-proto","constructor":{"prototype":{"x":1}}}');
    expect(ctor.status).toBe(400);
    const form = await server.client().post('/api/session', new URLSearchParams([['__proto__', 'x'], ['email', 'nobody'], ['password', 'nope']]));
    expect(form.status).toBe(401);
    expect(({} as Record<string, unknown>).administrator).toBeUndefined();
  });

  it('malformed percent-encoding in a form or a query string is refused, naming the parameter', async () => {
    const form = await fetch(`${server.url}/api/session`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=%ED%A0%80&password=x',
    });
    expect(form.status).toBe(400);
    expect(await form.text()).toBe('Invalid email - malformed percent-encoding, UTF-8 is expected');
    const query = await admin.get('/api/devices?keyword=%ZZ');
    expect(query.status).toBe(400);
    expect(query.text).toMatch(/^Invalid keyword - malformed percent-encoding/);
    const fine = await admin.get('/api/devices?keyword=%F0%9F%9A%9A');
    expect(fine.status).toBe(200);
  });

  it('a NUL in a query, a form or a JSON text is refused with 400 (PostgreSQL cannot hold it)', async () => {
    const query = await user.client.get('/api/devices?uniqueId=%00');
    expect(query.status).toBe(400);
    expect(query.text).toBe('Invalid uniqueId - the text holds a NUL character');
    const login = await server.client().request('POST', '/api/session', 'email=%00&password=admin', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(login.status).toBe(400);
    const reset = await server.client().post('/api/password/reset', { email: 'a\u0000' });
    expect(reset.status).toBe(400);
    expect(reset.text).toBe('Invalid email - the text holds a NUL character');
  });

  it('an update with no writable field is refused with 400; the same values again are not empty', async () => {
    const server0 = await admin.put('/api/server', {});
    expect(server0.status).toBe(400);
    expect(server0.text).toMatch(/^Nothing to update - /);
    const current = await admin.get<Record<string, unknown>>('/api/server');
    const same = await admin.put('/api/server', current.json);
    expect(same.status, same.text).toBe(200);

    const group = await create<{ id: number }>(admin, '/api/groups', { name: 'G' });
    const geofence = await create<{ id: number }>(admin, '/api/geofences', { name: 'F', area: 'CIRCLE (1 2, 30)' });
    const command = await create<{ id: number }>(admin, '/api/commands', { type: 'custom', attributes: { data: 'x' } });
    for (const path of [`/api/devices/${device.id}`, `/api/groups/${group.id}`, `/api/geofences/${geofence.id}`, `/api/commands/${command.id}`, `/api/users/${user.row.id}`]) {
      const empty = await admin.put(path, { id: 1, unknownField: true });
      expect(empty.status, path).toBe(400);
      expect(empty.text, path).toMatch(/^Nothing to update - /);
      const whole = await admin.get<Record<string, unknown>>(path);
      const again = await admin.put(path, whole.json);
      expect(again.status, `${path} ${again.text}`).toBe(200);
    }
  });

  it('OsmAnd reports out of range get a 400 and store nothing (query and JSON forms)', async () => {
    await createDevice(server, 'iv-osm');
    const before = await countPositions(server);
    for (const path of [
      '/?id=iv-osm&lat=1&lon=2&timestamp=-1e30',
      '/?id=iv-osm&lat=1&lon=2&speed=1e308',
      '/?id=iv-osm&lat=1&lon=2&bearing=720',
      '/?id=iv-osm&lat=1&lon=2&altitude=-1e30',
      '/?id=iv-osm&lat=1&lon=2&batt=250',
      '/?id=iv-osm&lat=1&lon=2&timestamp=2025-02-30T10:00:00Z',
    ]) {
      const res = await osmand(server, path);
      expect(res.status, path).toBe(400);
      expect(res.text, path).toMatch(/^Invalid /);
    }
    for (const body of [
      { device_id: 'iv-osm', location: { timestamp: '1900-01-01T00:00:00Z', coords: { latitude: 1, longitude: 2 } } },
      { device_id: 'iv-osm', location: { coords: { latitude: 1, longitude: 2, speed: 1e308 } } },
      { device_id: 'iv-osm', location: { coords: { latitude: 1, longitude: 2, altitude: 1e12 } } },
    ]) {
      const res = await postJson(server, JSON.stringify(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await countPositions(server)).toBe(before);
    expect((await osmand(server, '/?id=iv-osm&lat=1&lon=2&speed=999&timestamp=2030-01-01T00:00:00Z')).status).toBe(200);
  });
});
