// Failed-login throttling (per account and per client address, form and Basic alike) and
// two-factor codes for users with a TOTP key, over real HTTP.
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

  it('blocks an account after 10 failures with 429, Retry-After and a "Too many attempts" text', async () => {
    await createUser('target@example.com');
    await createUser('bystander@example.com');
    for (let i = 0; i < 10; i++) {
      const res = await server.client().post('/api/session', form('target@example.com', `guess${i}`), from(`10.1.0.${i}`));
      expect(res.status).toBe(401);
    }
    const blocked = await server.client().post('/api/session', form('Target@Example.com', 'right-pass'), from('10.1.1.1'));
    expect(blocked.status).toBe(429);
    expect(blocked.text.split('\n')[0]).toMatch(/^Too many attempts - /);
    const retry = Number(blocked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    // Basic auth is the same door.
    const basic = Buffer.from('target@example.com:right-pass').toString('base64');
    expect((await server.client().get('/api/users', { authorization: `Basic ${basic}`, ...from('10.1.1.2') })).status).toBe(429);
    // Other accounts from the same addresses are not affected.
    expect((await server.client().post('/api/session', form('bystander@example.com', 'right-pass'), from('10.1.0.1'))).status).toBe(200);
  });

  it('clears the account count on a successful login', async () => {
    await createUser('forgetful@example.com');
    const client = server.client();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 9; i++) {
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
