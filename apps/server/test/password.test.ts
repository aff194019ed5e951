// Password recovery end to end: a real SMTP server (smtp-server) receives the mail, the test
// follows the link's token, sets a new password and logs in with it.
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

describe.each(backends)('password recovery (%s)', (backend) => {
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let server: TestServer;
  let admin: TestClient;

  const recoverLink = (mail: ReceivedMail) => {
    const match = /(https?:\/\/[^\s]+)\/login\/recover\/([A-Za-z0-9_-]+)/.exec(mailText(mail.raw));
    if (!match) throw new Error(`no link in mail:\n${mail.raw}`);
    return { base: match[1]!, token: match[2]! };
  };
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
