// /api/session over real HTTP: form and JSON login, the cookie, token login, logout, API
// tokens, Basic/Bearer headers, the Origin check and "login as".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveErrorCode } from '@rastro/domain/errors';
import type { User } from '@rastro/domain/entities';
import { ADMIN_PASSWORD, backends, startTestServer, TestClient, type TestServer } from './harness.ts';
import { expectSchema } from './openapi.ts';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe.each(backends)('sessions (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;

  async function createUser(fields: Record<string, unknown>): Promise<User> {
    const res = await admin.post<User>('/api/users', { password: 'secret1', ...fields });
    expect(res.status, res.text).toBe(200);
    return res.json;
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    await createUser({ name: 'Maria Silva', email: 'maria@example.com', login: 'maria' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('logs in with a form, sets an HttpOnly SameSite=Lax JSESSIONID cookie and returns the user', async () => {
    const client = server.client();
    const res = await client.post<User>('/api/session', new URLSearchParams({ email: '  MARIA@Example.com ', password: 'secret1' }));
    expect(res.status).toBe(200);
    expect(res.json.email).toBe('maria@example.com');
    expect(res.json.password).toBeNull();
    expect(res.json).not.toHaveProperty('hashedPassword');
    expectSchema(res.json, 'User');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^JSESSIONID=[A-Za-z0-9_-]{16,}/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    const again = await client.get<User>('/api/session');
    expect(again.status).toBe(200);
    expect(again.json.id).toBe(res.json.id);
  });

  it('matches the login column too and accepts a JSON body', async () => {
    const client = server.client();
    const res = await client.post<User>('/api/session', { email: 'Maria', password: 'secret1' });
    expect(res.status).toBe(200);
    expect(res.json.login).toBe('maria');
    expect((await client.get('/api/session')).status).toBe(200);
  });

  it('stores the new session with the request Origin', async () => {
    const client = server.client();
    const origin = server.url;
    await client.post('/api/session', new URLSearchParams({ email: 'maria', password: 'secret1' }), { origin });
    const id = client.cookie!.split('=')[1]!;
    const row = await server.rastro.ctx.storage.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.origin).toBe(origin);
    expect(row.expiration).toBeNull();
  });

  it('answers 404 to GET /api/session without a session', async () => {
    const res = await server.client().get('/api/session');
    expect(res.status).toBe(404);
  });

  it('refuses bad credentials, disabled and expired accounts with catalogue texts', async () => {
    const client = server.client();
    const bad = await client.post('/api/session', new URLSearchParams({ email: 'maria', password: 'wrong' }));
    expect(bad.status).toBe(401);
    expect(deriveErrorCode(bad.text)).toBe('HTTP_401_UNAUTHORIZED');
    expect(bad.headers.get('set-cookie')).toBeNull();

    const unknown = await client.post('/api/session', new URLSearchParams({ email: 'nobody@x.com', password: 'secret1' }));
    expect(unknown.status).toBe(401);
    expect(deriveErrorCode(unknown.text)).toBe('HTTP_401_UNAUTHORIZED');

    await createUser({ name: 'Disabled One', email: 'disabled@example.com', disabled: true });
    const disabled = await client.post('/api/session', new URLSearchParams({ email: 'disabled@example.com', password: 'secret1' }));
    expect(disabled.status).toBe(401);
    expect(deriveErrorCode(disabled.text)).toBe('ACCOUNT_IS_DISABLED');

    await createUser({ name: 'Expired One', email: 'expired@example.com', expirationTime: '2020-01-01T00:00:00Z' });
    const expired = await client.post('/api/session', new URLSearchParams({ email: 'expired@example.com', password: 'secret1' }));
    expect(expired.status).toBe(401);
    expect(deriveErrorCode(expired.text)).toBe('ACCOUNT_IS_BLOCKED');

    const missing = await client.post('/api/session', new URLSearchParams({ email: 'maria' }));
    expect(missing.status).toBe(400);
    expect(deriveErrorCode(missing.text)).toBe('FILL_ALL_FIELDS');
  });

  it('ends a session whose user gets disabled', async () => {
    const user = await createUser({ name: 'Soon Disabled', email: 'soon@example.com' });
    const client = server.client();
    await client.login('soon@example.com', 'secret1');
    expect((await admin.put(`/api/users/${user.id}`, { ...user, disabled: true })).status).toBe(200);
    const res = await client.get('/api/users');
    expect(res.status).toBe(401);
    expect(deriveErrorCode(res.text)).toBe('ACCOUNT_IS_DISABLED');
  });

  it('logs out with DELETE: 204, the session row is gone and the cookie no longer works', async () => {
    const client = server.client();
    await client.login('maria', 'secret1');
    const cookie = client.cookie!;
    const id = cookie.split('=')[1]!;
    const res = await client.delete('/api/session');
    expect(res.status).toBe(204);
    const row = await server.rastro.ctx.storage.db.selectFrom('sessions').select('id').where('id', '=', id).executeTakeFirst();
    expect(row).toBeUndefined();
    const stale = new TestClient(server.url);
    stale.cookie = cookie;
    expect((await stale.get('/api/session')).status).toBe(404);
    expect((await stale.get('/api/users')).status).toBe(401);
  });

  it('issues a token that logs in with ?token= into a cookie session expiring with the token', async () => {
    const client = server.client();
    await client.login('maria', 'secret1');
    const expiration = new Date(Date.now() + 3_600_000);
    expiration.setMilliseconds(0);
    const tokenRes = await client.post('/api/session/token', new URLSearchParams({ expiration: expiration.toISOString() }));
    expect(tokenRes.status).toBe(200);
    expect(tokenRes.headers.get('content-type')).toMatch(/text\/plain/);
    const token = tokenRes.text;
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const other = server.client();
    const login = await other.get<User>(`/api/session?token=${token}`);
    expect(login.status).toBe(200);
    expect(login.json.email).toBe('maria@example.com');
    const id = other.cookie!.split('=')[1]!;
    const row = await server.rastro.ctx.storage.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.expiration).toBe(expiration.getTime());
    expect((await other.get('/api/session')).status).toBe(200);

    // A token asked from that session cannot outlive it.
    const longer = await other.post('/api/session/token', new URLSearchParams({ expiration: '2099-01-01T00:00:00Z' }));
    expect(longer.status).toBe(200);
    expect(server.rastro.ctx.tokens.inspect(longer.text)?.expiration).toBe(expiration.getTime());
  });

  it('defaults token expiry to 7 days and refuses a bad or past expiration', async () => {
    const client = server.client();
    await client.login('maria', 'secret1');
    const res = await client.post('/api/session/token');
    expect(res.status).toBe(200);
    const exp = server.rastro.ctx.tokens.inspect(res.text)!.expiration;
    expect(Math.abs(exp - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
    expect((await client.post('/api/session/token', new URLSearchParams({ expiration: 'tomorrow' }))).status).toBe(400);
    expect((await client.post('/api/session/token', new URLSearchParams({ expiration: '2001-01-01T00:00:00Z' }))).status).toBe(400);
  });

  it('refuses bad, revoked and expired tokens with INVALID_LOGIN_DATA', async () => {
    const client = server.client();
    await client.login('maria', 'secret1');
    const token = (await client.post('/api/session/token')).text;
    const bad = await server.client().get('/api/session?token=not-a-real-token');
    expect(bad.status).toBe(401);
    expect(deriveErrorCode(bad.text)).toBe('INVALID_LOGIN_DATA');

    // Another user cannot revoke it; the owner can.
    const stranger = server.client();
    await createUser({ name: 'Stranger', email: 'stranger@example.com' });
    await stranger.login('stranger@example.com', 'secret1');
    expect((await stranger.post('/api/session/token/revoke', new URLSearchParams({ token }))).status).toBe(400);
    expect((await server.client().get(`/api/session?token=${token}`)).status).toBe(200);
    const revoke = await client.post('/api/session/token/revoke', new URLSearchParams({ token }));
    expect(revoke.status).toBe(204);
    const after = await server.client().get(`/api/session?token=${token}`);
    expect(after.status).toBe(401);
    expect(deriveErrorCode(after.text)).toBe('INVALID_LOGIN_DATA');
    const bearer = await server.client().get('/api/users', { authorization: `Bearer ${token}` });
    expect(bearer.status).toBe(401);

    const user = await server.rastro.ctx.users.findByLogin('maria');
    const old = server.rastro.ctx.tokens.issue(user!.id, Date.now() - 1000);
    const expired = await server.client().get(`/api/session?token=${old}`);
    expect(expired.status).toBe(401);
    expect(deriveErrorCode(expired.text)).toBe('INVALID_LOGIN_DATA');
  });

  it('accepts Basic and Bearer headers without creating sessions', async () => {
    const countSessions = async () =>
      Number((await server.rastro.ctx.storage.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await countSessions();
    const viaBasic = await server.client().get<User>('/api/session', { authorization: basic('admin', ADMIN_PASSWORD) });
    expect(viaBasic.status).toBe(200);
    expect(viaBasic.json.administrator).toBe(true);
    expect(viaBasic.headers.get('set-cookie')).toBeNull();
    const users = await server.client().get<User[]>('/api/users', { authorization: basic('maria@example.com', 'secret1') });
    expect(users.status).toBe(200);
    const wrong = await server.client().get('/api/users', { authorization: basic('admin', 'nope') });
    expect(wrong.status).toBe(401);
    expect(deriveErrorCode(wrong.text)).toBe('HTTP_401_UNAUTHORIZED');

    const token = (await admin.post('/api/session/token')).text;
    const viaBearer = await server.client().get<User>('/api/session', { authorization: `Bearer ${token}` });
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.json.email).toBe('admin');
    expect(viaBearer.headers.get('set-cookie')).toBeNull();
    expect((await server.client().get('/api/users', { authorization: 'Bearer garbage-token-value' })).status).toBe(401);
    expect((await server.client().get('/api/users', { authorization: 'Digest abc' })).status).toBe(401);
    expect(await countSessions()).toBe(before);
  });

  it('refuses a cookie session used from a foreign Origin and accepts the same host', async () => {
    const client = server.client();
    await client.login('maria', 'secret1'); // saved without an Origin: the Host is compared
    const foreign = await client.get('/api/users', { origin: 'https://evil.example.net' });
    expect(foreign.status).toBe(401);
    const same = await client.get('/api/users', { origin: server.url });
    expect(same.status).toBe(200);

    const pinned = server.client();
    await pinned.post('/api/session', new URLSearchParams({ email: 'maria', password: 'secret1' }), { origin: server.url });
    expect((await pinned.get('/api/users', { origin: server.url })).status).toBe(200);
    expect((await pinned.get('/api/users', { origin: 'http://127.0.0.1:1' })).status).toBe(401);
    expect((await pinned.get('/api/users')).status).toBe(200);
  });

  it('lets an administrator or a manager log in as a user they manage', async () => {
    const managerUser = await createUser({ name: 'Manager Max', email: 'max@example.com', userLimit: 5 });
    const manager = server.client();
    await manager.login('max@example.com', 'secret1');
    const managed = await manager.post<User>('/api/users', { name: 'Managed Mia', email: 'mia@example.com', password: 'secret1' });
    expect(managed.status).toBe(200);

    const asMia = await manager.get<User>(`/api/session/${managed.json.id}`);
    expect(asMia.status).toBe(200);
    expect(asMia.json.email).toBe('mia@example.com');
    expect((await manager.get<User>('/api/session')).json.id).toBe(managed.json.id);

    const manager2 = server.client();
    await manager2.login('max@example.com', 'secret1');
    const maria = await server.rastro.ctx.users.findByLogin('maria');
    expect((await manager2.get(`/api/session/${maria!.id}`)).status).toBe(400);
    expect((await manager2.get('/api/session/1')).status).toBe(400);

    const regular = server.client();
    await regular.login('maria', 'secret1');
    expect((await regular.get(`/api/session/${managerUser.id}`)).status).toBe(400);

    const adminAs = await server.admin();
    const res = await adminAs.get<User>(`/api/session/${maria!.id}`);
    expect(res.status).toBe(200);
    expect((await adminAs.get<User>('/api/session')).json.email).toBe('maria@example.com');
    expect((await (await server.admin()).get('/api/session/999999')).status).toBe(404);
  });
});
