// Cross-site request forgery: a state-changing request (POST, PUT, DELETE) whose Origin - or,
// without one, Referer - names another site is refused, login and password recovery included,
// so a foreign page can neither act with a visitor's cookie nor log the visitor into an
// attacker's account. Requests naming no origin (apps, curl, Traccar Manager) still work.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@rastro/domain/entities';
import { ADMIN_PASSWORD, backends, startTestServer, type TestClient, type TestServer } from './harness.ts';

const EVIL = 'https://evil.example.net';
const credentials = () => new URLSearchParams({ email: 'admin', password: ADMIN_PASSWORD });

describe.each(backends)('cross-site requests (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_PUBLIC_URL: 'https://track.example.com', RASTRO_PUBLIC_HOSTS: 'gps.reseller.example' });
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses a login posted from a foreign page (login CSRF) and sets no cookie', async () => {
    for (const headers of [{ origin: EVIL }, { referer: `${EVIL}/trap.html` }, { origin: 'null' }] as Array<Record<string, string>>) {
      const res = await server.client().post('/api/session', credentials(), headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.text.split('\n')[0]).toMatch(/^Origin not allowed - /);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('accepts a login from our own pages and from clients that name no origin', async () => {
    expect((await server.client().post('/api/session', credentials(), { origin: server.url })).status).toBe(200);
    expect((await server.client().post('/api/session', credentials(), { referer: `${server.url}/login` })).status).toBe(200);
    expect((await server.client().post('/api/session', credentials())).status).toBe(200);
    // Allow-listed public hosts (RASTRO_PUBLIC_URL, RASTRO_PUBLIC_HOSTS) are our pages too.
    expect((await server.client().post('/api/session', credentials(), { origin: 'https://track.example.com' })).status).toBe(200);
    expect((await server.client().post('/api/session', credentials(), { origin: 'https://gps.reseller.example' })).status).toBe(200);
  });

  it('compares with the public host a trusted proxy forwards (X-Forwarded-Host)', async () => {
    // The test client connects from loopback, which RASTRO_TRUST_PROXY trusts by default.
    const proxied = { origin: 'https://proxied.example.org', 'x-forwarded-host': 'proxied.example.org' };
    expect((await server.client().post('/api/session', credentials(), proxied)).status).toBe(200);
    expect((await server.client().post('/api/session', credentials(), { origin: 'https://proxied.example.org' })).status).toBe(403);
  });

  it('refuses cross-site password recovery requests', async () => {
    for (const path of ['/api/password/reset', '/api/session/password']) {
      const res = await server.client().post(path, new URLSearchParams({ email: 'admin' }), { origin: EVIL });
      expect(res.status, path).toBe(403);
    }
    const update = await server.client().post('/api/password/update', new URLSearchParams({ token: 'x'.repeat(40), password: 'abcd' }), { referer: `${EVIL}/` });
    expect(update.status).toBe(403);
    expect((await server.client().post('/api/password/reset', new URLSearchParams({ email: 'admin' }), { origin: server.url })).status).toBe(200);
  });

  it('refuses state-changing requests with a cookie from another site, by Origin or by Referer', async () => {
    const client = await server.admin();
    const created = await client.post<User>('/api/users', { name: 'Csrf Target', email: 'csrf@example.com', password: 'secret1' });
    expect(created.status).toBe(200);
    const id = created.json.id;
    const bodies: Array<[string, string, unknown]> = [
      ['POST', '/api/users', { name: 'Evil', email: 'evil@example.com', password: 'secret1' }],
      ['PUT', `/api/users/${id}`, { ...created.json, name: 'Renamed' }],
      ['DELETE', `/api/users/${id}`, undefined],
      ['POST', '/api/session/token', undefined],
    ];
    for (const [method, path, body] of bodies) {
      for (const headers of [{ origin: EVIL }, { referer: `${EVIL}/page` }] as Array<Record<string, string>>) {
        const res = await client.request(method, path, body, headers);
        expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
      }
    }
    // Logging out from a foreign page is refused too; the session still works.
    expect((await client.delete('/api/session', undefined, { referer: `${EVIL}/` })).status).toBe(403);
    expect((await client.get<User>(`/api/users/${id}`)).json.name).toBe('Csrf Target');
    // The same requests from our page go through.
    expect((await client.put(`/api/users/${id}`, { ...created.json, name: 'Renamed' }, { origin: server.url })).status).toBe(200);
    expect((await client.delete(`/api/users/${id}`, undefined, { referer: `${server.url}/settings` })).status).toBe(204);
  });

  it('refuses a token login (GET /api/session?token=) opened from another site', async () => {
    const token = (await admin.post('/api/session/token')).text;
    const foreign = await server.client().get(`/api/session?token=${token}`, { referer: `${EVIL}/` });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('set-cookie')).toBeNull();
    const crossSite = await server.client().get(`/api/session?token=${token}`, { 'sec-fetch-site': 'cross-site' });
    expect(crossSite.status).toBe(403);
    expect((await server.client().get(`/api/session?token=${token}`, { referer: `${server.url}/` })).status).toBe(200);
    expect((await server.client().get(`/api/session?token=${token}`)).status).toBe(200);
  });

  it('leaves reads alone and refuses a foreign origin whatever the credentials', async () => {
    const token = (await admin.post('/api/session/token')).text;
    expect((await server.client().get('/api/server', { origin: EVIL })).status).toBe(200);
    // A browser never sends a Bearer header cross-site (CORS refuses the preflight); whoever
    // names a foreign origin anyway gets the same answer as everyone else.
    const bearer = await server.client().post('/api/session/token', undefined, { authorization: `Bearer ${token}`, origin: EVIL });
    expect(bearer.status).toBe(403);
    expect((await server.client().post('/api/session/token', undefined, { authorization: `Bearer ${token}` })).status).toBe(200);
  });
});
