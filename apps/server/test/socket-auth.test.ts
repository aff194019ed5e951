// Open sockets end with the credentials they were opened with: logout closes the sockets of
// that session, a password change or reset closes every socket of the user but the caller's
// own session's, and revoking a token closes the sockets opened with it (or with sessions opened
// from it). With two instances joined by Redis, this holds across instances too, and so does the
// end of cached sessions and Basic credentials.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@rastro/domain/entities';
import { backends, redisUrl, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { startMailbox, type Mailbox } from './mailbox.ts';
import { LiveSocket, isKey } from './socket-client.ts';

const POLICY = 1008;

/** Resolves with the close code, or null when the socket is still open after `ms`. */
async function closedWithin(socket: LiveSocket, ms = 3000): Promise<number | null> {
  return Promise.race([socket.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms))]);
}

/** Still open and live: the next keepalive arrives. */
async function stillLive(socket: LiveSocket): Promise<void> {
  socket.skipAll();
  await socket.next((m) => Object.keys(m.json).length === 0, 3000);
  expect(socket.closeCode).toBeNull();
}

function suite(name: string, start: () => Promise<{ a: TestServer; b: TestServer; mailbox: Mailbox; close(): Promise<void> }>) {
  describe(name, () => {
    let a: TestServer;
    /** Where the sockets are opened: the same server, or a second instance over the same database. */
    let b: TestServer;
    let mailbox: Mailbox;
    let stop: () => Promise<void>;
    let counter = 0;
    const sockets: LiveSocket[] = [];

    const newUser = async (): Promise<{ user: User; email: string }> => {
      const email = `sock${++counter}-${process.pid}-${Date.now()}@example.com`;
      const res = await (await a.admin()).post<User>('/api/users', { name: email, email, password: 'secret1' });
      expect(res.status, res.text).toBe(200);
      return { user: res.json, email };
    };
    const loginOn = async (server: TestServer, email: string): Promise<TestClient> => {
      const client = server.client();
      await client.login(email, 'secret1');
      return client;
    };
    /**
     * The status of a request to b: at once on one instance; across instances the change travels
     * over Redis (a millisecond or so), so b is asked again until it answers `expected` or 2 s pass.
     */
    const statusOn = async (request: () => Promise<{ status: number }>, expected: number): Promise<number> => {
      const deadline = Date.now() + (a === b ? 0 : 2000);
      for (;;) {
        const { status } = await request();
        if (status === expected || Date.now() >= deadline) return status;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const open = async (options: { cookie?: string | null; token?: string }) => {
      const s = await LiveSocket.open(b.url, options);
      sockets.push(s);
      await s.next(isKey('positions'));
      return s;
    };

    beforeAll(async () => {
      ({ a, b, mailbox, close: stop } = await start());
    });
    afterEach(() => {
      for (const s of sockets.splice(0)) s.close();
    });
    afterAll(async () => {
      await stop?.();
    });

    it('logout closes the sockets of that session only', async () => {
      const { email } = await newUser();
      const leaving = await loginOn(a, email);
      const staying = await loginOn(b, email);
      const s1 = await open({ cookie: leaving.cookie });
      const s2 = await open({ cookie: leaving.cookie });
      const other = await open({ cookie: staying.cookie });
      expect((await leaving.delete('/api/session')).status).toBe(204);
      expect(await closedWithin(s1)).toBe(POLICY);
      expect(await closedWithin(s2)).toBe(POLICY);
      await stillLive(other);
    });

    it("a password change closes the user's sockets except the caller's own session's", async () => {
      const { user, email } = await newUser();
      const caller = await loginOn(a, email);
      const elsewhere = await loginOn(b, email);
      const token = (await caller.post('/api/session/token')).text;
      const own = await open({ cookie: caller.cookie });
      const foreign = await open({ cookie: elsewhere.cookie });
      const viaToken = await open({ token });
      expect((await caller.put(`/api/users/${user.id}`, { ...user, password: 'secret2' })).status).toBe(200);
      expect(await closedWithin(foreign)).toBe(POLICY);
      expect(await closedWithin(viaToken)).toBe(POLICY);
      await stillLive(own);
    });

    it("a password reset closes every socket of the user", async () => {
      const { email } = await newUser();
      const session = await loginOn(b, email);
      const s = await open({ cookie: session.cookie });
      const before = mailbox.mails.length;
      expect((await a.client().post('/api/password/reset', new URLSearchParams({ email }))).status).toBe(200);
      const deadline = Date.now() + 5000;
      while (!mailbox.mails.slice(before).some((m) => m.to.includes(email)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
      const raw = mailbox.mails.slice(before).find((m) => m.to.includes(email))!.raw.replace(/=\r?\n/g, '');
      const token = /\/login\/recover\/([A-Za-z0-9_-]+)/.exec(raw)![1]!;
      expect((await a.client().post('/api/password/update', new URLSearchParams({ token, password: 'reset-pass' }))).status).toBe(200);
      expect(await closedWithin(s)).toBe(POLICY);
    });

    it('a password change ends sessions, Basic credentials and tokens on every instance at once', async () => {
      const { user, email } = await newUser();
      const caller = await loginOn(a, email);
      const elsewhere = await loginOn(b, email);
      const token = (await caller.post('/api/session/token')).text;
      const basic = { authorization: `Basic ${Buffer.from(`${email}:secret1`).toString('base64')}` };
      // Used once on b so b has them cached.
      expect((await elsewhere.get('/api/session')).status).toBe(200);
      expect((await b.client().get('/api/session', basic)).status).toBe(200);
      expect((await b.client().get('/api/session', { authorization: `Bearer ${token}` })).status).toBe(200);
      expect((await caller.put(`/api/users/${user.id}`, { ...user, password: 'secret2' })).status).toBe(200);
      expect(await statusOn(() => elsewhere.get('/api/session'), 404)).toBe(404);
      expect(await statusOn(() => b.client().get('/api/session', basic), 401)).toBe(401);
      expect(await statusOn(() => b.client().get('/api/session', { authorization: `Bearer ${token}` }), 401)).toBe(401);
      expect((await caller.get('/api/session')).status).toBe(200);
    });

    it('revoking a token closes the sockets opened with it or with sessions opened from it', async () => {
      const { email } = await newUser();
      const owner = await loginOn(a, email);
      const token = (await owner.post('/api/session/token')).text;
      const other = (await owner.post('/api/session/token')).text;
      const fromToken = b.client();
      expect((await fromToken.get(`/api/session?token=${token}`)).status).toBe(200);
      // Cached on that instance before the revocation.
      expect((await fromToken.get('/api/session')).status).toBe(200);
      const direct = await open({ token });
      const viaSession = await open({ cookie: fromToken.cookie });
      const unrelated = await open({ token: other });
      const ownerSocket = await open({ cookie: owner.cookie });
      expect((await owner.post('/api/session/token/revoke', new URLSearchParams({ token }))).status).toBe(204);
      expect(await closedWithin(direct)).toBe(POLICY);
      expect(await closedWithin(viaSession)).toBe(POLICY);
      expect((await fromToken.get('/api/session')).status).toBe(404);
      await stillLive(unrelated);
      await stillLive(ownerSocket);
    });
  });
}

for (const backend of backends) {
  suite(`socket credentials (${backend})`, async () => {
    const mailbox = await startMailbox();
    const server = await startTestServer(backend, { RASTRO_SMTP_URL: mailbox.url, RASTRO_SOCKET_KEEPALIVE_MS: '200' });
    return {
      a: server,
      b: server,
      mailbox,
      async close() {
        await server.close();
        await mailbox.close();
      },
    };
  });
}

const skipReason = !redisUrl
  ? 'TEST_REDIS_URL is not set'
  : !backends.includes('postgres')
    ? 'TEST_DATABASE_URL is not set (two instances share one PostgreSQL schema)'
    : null;
if (skipReason) console.warn(`Socket credentials across instances skipped: ${skipReason}.`);
if (!skipReason) {
  suite('socket credentials across two instances (postgres, Redis)', async () => {
    const mailbox = await startMailbox();
    const env = { RASTRO_SMTP_URL: mailbox.url, RASTRO_SOCKET_KEEPALIVE_MS: '200', REDIS_URL: redisUrl! };
    const a = await startTestServer('postgres', env);
    const b = await startTestServer('postgres', env, { shareDatabaseWith: a });
    return {
      a,
      b,
      mailbox,
      async close() {
        await b.close();
        await a.close();
        await mailbox.close();
      },
    };
  });
}
