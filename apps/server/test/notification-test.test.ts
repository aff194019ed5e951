// POST /api/notifications/test over real HTTP, a real socket and a local SMTP server: the
// caller's sockets get a `test` event (nobody else's), a mail goes to the caller's address in
// their language, readonly accounts and share visitors are refused, and a mail server that
// refuses is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveErrorCode } from '@rastro/domain/errors';
import type { Event, User } from '@rastro/domain/entities';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { startMailbox, type Mailbox } from './mailbox.ts';
import { LiveSocket } from './socket-client.ts';

describe.each(backends)('notification test (%s)', (backend) => {
  let mailbox: Mailbox;
  let server: TestServer;
  let admin: TestClient;
  const sockets: LiveSocket[] = [];

  async function user(email: string, fields: Record<string, unknown> = {}): Promise<{ client: TestClient; user: User }> {
    const res = await admin.post<User>('/api/users', { name: `Name ${email}`, email, password: 'secret1', ...fields });
    expect(res.status, res.text).toBe(200);
    const client = server.client();
    await client.login(email, 'secret1');
    return { client, user: res.json };
  }
  async function socketOf(client: TestClient): Promise<LiveSocket> {
    const socket = await LiveSocket.open(server.url, { cookie: client.cookie });
    sockets.push(socket);
    await socket.next(); // the connect snapshot
    return socket;
  }
  const isEvents = (m: { json: Record<string, unknown> }) => 'events' in m.json;

  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startTestServer(backend, { RASTRO_SMTP_URL: mailbox.url, RASTRO_MAIL_FROM: 'Rastro <no-reply@rastro.test>' });
    admin = await server.admin();
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await server?.close();
    await mailbox?.close();
  });

  it('sends a test event to the caller\'s sockets only, and a mail in the caller\'s language', async () => {
    const ana = await user('ana-test@example.com', { attributes: { 'tarkan.lang': 'es' } });
    const bia = await user('bia-test@example.com');
    const anaSocket = await socketOf(ana.client);
    const biaSocket = await socketOf(bia.client);

    const res = await ana.client.post('/api/notifications/test');
    expect(res.status, res.text).toBe(204);

    const message = await anaSocket.next(isEvents);
    const [event] = (message.json as { events: Event[] }).events;
    expect(event).toMatchObject({ type: 'test', deviceId: 0, positionId: 0, attributes: { message: 'Notificación de prueba' } });
    expect(Math.abs(Date.parse(event!.eventTime) - Date.now())).toBeLessThan(60_000);

    await expect.poll(() => mailbox.mails.filter((m) => m.to.includes('ana-test@example.com')).length).toBe(1);
    const mail = mailbox.mails.find((m) => m.to.includes('ana-test@example.com'))!;
    expect(mail.raw).toMatch(/Subject: =\?UTF-8\?Q\?Notificaci=C3=B3n_de_prueba\?=|Subject: Notificación de prueba/);
    expect(mail.raw).toContain('Name ana-test@example.com');

    // Bia's socket heard nothing and no mail went to her.
    await new Promise((r) => setTimeout(r, 300));
    expect(biaSocket.pending().filter(isEvents)).toEqual([]);
    expect(mailbox.mails.some((m) => m.to.includes('bia-test@example.com'))).toBe(false);
  });

  it('sends the socket event alone to an account whose login is not an e-mail address', async () => {
    const before = mailbox.mails.length;
    const res = await admin.post('/api/notifications/test');
    expect(res.status, res.text).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(mailbox.mails.length).toBe(before);
  });

  it('refuses readonly accounts as Traccar does, and share visitors; asks for a session', async () => {
    const reader = await user('reader-test@example.com', { readonly: true });
    const res = await reader.client.post('/api/notifications/test');
    expect(res.status).toBe(400);
    expect(deriveErrorCode(res.text)).toBe('ACCOUNT_IS_READONLY');
    const visitor = await user('visitor-test@example.com', { attributes: { isShared: 1 } });
    const refused = await visitor.client.post('/api/notifications/test');
    expect(refused.status).toBe(400);
    expect(deriveErrorCode(refused.text)).toBe('WRITE_ACCESS_DENIED');
    expect((await server.client().post('/api/notifications/test')).status).toBe(401);
  });

  it('answers 400 with the reason when the mail server cannot be reached, after the socket event went out', async () => {
    const carl = await user('carl-test@example.com', { attributes: { 'tarkan.lang': 'en' } });
    const socket = await socketOf(carl.client);
    await mailbox.close();
    const res = await carl.client.post('/api/notifications/test');
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^Test mail not sent - /);
    const message = await socket.next(isEvents);
    expect((message.json as { events: Event[] }).events[0]).toMatchObject({ type: 'test', attributes: { message: 'Test notification' } });
  });
});
