// Login tokens are bounded: a maximum lifetime (RASTRO_TOKEN_MAX_DAYS), death on a password
// change, death with the token they were made from (child tokens, and cookie sessions opened
// with ?token=), at once despite the session cache.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveErrorCode } from '@rastro/domain/errors';
import type { User } from '@rastro/domain/entities';
import { backends, startTestServer, TestClient, type TestServer } from './harness.ts';

const DAY_MS = 86_400_000;

describe.each(backends)('login token bounds (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let counter = 0;

  /** A new user logged in with a password (cookie session). */
  async function newUser(): Promise<{ user: User; client: TestClient; email: string }> {
    const email = `tok${++counter}-${backend}@example.com`;
    const res = await admin.post<User>('/api/users', { name: email, email, password: 'secret1' });
    expect(res.status, res.text).toBe(200);
    const client = server.client();
    await client.login(email, 'secret1');
    return { user: res.json, client, email };
  }
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const works = async (token: string) => (await server.client().get('/api/session', bearer(token))).status === 200;
  const tokenFrom = async (client: TestClient, headers: Record<string, string> = {}) => {
    const res = await client.post('/api/session/token', undefined, headers);
    expect(res.status, res.text).toBe(200);
    return res.text;
  };
  /** A cookie session opened with ?token=. */
  const sessionFrom = async (token: string) => {
    const client = server.client();
    expect((await client.get(`/api/session?token=${token}`)).status).toBe(200);
    return client;
  };

  /** A token signed with the server's own key, whatever its payload. */
  async function signRaw(body: Record<string, unknown>): Promise<string> {
    const row = await server.rastro.ctx.storage.db.selectFrom('keystore').selectAll().orderBy('id').executeTakeFirstOrThrow();
    const payload = Buffer.from(JSON.stringify(body), 'utf8');
    const signature = crypto.sign('sha256', payload, crypto.createPrivateKey(row.privateKey));
    return Buffer.concat([Buffer.from([signature.length]), signature, payload]).toString('base64url');
  }

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_TOKEN_MAX_DAYS: '30' });
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('caps a token at RASTRO_TOKEN_MAX_DAYS', async () => {
    const { client } = await newUser();
    const res = await client.post('/api/session/token', new URLSearchParams({ expiration: '2099-01-01T00:00:00Z' }));
    expect(res.status).toBe(200);
    const exp = server.rastro.ctx.tokens.inspect(res.text)!.expiration;
    expect(Math.abs(exp - (Date.now() + 30 * DAY_MS))).toBeLessThan(60_000);
    // Shorter requests are kept as asked.
    const short = new Date(Date.now() + 2 * DAY_MS);
    short.setMilliseconds(0);
    const shortRes = await client.post('/api/session/token', new URLSearchParams({ expiration: short.toISOString() }));
    expect(server.rastro.ctx.tokens.inspect(shortRes.text)!.expiration).toBe(short.getTime());
  });

  it('refuses a token that runs past the maximum, however it was made', async () => {
    const { user } = await newUser();
    // Issued past the limit by some other path than POST /api/session/token.
    expect(await works(server.rastro.ctx.tokens.issue(user.id, Date.now() + 400 * DAY_MS))).toBe(false);
    expect(await works(server.rastro.ctx.tokens.issue(user.id, Date.now() + 20 * DAY_MS))).toBe(true);
    // Signed with the server's key by an older version (no issue time), or under a longer limit.
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(await works(await signRaw({ i: '101', u: user.id, e: iso(Date.now() + 400 * DAY_MS) }))).toBe(false);
    expect(await works(await signRaw({ i: '102', u: user.id, e: iso(Date.now() + 5 * DAY_MS) }))).toBe(true);
    expect(await works(await signRaw({ i: '103', u: user.id, e: iso(Date.now() + 5 * DAY_MS), t: Date.now() - 40 * DAY_MS }))).toBe(false);
  });

  it('ends tokens and token sessions when the password changes, keeping the caller logged in', async () => {
    const { user, client } = await newUser();
    const token = await tokenFrom(client);
    const viaToken = await sessionFrom(token);
    expect(await works(token)).toBe(true);
    const changed = await client.put(`/api/users/${user.id}`, { ...user, password: 'secret2' });
    expect(changed.status, changed.text).toBe(200);
    expect(await works(token)).toBe(false);
    const refused = await server.client().get(`/api/session?token=${token}`);
    expect(refused.status).toBe(401);
    expect(deriveErrorCode(refused.text)).toBe('INVALID_LOGIN_DATA');
    expect((await viaToken.get('/api/session')).status).toBe(404);
    // The caller's own session survives, and tokens made after the change work.
    expect((await client.get('/api/session')).status).toBe(200);
    expect(await works(await tokenFrom(client))).toBe(true);
  });

  it('ends the tokens of a user whose password an administrator changes', async () => {
    const { user, client } = await newUser();
    const token = await tokenFrom(client);
    expect((await admin.put(`/api/users/${user.id}`, { ...user, password: 'by-admin' })).status).toBe(200);
    expect(await works(token)).toBe(false);
    expect((await client.get('/api/session')).status).toBe(404);
  });

  it('ends a child token with its parent, down the whole chain', async () => {
    const { client } = await newUser();
    const parent = await tokenFrom(client);
    const child = await tokenFrom(server.client(), bearer(parent));
    const grandchild = await tokenFrom(server.client(), bearer(child));
    // A token made in a session opened with ?token= descends from that token too.
    const viaSession = await tokenFrom(await sessionFrom(child));
    for (const t of [parent, child, grandchild, viaSession]) expect(await works(t)).toBe(true);
    const revoke = await client.post('/api/session/token/revoke', new URLSearchParams({ token: parent }));
    expect(revoke.status).toBe(204);
    for (const t of [parent, child, grandchild, viaSession]) expect(await works(t)).toBe(false);
    // Revoking a child leaves its parent alone.
    const p2 = await tokenFrom(client);
    const c2 = await tokenFrom(server.client(), bearer(p2));
    expect((await client.post('/api/session/token/revoke', new URLSearchParams({ token: c2 }))).status).toBe(204);
    expect(await works(p2)).toBe(true);
    expect(await works(c2)).toBe(false);
  });

  it('bounds the depth of token chains', async () => {
    const { client } = await newUser();
    let token = await tokenFrom(client);
    for (let depth = 1; depth <= 4; depth++) token = await tokenFrom(server.client(), bearer(token));
    const tooDeep = await server.client().post('/api/session/token', undefined, bearer(token));
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.text.split('\n')[0]).toMatch(/^Token chain too long - /);
  });

  it('ends a cookie session opened with ?token= at once when the token is revoked', async () => {
    const { client } = await newUser();
    const token = await tokenFrom(client);
    const viaToken = await sessionFrom(token);
    // Used once more so the session sits in the session cache.
    expect((await viaToken.get('/api/session')).status).toBe(200);
    expect((await client.post('/api/session/token/revoke', new URLSearchParams({ token }))).status).toBe(204);
    expect((await viaToken.get('/api/session')).status).toBe(404);
    expect((await viaToken.get('/api/users')).status).toBe(401);
    // ... and so does one opened with a child of the revoked token's parent.
    const parent = await tokenFrom(client);
    const child = await tokenFrom(server.client(), bearer(parent));
    const viaChild = await sessionFrom(child);
    expect((await viaChild.get('/api/session')).status).toBe(200);
    expect((await client.post('/api/session/token/revoke', new URLSearchParams({ token: parent }))).status).toBe(204);
    expect((await viaChild.get('/api/session')).status).toBe(404);
  });

  it('ties a "login as" session opened from a token session to that token', async () => {
    const token = await tokenFrom(admin);
    const viaToken = await sessionFrom(token);
    const { user } = await newUser();
    expect((await viaToken.get(`/api/session/${user.id}`)).status).toBe(200);
    expect((await viaToken.get<User>('/api/session')).json.id).toBe(user.id);
    expect((await admin.post('/api/session/token/revoke', new URLSearchParams({ token }))).status).toBe(204);
    expect((await viaToken.get('/api/session')).status).toBe(404);
  });
});
