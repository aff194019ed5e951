// Password recovery end to end: a real SMTP server (smtp-server) receives the mail, the test
// follows the link's token, sets a new password and logs in with it. Also: where the link may
// point (never at a host the requester names unless it is allow-listed), and the life of a
// reset token (one use, the newest only, and what a reset ends: sessions, tokens).
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveErrorCode } from '@rastro/domain/errors';
import type { Server, User } from '@rastro/domain/entities';
import { startMailbox, type ReceivedMail } from './mailbox.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';

/** The text of a mail with quoted-printable soft breaks and escapes undone. */
function mailText(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const escape = /^=([0-9A-F]{2})/.exec(joined.slice(i, i + 3));
    if (escape) {
      bytes.push(parseInt(escape[1]!, 16));
      i += 2;
    } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

async function waitFor<T>(fn: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = fn();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

function recoverLink(mail: ReceivedMail): { base: string; token: string } {
  const match = /(https?:\/\/[^\s]+)\/login\/recover\/([A-Za-z0-9_-]+)/.exec(mailText(mail.raw));
  if (!match) throw new Error(`no link in mail:\n${mail.raw}`);
  return { base: match[1]!, token: match[2]! };
}

describe.each(backends)('password recovery (%s)', (backend) => {
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let server: TestServer;
  let admin: TestClient;

  const mailsTo = (address: string) => mailbox.mails.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startTestServer(backend, { RASTRO_SMTP_URL: mailbox.url, RASTRO_MAIL_FROM: 'Rastro <no-reply@rastro.test>' });
    admin = await server.admin();
    for (const [email, lang] of [['ana@example.com', 'es'], ['bia@example.com', null], ['carl@example.com', 'en']] as const) {
      const res = await admin.post('/api/users', {
        name: `Name ${email}`, email, password: 'old-pass', attributes: lang ? { 'tarkan.lang': lang } : {},
      });
      expect(res.status, res.text).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.close();
    await mailbox?.close();
  });

  it('reports e-mail as enabled in /api/server', async () => {
    expect((await server.client().get<Server>('/api/server')).json.emailEnabled).toBe(true);
  });

  it('mails a one-hour reset link in the user language and sets the new password once', async () => {
    const session = server.client();
    await session.login('ana@example.com', 'old-pass');

    const client = server.client();
    const res = await client.post('/api/session/password', new URLSearchParams({ email: 'ANA@example.com', requested_from: `${server.url}/login` }));
    expect(res.status).toBe(200);
    const mail = await waitFor(() => mailsTo('ana@example.com')[0]);
    expect(mail.raw).toMatch(/^From: Rastro <no-reply@rastro\.test>/m);
    expect(mailText(mail.raw)).toContain('Hola');
    const { base, token } = recoverLink(mail);
    expect(base).toBe(server.url);
    const payload = server.rastro.ctx.tokens.inspect(token)!;
    expect(payload.purpose).toBe('reset');
    expect(Math.abs(payload.expiration - (Date.now() + 3_600_000))).toBeLessThan(60_000);
    // A reset token is not a login token.
    expect((await server.client().get(`/api/session?token=${token}`)).status).toBe(401);

    const short = await client.post('/api/session/password', new URLSearchParams({ token, password: 'abc' }));
    expect(short.status).toBe(400);
    expect(short.text).toMatch(/^Password too short - /);

    const set = await client.post('/api/session/password', new URLSearchParams({ token, password: 'new-pass' }));
    expect(set.status).toBe(200);
    const login = await server.client().post<User>('/api/session', new URLSearchParams({ email: 'ana@example.com', password: 'new-pass' }));
    expect(login.status).toBe(200);
    const old = await server.client().post('/api/session', new URLSearchParams({ email: 'ana@example.com', password: 'old-pass' }));
    expect(old.status).toBe(401);
    // Sessions opened with the old password are over.
    expect((await session.get('/api/session')).status).toBe(404);

    const reuse = await client.post('/api/session/password', new URLSearchParams({ token, password: 'third-pass' }));
    expect(reuse.status).toBe(400);
    expect(deriveErrorCode(reuse.text)).toBe('INVALID_LOGIN_DATA');
    expect((await server.client().post('/api/session', new URLSearchParams({ email: 'ana@example.com', password: 'third-pass' }))).status).toBe(401);
  });

  it('answers the same for unknown accounts and sends nothing', async () => {
    const before = mailbox.mails.length;
    const known = await server.client().post('/api/session/password', new URLSearchParams({ email: 'bia@example.com', requested_from: server.url }));
    const unknown = await server.client().post('/api/session/password', new URLSearchParams({ email: 'nobody@example.com', requested_from: server.url }));
    expect(unknown.status).toBe(known.status);
    expect(unknown.text).toBe(known.text);
    expect(unknown.headers.get('content-type')).toBe(known.headers.get('content-type'));
    const mail = await waitFor(() => mailsTo('bia@example.com')[0]);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.mails.length).toBe(before + 1);
    // No tarkan.lang: Portuguese.
    expect(mailText(mail.raw)).toContain('Olá');
  });

  it('never mails a link to a foreign host', async () => {
    await server.client().post('/api/session/password', new URLSearchParams({ email: 'carl@example.com', requested_from: 'https://evil.example.net/login' }));
    const mail = await waitFor(() => mailsTo('carl@example.com')[0]);
    expect(mailText(mail.raw)).toContain('Hello');
    expect(mail.raw).not.toContain('evil.example.net');
    expect(recoverLink(mail).base).toBe(server.url);
  });

  it("serves Traccar's /api/password/reset and /api/password/update", async () => {
    const before = mailsTo('bia@example.com').length;
    expect((await server.client().post('/api/password/reset', new URLSearchParams({ email: 'bia@example.com' }))).status).toBe(200);
    const mail = await waitFor(() => mailsTo('bia@example.com')[before]);
    const { token } = recoverLink(mail);
    const bad = await server.client().post('/api/password/update', new URLSearchParams({ token: 'x'.repeat(60), password: 'new-pass' }));
    expect(bad.status).toBe(400);
    expect(deriveErrorCode(bad.text)).toBe('INVALID_LOGIN_DATA');
    expect((await server.client().post('/api/password/update', new URLSearchParams({ token, password: 'bia-new' }))).status).toBe(200);
    expect((await server.client().post('/api/session', new URLSearchParams({ email: 'bia@example.com', password: 'bia-new' }))).status).toBe(200);
  });

  it('asks for the missing field with the catalogue codes', async () => {
    const noEmail = await server.client().post('/api/session/password', new URLSearchParams({ email: '' }));
    expect(noEmail.status).toBe(400);
    expect(deriveErrorCode(noEmail.text)).toBe('FILL_EMAIL_FIELD');
    const noToken = await server.client().post('/api/session/password', new URLSearchParams({ token: '', password: 'abcd' }));
    expect(noToken.status).toBe(400);
    expect(deriveErrorCode(noToken.text)).toBe('FILL_TOKEN_FIELD');
  });
});

