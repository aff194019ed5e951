// Failed-login throttling (per account and address pair and per client address, form and Basic
// alike; pressure on an account from many addresses slows it but never locks the owner out),
// equal answers and timing for unknown accounts, and two-factor codes, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveErrorCode } from '@rastro/domain/errors';
import type { User } from '@rastro/domain/entities';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { base32Encode, totpCode } from '../src/auth/totp.ts';

const form = (email: string, password: string, extra: Record<string, string> = {}) =>
  new URLSearchParams({ email, password, ...extra });
const from = (address: string) => ({ 'x-forwarded-for': address });

describe.each(backends)('login protection (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;

  async function createUser(email: string, extra: Record<string, unknown> = {}): Promise<User> {
    const res = await admin.post<User>('/api/users', { name: `User ${email}`, email, password: 'right-pass', ...extra });
    expect(res.status, res.text).toBe(200);
    return res.json;
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('throttles an (account, address) pair after 5 failures with 429, Retry-After and a "Too many attempts" text', async () => {
    await createUser('target@example.com');
    await createUser('bystander@example.com');
    for (let i = 0; i < 5; i++) {
      const res = await server.client().post('/api/session', form('target@example.com', `guess${i}`), from('10.1.0.1'));
      expect(res.status).toBe(401);
    }
    const blocked = await server.client().post('/api/session', form('Target@Example.com', 'right-pass'), from('10.1.0.1'));
    expect(blocked.status).toBe(429);
    expect(blocked.text.split('\n')[0]).toMatch(/^Too many attempts - /);
    const retry = Number(blocked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    // Basic auth is the same door.
    const basic = Buffer.from('target@example.com:right-pass').toString('base64');
    expect((await server.client().get('/api/users', { authorization: `Basic ${basic}`, ...from('10.1.0.1') })).status).toBe(429);
    // The same account from another address, and other accounts from that address, still log in.
    expect((await server.client().post('/api/session', form('target@example.com', 'right-pass'), from('10.1.0.2'))).status).toBe(200);
    expect((await server.client().post('/api/session', form('bystander@example.com', 'right-pass'), from('10.1.0.1'))).status).toBe(200);
  });

  it('never locks the owner out while an attacker hammers the account from other addresses', async () => {
    await createUser('admin2@example.com', { administrator: true });
    // 12 failures from 4 addresses: more than the old per-account lock (10) allowed.
    for (let i = 0; i < 12; i++) {
      const res = await server.client().post('/api/session', form('admin2@example.com', `guess${i}`), from(`10.6.0.${i % 4}`));
      expect(res.status).toBe(401);
    }
    // The pressure slows attempts on the account down, but the right password still works.
    const owner = await server.client().post<User>('/api/session', form('admin2@example.com', 'right-pass'), from('10.6.9.9'));
    expect(owner.status, owner.text).toBe(200);
    expect(owner.json.email).toBe('admin2@example.com');
    const basic = Buffer.from('admin2@example.com:right-pass').toString('base64');
    expect((await server.client().get('/api/session', { authorization: `Basic ${basic}`, ...from('10.6.9.8') })).status).toBe(200);
  });

  it('clears the pair count on a successful login', async () => {
    await createUser('forgetful@example.com');
    const client = server.client();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) {
        expect((await client.post('/api/session', form('forgetful@example.com', 'nope'), from('10.2.0.1'))).status).toBe(401);
      }
      expect((await client.post('/api/session', form('forgetful@example.com', 'right-pass'), from('10.2.0.1'))).status).toBe(200);
    }
  });

  it('blocks an address after 30 failures across accounts, other addresses still log in', async () => {
    await createUser('victim@example.com');
    for (let i = 0; i < 30; i++) {
      const res = await server.client().post('/api/session', form(`ghost${i}@example.com`, 'x'), from('10.3.3.3'));
      expect(res.status).toBe(401);
    }
    const blocked = await server.client().post('/api/session', form('victim@example.com', 'right-pass'), from('10.3.3.3'));
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await server.client().post('/api/session', form('victim@example.com', 'right-pass'), from('10.3.3.4'))).status).toBe(200);
  });

  it('counts an IPv6 client by its /64 network', async () => {
    await createUser('six@example.com');
    for (let i = 0; i < 5; i++) {
      const res = await server.client().post('/api/session', form('six@example.com', 'x'), from(`2001:db8:1:2::${i + 1}`));
      expect(res.status).toBe(401);
    }
    expect((await server.client().post('/api/session', form('six@example.com', 'right-pass'), from('2001:db8:1:2:ffff::7'))).status).toBe(429);
    expect((await server.client().post('/api/session', form('six@example.com', 'right-pass'), from('2001:db8:1:3::1'))).status).toBe(200);
  });

  it('takes as long and answers the same for an unknown account as for a known one', async () => {
    await createUser('timed@example.com');
    const attempt = async (email: string, address: string) => {
      const started = performance.now();
      const res = await server.client().post('/api/session', form(email, 'wrong-pass'), from(address));
      return { ms: performance.now() - started, status: res.status, text: res.text };
    };
    const known: number[] = [];
    const unknown: number[] = [];
    // Interleaved, each from its own address and below every throttle, so load hits both alike.
    for (let i = 0; i < 7; i++) {
      const k = await attempt('timed@example.com', `10.7.1.${i}`);
      const u = await attempt(`nobody${i}@example.com`, `10.7.2.${i}`);
      expect(u.status).toBe(k.status);
      expect(u.text).toBe(k.text);
      known.push(k.ms);
      unknown.push(u.ms);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Loose bound: the old code answered unknown accounts >10x faster (no KDF run).
    expect(median(unknown), `known ${known.map(Math.round)} unknown ${unknown.map(Math.round)}`).toBeGreaterThanOrEqual(0.5 * median(known));
  });

  it('asks users with a TOTP key for a code and checks it', async () => {
    const secret = base32Encode(Buffer.from('0123456789abcdefghij'));
    await createUser('twofactor@example.com', { totpKey: secret });
    const noCode = await server.client().post('/api/session', form('twofactor@example.com', 'right-pass'), from('10.4.0.1'));
    expect(noCode.status).toBe(401);
    expect(noCode.headers.get('www-authenticate')).toBe('TOTP');
    const wrong = await server.client().post('/api/session', form('twofactor@example.com', 'right-pass', { code: '000000' }), from('10.4.0.1'));
    expect(wrong.status).toBe(401);
    const code = totpCode(Buffer.from('0123456789abcdefghij'), Math.floor(Date.now() / 30_000));
    const ok = await server.client().post<User>('/api/session', form('twofactor@example.com', 'right-pass', { code }), from('10.4.0.1'));
    expect(ok.status).toBe(200);
    expect(ok.json.totpKey).toBeNull();
    // Basic cannot carry a code.
    const basic = Buffer.from('twofactor@example.com:right-pass').toString('base64');
    expect((await server.client().get('/api/users', { authorization: `Basic ${basic}` })).status).toBe(401);
  });

  it('answers bad-credential failures with the catalogue code even when throttling is near', async () => {
    const res = await server.client().post('/api/session', form('someone@example.com', 'x'), from('10.5.0.1'));
    expect(res.status).toBe(401);
    expect(deriveErrorCode(res.text)).toBe('HTTP_401_UNAUTHORIZED');
  });
});
