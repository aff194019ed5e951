// /api/users over real HTTP: registration, the list parameters, and who may change what.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { deriveErrorCode } from '@rastro/domain/errors';
import type { Server, User } from '@rastro/domain/entities';
import type { Change } from '../src/realtime/changes.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectArrayOf, expectSchema } from './openapi.ts';

describe.each(backends)('users (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  const changes: Change[] = [];

  async function create(fields: Record<string, unknown>, by: TestClient = admin): Promise<User> {
    const res = await by.post<User>('/api/users', { password: 'secret1', ...fields });
    expect(res.status, res.text).toBe(200);
    return res.json;
  }
  async function as(email: string, password = 'secret1'): Promise<TestClient> {
    const c = server.client();
    await c.login(email, password);
    return c;
  }
  async function setServer(fields: Partial<Server>): Promise<void> {
    const current = (await admin.get<Server>('/api/server')).json;
    expect((await admin.put('/api/server', { ...current, ...fields })).status).toBe(200);
  }
  async function managerLinks(managerId: number): Promise<number[]> {
    const rows = await server.rastro.ctx.storage.db.selectFrom('userUser').select('propertyId').where('ownerId', '=', managerId).execute();
    return rows.map((r) => Number(r.propertyId));
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    server.rastro.ctx.changes.on((c) => changes.push(c));
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('registration', () => {
    it('is refused while the server does not allow it', async () => {
      const res = await server.client().post('/api/users', { name: 'Visitor', email: 'visitor@example.com', password: 'secret1' });
      expect(res.status).toBe(400);
      expect(deriveErrorCode(res.text)).toBe('REGISTRATION_DISABLED');
    });

    it('creates a plain user whatever the body asks when registration is on', async () => {
      await setServer({ registration: true });
      const client = server.client();
      const res = await client.post<User>('/api/users', {
        name: 'Self Made', email: 'self@example.com', password: 'secret1', administrator: true, deviceLimit: 5, userLimit: 9,
        readonly: true, attributes: { 'tarkan.lang': 'es' },
      });
      expect(res.status, res.text).toBe(200);
      expectSchema(res.json, 'User');
      expect(res.json).toMatchObject({ administrator: false, deviceLimit: -1, userLimit: 0, readonly: false, password: null });
      expect(res.json.attributes).toEqual({ 'tarkan.lang': 'es' });
      const row = await server.rastro.ctx.users.findById(res.json.id);
      expect(row?.hashedPassword).toMatch(/^scrypt\$/);
      expect(row?.hashedPassword).not.toContain('secret1');
      await as('self@example.com');
      await setServer({ registration: false });
    });

    it('validates name, e-mail and password with clear messages', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ name: 'Al', email: 'al@example.com', password: 'secret1' }, /^Invalid name - /],
        [{ name: 'Alan', email: 'a@b', password: 'secret1' }, /^Invalid email - /],
        [{ name: 'Alan', email: 'alan@example.com', password: 'abc' }, /^Invalid password - /],
        [{ name: 'Alan', email: 'alan@example.com' }, /^Invalid password - /],
        [{ name: 'Alan', email: 'alan@example.com', password: 'secret1', administrator: 'yes' }, /^Invalid administrator - /],
        [{ name: 'Alan', email: 'alan@example.com', password: 'secret1', expirationTime: 'soon' }, /^Invalid expirationTime - /],
      ];
      for (const [body, message] of cases) {
        const res = await admin.post('/api/users', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.text).toMatch(message);
      }
      expect((await admin.post('/api/users', 'not json')).status).toBe(400);
    });

    it('refuses a duplicate e-mail or login, case-insensitively', async () => {
      await create({ name: 'Dup Original', email: 'dup@example.com', login: 'duplogin' });
      const again = await admin.post('/api/users', { name: 'Dup Copy', email: 'DUP@example.com', password: 'secret1' });
      expect(again.status).toBe(400);
      expect(again.text).toMatch(/^Duplicate email - /);
      const asLogin = await admin.post('/api/users', { name: 'Dup Copy', email: 'DupLogin', password: 'secret1' });
      expect(asLogin.status).toBe(400);
    });
  });

  describe('lists', () => {
    let manager: User;
    let managedA: User;
    let managedB: User;
    let managerClient: TestClient;

    beforeAll(async () => {
      manager = await create({ name: 'Manager Mona', email: 'mona@example.com', userLimit: 2 });
      managerClient = await as('mona@example.com');
      managedB = await create({ name: 'Zed Managed', email: 'zed@example.com' }, managerClient);
      managedA = await create({ name: 'Amy Managed', email: 'amy@example.com' }, managerClient);
    });

    it('links users created by a manager and enforces the user limit', async () => {
      expect((await managerLinks(manager.id)).sort()).toEqual([managedA.id, managedB.id].sort());
      const third = await managerClient.post('/api/users', { name: 'One Too Many', email: 'third@example.com', password: 'secret1' });
      expect(third.status).toBe(400);
      expect(third.text).toMatch(/^Manager user limit reached - /);
      // Admin-created users get no link.
      const plain = await create({ name: 'Admin Made', email: 'adminmade@example.com' });
      const links = await server.rastro.ctx.storage.db.selectFrom('userUser').select('ownerId').where('propertyId', '=', plain.id).execute();
      expect(links).toEqual([]);
      expect(changes).toContainEqual({ kind: 'user', id: plain.id });
    });

    it('gives users made by an administrator or a manager Traccar\'s defaults: no login, no device of their own', async () => {
      const plain = await create({ name: 'Default Dora', email: 'dora@example.com' });
      expect(plain).toMatchObject({ login: null, deviceLimit: 0, userLimit: 0, administrator: false });
      expect(managedA).toMatchObject({ login: null, deviceLimit: 0, userLimit: 0 });
      // deviceLimit 0: the user sees the devices linked to them but may add none.
      const refused = await (await as('dora@example.com')).post('/api/devices', { name: 'Not mine to add', uniqueId: 'dora-1' });
      expect(refused.status).toBe(400);
      expect(deriveErrorCode(refused.text)).toBe('USER_DEVICE_LIMIT_REACHED');
      // An administrator says otherwise explicitly.
      expect(await create({ name: 'Fleet Fiona', email: 'fiona@example.com', login: 'fiona', deviceLimit: -1 })).toMatchObject({ login: 'fiona', deviceLimit: -1 });
    });

    it('gives admins everyone, managers their users (not themselves), others nobody', async () => {
      const all = await admin.get<User[]>('/api/users');
      expect(all.status).toBe(200);
      expectArrayOf(all.json, 'User');
      expect(all.json.map((u) => u.email)).toEqual(expect.arrayContaining(['admin', 'mona@example.com', 'zed@example.com']));
      const names = all.json.map((u) => u.name);
      expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));

      const managed = await managerClient.get<User[]>('/api/users');
      expect(managed.json.map((u) => u.name)).toEqual(['Amy Managed', 'Zed Managed']);

      const amy = await as('amy@example.com');
      expect((await amy.get<User[]>('/api/users')).json).toEqual([]);
    });

    it('filters by userId with the right permission', async () => {
      const byAdmin = await admin.get<User[]>(`/api/users?userId=${manager.id}`);
      expect(byAdmin.json.map((u) => u.id).sort()).toEqual([managedA.id, managedB.id].sort());
      expect((await managerClient.get<User[]>(`/api/users?userId=${manager.id}`)).json).toHaveLength(2);
      const amy = await as('amy@example.com');
      expect((await amy.get(`/api/users?userId=${manager.id}`)).status).toBe(400);
      expect((await amy.get(`/api/users?userId=${managedA.id}`)).json).toEqual([]);
      // Text that is no number: Traccar's 404; a number out of range: a 400.
      expect((await admin.get('/api/users?userId=abc')).status).toBe(404);
      expect((await admin.get('/api/users?userId=-2')).status).toBe(400);
    });

    it('searches by keyword and pages with limit/offset', async () => {
      const byName = await admin.get<User[]>('/api/users?keyword=MANAGED');
      expect(byName.json.map((u) => u.name)).toEqual(['Amy Managed', 'Zed Managed']);
      const byEmail = await admin.get<User[]>('/api/users?keyword=zed@exa');
      expect(byEmail.json.map((u) => u.email)).toEqual(['zed@example.com']);
      const byLogin = await admin.get<User[]>('/api/users?keyword=duplog');
      expect(byLogin.json.map((u) => u.email)).toEqual(['dup@example.com']);
      const all = (await admin.get<User[]>('/api/users')).json;
      const page = await admin.get<User[]>('/api/users?limit=2&offset=1');
      expect(page.json.map((u) => u.id)).toEqual(all.slice(1, 3).map((u) => u.id));
      const rest = await admin.get<User[]>('/api/users?offset=2');
      expect(rest.json.map((u) => u.id)).toEqual(all.slice(2).map((u) => u.id));
    });

    it('lists the users linked to a device for managers who see it', async () => {
      const db = server.rastro.ctx.storage.db;
      await sql`INSERT INTO devices (name, "uniqueId") VALUES ('Car', 'users-test-car')`.execute(db);
      const device = await db.selectFrom('devices').select('id').where('uniqueId', '=', 'users-test-car').executeTakeFirstOrThrow();
      await db.insertInto('userDevice').values([{ ownerId: managedA.id, propertyId: device.id }]).execute();
      const byAdmin = await admin.get<User[]>(`/api/users?deviceId=${device.id}`);
      expect(byAdmin.json.map((u) => u.id)).toEqual([managedA.id]);
      // The manager sees the device through Amy, a user of its tree (issue 13: a manager sees its whole tree's devices).
      expect((await managerClient.get<User[]>(`/api/users?deviceId=${device.id}`)).json.map((u) => u.id)).toEqual([managedA.id]);
      // Not a device no one of its tree is linked to.
      await sql`INSERT INTO devices (name, "uniqueId") VALUES ('Other car', 'users-test-car-2')`.execute(db);
      const other = await db.selectFrom('devices').select('id').where('uniqueId', '=', 'users-test-car-2').executeTakeFirstOrThrow();
      expect((await managerClient.get(`/api/users?deviceId=${other.id}`)).status).toBe(400);
      await db.insertInto('userDevice').values([{ ownerId: manager.id, propertyId: device.id }]).execute();
      const byManager = await managerClient.get<User[]>(`/api/users?deviceId=${device.id}`);
      expect(byManager.json.map((u) => u.id).sort()).toEqual([manager.id, managedA.id].sort());
      const amy = await as('amy@example.com');
      expect((await amy.get(`/api/users?deviceId=${device.id}`)).status).toBe(400);
    });

    it('reads one user only with permission', async () => {
      expect((await managerClient.get<User>(`/api/users/${managedA.id}`)).json.email).toBe('amy@example.com');
      const self = await (await as('amy@example.com')).get<User>(`/api/users/${managedA.id}`);
      expect(self.status).toBe(200);
      expect((await (await as('amy@example.com')).get(`/api/users/${managedB.id}`)).status).toBe(400);
      expect((await managerClient.get('/api/users/1')).status).toBe(400);
      expect((await admin.get('/api/users/987654')).status).toBe(404);
      expect((await managerClient.get('/api/users/987654')).status).toBe(400);
    });

    it('lets a manager restrict a managed user but not raise limits or outlive themselves', async () => {
      const ok = await managerClient.put<User>(`/api/users/${managedA.id}`, { ...managedA, readonly: true, disableReports: true });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.json).toMatchObject({ readonly: true, disableReports: true });
      // Its own limit (2) is used up by its two users: nothing is left to give (issue 13: limits within its own).
      const limit = await managerClient.put(`/api/users/${managedA.id}`, { ...ok.json, userLimit: 5 });
      expect(limit.status).toBe(400);
      expect(deriveErrorCode(limit.text)).toBe('LIMIT_ABOVE_YOUR_OWN');
      expect((await managerClient.put(`/api/users/${managedA.id}`, { ...ok.json, administrator: true })).status).toBe(400);

      // A manager with an expiration cannot give a later one (or none).
      const expiry = new Date(Date.now() + 30 * 86_400_000).toISOString();
      await admin.put(`/api/users/${manager.id}`, { ...manager, expirationTime: expiry });
      const later = await managerClient.put(`/api/users/${managedA.id}`, { ...ok.json, expirationTime: '2099-01-01T00:00:00Z' });
      expect(later.status).toBe(400);
      expect(later.text).toMatch(/^Expiration time limit - /);
      const earlier = await managerClient.put<User>(`/api/users/${managedA.id}`, { ...ok.json, expirationTime: new Date(Date.now() + 86_400_000).toISOString() });
      expect(earlier.status).toBe(200);
      await admin.put(`/api/users/${manager.id}`, { ...manager, expirationTime: null });
    });
  });

  describe('changes by the user themselves', () => {
    it('allows settings but never own restrictions or limits', async () => {
      const user = await create({ name: 'Regular Rita', email: 'rita@example.com' });
      const rita = await as('rita@example.com');
      const renamed = await rita.put<User>(`/api/users/${user.id}`, { ...user, name: 'Rita Renamed', zoom: 9 });
      expect(renamed.status).toBe(200);
      expect(renamed.json).toMatchObject({ name: 'Rita Renamed', zoom: 9 });
      for (const field of [{ readonly: true }, { disabled: true }, { deviceLimit: 10 }, { userLimit: -1 }, { administrator: true }, { expirationTime: '2099-01-01T00:00:00Z' }]) {
        const res = await rita.put(`/api/users/${user.id}`, { ...renamed.json, ...field });
        expect(res.status, JSON.stringify(field)).toBe(400);
      }
      expect((await rita.put(`/api/users/${user.id}`, { ...renamed.json, name: 'Ri' })).status).toBe(400);
    });

    it('keeps a fixed e-mail unless an administrator changes it', async () => {
      const user = await create({ name: 'Fixed Fred', email: 'fred@example.com', fixedEmail: true });
      const fred = await as('fred@example.com');
      const res = await fred.put(`/api/users/${user.id}`, { ...user, email: 'fred2@example.com' });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/^Email is fixed - /);
      expect((await fred.put(`/api/users/${user.id}`, { ...user, name: 'Fixed Freddy' })).status).toBe(200);
      expect((await admin.put<User>(`/api/users/${user.id}`, { ...user, email: 'fred2@example.com' })).json.email).toBe('fred2@example.com');
    });

    it('hashes a new password and ends the other sessions', async () => {
      const user = await create({ name: 'Pass Paula', email: 'paula@example.com' });
      const here = await as('paula@example.com');
      const elsewhere = await as('paula@example.com');
      const res = await here.put<User>(`/api/users/${user.id}`, { ...user, password: 'brand-new' });
      expect(res.status).toBe(200);
      expect(res.json.password).toBeNull();
      expect((await here.get('/api/session')).status).toBe(200);
      expect((await elsewhere.get('/api/session')).status).toBe(404);
      await as('paula@example.com', 'brand-new');
      const old = await server.client().post('/api/session', new URLSearchParams({ email: 'paula@example.com', password: 'secret1' }));
      expect(old.status).toBe(401);
      const short = await here.put(`/api/users/${user.id}`, { ...user, password: 'abc' });
      expect(short.status).toBe(400);
    });
  });

  describe('readonly', () => {
    it('refuses changes by readonly users except push tokens and terms on themselves', async () => {
      const user = await create({ name: 'Read Only Rob', email: 'rob@example.com', readonly: true });
      const rob = await as('rob@example.com');
      const rename = await rob.put(`/api/users/${user.id}`, { ...user, name: 'Robert' });
      expect(rename.status).toBe(400);
      expect(deriveErrorCode(rename.text)).toBe('ACCOUNT_IS_READONLY');
      const tokens = await rob.put<User>(`/api/users/${user.id}`, {
        ...user, attributes: { ...user.attributes, notificationTokens: 'abc', termsAccepted: true },
      });
      expect(tokens.status, tokens.text).toBe(200);
      expect(tokens.json.attributes).toMatchObject({ notificationTokens: 'abc', termsAccepted: true });
      const other = await rob.put(`/api/users/${user.id}`, { ...tokens.json, attributes: { ...tokens.json.attributes, color: 'red' } });
      expect(other.status).toBe(400);
      expect((await rob.put(`/api/users/${user.id}`, { ...tokens.json, password: 'newpass' })).status).toBe(400);
    });

    it('refuses readonly managers and honours the server-wide readonly flag', async () => {
      await create({ name: 'Readonly Manager', email: 'rom@example.com', readonly: true, userLimit: 3 });
      const rom = await as('rom@example.com');
      const res = await rom.post('/api/users', { name: 'Not Allowed', email: 'na@example.com', password: 'secret1' });
      expect(res.status).toBe(400);
      expect(deriveErrorCode(res.text)).toBe('ACCOUNT_IS_READONLY');

      const user = await create({ name: 'Server Ro', email: 'sro@example.com' });
      const sro = await as('sro@example.com');
      await setServer({ readonly: true });
      const blocked = await sro.put(`/api/users/${user.id}`, { ...user, name: 'Server Ro 2' });
      expect(blocked.status).toBe(400);
      expect(deriveErrorCode(blocked.text)).toBe('ACCOUNT_IS_READONLY');
      // Administrators are never restricted.
      expect((await admin.put(`/api/users/${user.id}`, { ...user, name: 'Server Ro 3' })).status).toBe(200);
      await setServer({ readonly: false });
      expect((await sro.put(`/api/users/${user.id}`, { ...user, name: 'Server Ro 4' })).status).toBe(200);
    });
  });

  describe('hierarchy and deletion', () => {
    it('protects superior administrators and administrators from non-admins', async () => {
      const second = await create({ name: 'Second Admin', email: 'admin2@example.com', administrator: true });
      const admin2 = await as('admin2@example.com');
      const first = (await admin.get<User>('/api/session')).json;
      const edit = await admin2.put(`/api/users/${first.id}`, { ...first, name: 'Renamed' });
      expect(edit.status).toBe(400);
      expect(edit.text).toMatch(/^Superior administrator - /);
      expect((await admin2.delete(`/api/users/${first.id}`)).status).toBe(400);
      // The first administrator may edit the later one.
      expect((await admin.put(`/api/users/${second.id}`, { ...second, phone: '+55 11 5555' })).status).toBe(200);

      // A manager linked to an administrator still cannot touch them.
      const boss = await create({ name: 'Sneaky Manager', email: 'sneaky@example.com', userLimit: 5 });
      await server.rastro.ctx.storage.db.insertInto('userUser').values({ ownerId: boss.id, propertyId: second.id }).execute();
      const sneaky = await as('sneaky@example.com');
      expect((await sneaky.put(`/api/users/${second.id}`, { ...second, name: 'Hacked' })).status).toBe(400);
      expect((await sneaky.delete(`/api/users/${second.id}`)).status).toBe(400);
    });

    it('keeps at least one administrator', async () => {
      const admins = (await admin.get<User[]>('/api/users')).json.filter((u) => u.administrator);
      const me = (await admin.get<User>('/api/session')).json;
      if (admins.length === 1) {
        const res = await admin.put(`/api/users/${me.id}`, { ...me, administrator: false });
        expect(res.status).toBe(400);
        expect(res.text).toMatch(/^Last administrator - /);
      } else {
        // Demote the others first, then the last one is refused.
        for (const other of admins.filter((u) => u.id !== me.id)) {
          expect((await admin.put(`/api/users/${other.id}`, { ...other, administrator: false })).status).toBe(200);
        }
        const res = await admin.put(`/api/users/${me.id}`, { ...me, administrator: false });
        expect(res.status).toBe(400);
        expect(res.text).toMatch(/^Last administrator - /);
      }
    });

    it('deletes a user (204), ending their sessions; nobody deletes themselves', async () => {
      const user = await create({ name: 'Doomed Dan', email: 'dan@example.com' });
      const dan = await as('dan@example.com');
      expect((await dan.delete(`/api/users/${user.id}`)).status).toBe(400);
      const me = (await admin.get<User>('/api/session')).json;
      const self = await admin.delete(`/api/users/${me.id}`);
      expect(self.status).toBe(400);
      expect(self.text).toMatch(/^Cannot delete yourself - /);

      const res = await admin.delete(`/api/users/${user.id}`);
      expect(res.status).toBe(204);
      expect((await dan.get('/api/session')).status).toBe(404);
      expect((await admin.get(`/api/users/${user.id}`)).status).toBe(404);
      expect(changes).toContainEqual({ kind: 'userRemoved', id: user.id });
      const sessions = await server.rastro.ctx.storage.db.selectFrom('sessions').select('id').where('userId', '=', user.id).execute();
      expect(sessions).toEqual([]);
    });

    it('lets a manager delete a managed user but not others', async () => {
      await create({ name: 'Deleting Manager', email: 'delman@example.com', userLimit: 3 });
      const delman = await as('delman@example.com');
      const mine = await create({ name: 'Mine To Delete', email: 'mine@example.com' }, delman);
      const notMine = await create({ name: 'Not Mine', email: 'notmine@example.com' });
      expect((await delman.delete(`/api/users/${notMine.id}`)).status).toBe(400);
      expect((await delman.delete(`/api/users/${mine.id}`)).status).toBe(204);
    });
  });
});

describe.each(backends)('first user (%s)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('makes the first registered user the administrator, even with registration off', async () => {
    await server.rastro.ctx.storage.db.deleteFrom('users').execute();
    const before = await server.client().get<Server>('/api/server');
    expect(before.json.newServer).toBe(true);
    const res = await server.client().post<User>('/api/users', { name: 'First Person', email: 'first@example.com', password: 'secret1' });
    expect(res.status, res.text).toBe(200);
    expect(res.json.administrator).toBe(true);
    expect((await server.client().get<Server>('/api/server')).json.newServer).toBe(false);
    const second = await server.client().post('/api/users', { name: 'Second Person', email: 'second@example.com', password: 'secret1' });
    expect(second.status).toBe(400);
    expect(deriveErrorCode(second.text)).toBe('REGISTRATION_DISABLED');
  });
});