describe.each(backends)('password recovery without SMTP (%s)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the same and reports e-mail as disabled', async () => {
    expect((await server.client().get<Server>('/api/server')).json.emailEnabled).toBe(false);
    const res = await server.client().post('/api/session/password', new URLSearchParams({ email: 'admin', requested_from: server.url }));
    expect(res.status).toBe(200);
    const unknown = await server.client().post('/api/session/password', new URLSearchParams({ email: 'nobody@example.com' }));
    expect(unknown.status).toBe(200);
    expect(unknown.text).toBe(res.text);
  });
});

/** POSTs a form with headers fetch refuses to forge (Host); answers the status. */
function rawPost(baseUrl: string, path: string, form: URLSearchParams, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = form.toString();
    const req = http.request(
      baseUrl + path,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(backends)('reset links and reset tokens (%s)', (backend) => {
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  /** No RASTRO_PUBLIC_URL: links use the server's own address. */
  let plain: TestServer;
  /** A public URL under a path and two white-label hosts. */
  let branded: TestServer;
  let counter = 0;

  const newUser = async (server: TestServer): Promise<string> => {
    const email = `reset${++counter}-${backend}@example.com`;
    const res = await (await server.admin()).post('/api/users', { name: email, email, password: 'old-pass', attributes: { 'tarkan.lang': 'en' } });
    expect(res.status, res.text).toBe(200);
    return email;
  };
  const nextMail = async (email: string, index: number) => waitFor(() => mailbox.mails.filter((m) => m.to.includes(email))[index]);
  const linkFor = async (server: TestServer, fields: Record<string, string>, headers: Record<string, string> = {}, path = '/api/password/reset') => {
    const email = await newUser(server);
    expect(await rawPost(server.url, path, new URLSearchParams({ email, ...fields }), headers)).toBe(200);
    return recoverLink(await nextMail(email, 0)).base;
  };

  beforeAll(async () => {
    mailbox = await startMailbox();
    plain = await startTestServer(backend, { RASTRO_SMTP_URL: mailbox.url });
    branded = await startTestServer(backend, {
      RASTRO_SMTP_URL: mailbox.url,
      RASTRO_PUBLIC_URL: 'https://track.example.com/app/',
      RASTRO_PUBLIC_HOSTS: 'gps.reseller.example, GPS2.reseller.example:8443',
    });
  });
  afterAll(async () => {
    await plain?.close();
    await branded?.close();
    await mailbox?.close();
  });

  it('without RASTRO_PUBLIC_URL, a forged Host header or requested_from never steers the link', async () => {
    expect(await linkFor(plain, {}, { host: 'evil.example.net' })).toBe(plain.url);
    expect(await linkFor(plain, { requested_from: 'http://evil.example.net/login' }, { host: 'evil.example.net' }, '/api/session/password')).toBe(plain.url);
    expect(await linkFor(plain, { requested_from: 'https://evil.example.net/' })).toBe(plain.url);
  });

  it('with RASTRO_PUBLIC_URL, links use it unless the requester names an allow-listed host', async () => {
    const configured = 'https://track.example.com/app';
    expect(await linkFor(branded, {}, { host: 'evil.example.net' })).toBe(configured);
    expect(await linkFor(branded, { requested_from: 'https://evil.example.net/login' })).toBe(configured);
    // The address the request really came to is not on the list: the configured URL wins.
    expect(await linkFor(branded, { requested_from: `${branded.url}/login` })).toBe(configured);
    // The public host itself keeps the configured path.
    expect(await linkFor(branded, { requested_from: 'https://track.example.com/login' })).toBe(configured);
    // White-label hosts from RASTRO_PUBLIC_HOSTS, named by the page or by the Host header.
    expect(await linkFor(branded, { requested_from: 'https://gps.reseller.example/login?x=1' })).toBe('https://gps.reseller.example');
    expect(await linkFor(branded, {}, { host: 'gps2.reseller.example:8443' })).toBe('https://gps2.reseller.example:8443');
    // Never downgraded to http when the public URL is https.
    expect(await linkFor(branded, { requested_from: 'http://gps.reseller.example/' })).toBe('https://gps.reseller.example');
    // A listed host name on another port is another site.
    expect(await linkFor(branded, { requested_from: 'https://gps.reseller.example:9999/' })).toBe(configured);
  });

  it('keeps only the newest reset token of a user, and each works once', async () => {
    const email = await newUser(plain);
    const reset = () => plain.client().post('/api/password/reset', new URLSearchParams({ email }));
    expect((await reset()).status).toBe(200);
    const first = recoverLink(await nextMail(email, 0)).token;
    expect((await reset()).status).toBe(200);
    const second = recoverLink(await nextMail(email, 1)).token;
    expect(second).not.toBe(first);

    const use = (token: string, password: string) => plain.client().post('/api/password/update', new URLSearchParams({ token, password }));
    // Issuing the second one ended the first.
    const stale = await use(first, 'first-pass');
    expect(stale.status).toBe(400);
    expect(deriveErrorCode(stale.text)).toBe('INVALID_LOGIN_DATA');
    expect((await use(second, 'second-pass')).status).toBe(200);
    const again = await use(second, 'third-pass');
    expect(again.status).toBe(400);
    expect(deriveErrorCode(again.text)).toBe('INVALID_LOGIN_DATA');
    expect((await plain.client().post('/api/session', new URLSearchParams({ email, password: 'second-pass' }))).status).toBe(200);
  });

  it('refuses an older reset token once a newer one was used', async () => {
    const email = await newUser(plain);
    for (let i = 0; i < 2; i++) expect((await plain.client().post('/api/session/password', new URLSearchParams({ email }))).status).toBe(200);
    const older = recoverLink(await nextMail(email, 0)).token;
    const newer = recoverLink(await nextMail(email, 1)).token;
    expect((await plain.client().post('/api/session/password', new URLSearchParams({ token: newer, password: 'newer-pass' }))).status).toBe(200);
    const res = await plain.client().post('/api/session/password', new URLSearchParams({ token: older, password: 'older-pass' }));
    expect(res.status).toBe(400);
    expect((await plain.client().post('/api/session', new URLSearchParams({ email, password: 'older-pass' }))).status).toBe(401);
  });

  it('refuses an expired reset token', async () => {
    const email = await newUser(plain);
    const user = (await plain.rastro.ctx.users.findByLogin(email))!;
    const expired = plain.rastro.ctx.tokens.issue(user.id, Date.now() - 1000, 'reset');
    const res = await plain.client().post('/api/password/update', new URLSearchParams({ token: expired, password: 'new-pass' }));
    expect(res.status).toBe(400);
    expect(deriveErrorCode(res.text)).toBe('INVALID_LOGIN_DATA');
  });

  it("ends the user's sessions and login tokens when the password is reset", async () => {
    const email = await newUser(plain);
    const session = plain.client();
    await session.login(email, 'old-pass');
    const token = (await session.post('/api/session/token')).text;
    const bearer = { authorization: `Bearer ${token}` };
    expect((await plain.client().get('/api/session', bearer)).status).toBe(200);

    expect((await plain.client().post('/api/password/reset', new URLSearchParams({ email }))).status).toBe(200);
    const { token: resetToken } = recoverLink(await nextMail(email, 0));
    expect((await plain.client().post('/api/password/update', new URLSearchParams({ token: resetToken, password: 'new-pass' }))).status).toBe(200);

    expect((await session.get('/api/session')).status).toBe(404);
    expect((await plain.client().get('/api/session', bearer)).status).toBe(401);
    expect((await plain.client().get(`/api/session?token=${token}`)).status).toBe(401);
  });
});
