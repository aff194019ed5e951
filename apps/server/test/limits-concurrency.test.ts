// Point 5 of the hardening issue: limits and unique identifiers hold when many creates race.
// Each case fires 50 creates at once; exactly the allowed number succeed and the others get
// the documented 400 text, on SQLite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';
import { texts } from '../src/users/user-rules.ts';
import { backends, startTestServer, type TestClient, type TestResponse, type TestServer } from './harness.ts';
import { makeUser, setServer } from './visibility-fixtures.ts';

const N = 50;

/** Fires `N` requests at once and sorts the answers into successes and refusal texts. */
async function burst(send: (i: number) => Promise<TestResponse>): Promise<{ ok: number; refusals: string[]; others: TestResponse[] }> {
  const answers = await Promise.all(Array.from({ length: N }, (_, i) => send(i)));
  return {
    ok: answers.filter((r) => r.status === 200).length,
    refusals: answers.filter((r) => r.status === 400).map((r) => r.text.split('\n')[0]!),
    others: answers.filter((r) => r.status !== 200 && r.status !== 400),
  };
}

const expectRefusals = (result: Awaited<ReturnType<typeof burst>>, allowed: number, text: string) => {
  expect(result.others.map((r) => `${r.status} ${r.text}`)).toEqual([]);
  expect(result.ok).toBe(allowed);
  expect(result.refusals).toEqual(Array.from({ length: N - allowed }, () => text));
};

describe.each(backends)('limits under concurrency (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  const db = () => server.rastro.ctx.storage.db;
  const countDevices = async () => Number((await db().selectFrom('devices').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a manager's userLimit: 50 simultaneous creates, exactly userLimit succeed", async () => {
    const manager = await makeUser(server, 'lc-manager@test', { userLimit: 2 });
    const result = await burst((i) => manager.client.post('/api/users', { name: `Sub ${i}`, email: `lc-sub-${i}@test`, password: 'secret' }));
    expectRefusals(result, 2, texts.userLimit);
    const links = await db().selectFrom('userUser').select('propertyId').where('ownerId', '=', manager.row.id).execute();
    expect(links).toHaveLength(2);
  });

  it("a user's deviceLimit: 50 simultaneous creates, exactly deviceLimit succeed", async () => {
    const user = await makeUser(server, 'lc-devices@test', { deviceLimit: 3 });
    const result = await burst((i) => user.client.post('/api/devices', { name: `D ${i}`, uniqueId: `lc-user-${i}` }));
    expectRefusals(result, 3, SERVER_ERROR_TEXTS.deviceLimit);
    expect(await server.rastro.ctx.visibility.countDevices(user.row.id)).toBe(3);
  });

  it('the server attribute tarkan.deviceLimit: 50 simultaneous creates, exactly the remaining slots succeed', async () => {
    const before = await countDevices();
    await setServer(server, { attributes: JSON.stringify({ 'tarkan.deviceLimit': before + 5 }) });
    try {
      const result = await burst((i) => admin.post('/api/devices', { name: `S ${i}`, uniqueId: `lc-attr-${i}` }));
      expectRefusals(result, 5, SERVER_ERROR_TEXTS.deviceLimit);
      expect(await countDevices()).toBe(before + 5);
    } finally {
      await setServer(server, { attributes: '{}' });
    }
  });

  it('a duplicate uniqueId: 50 simultaneous creates, exactly one succeeds', async () => {
    const user = await makeUser(server, 'lc-dup-device@test');
    const result = await burst((i) => (i % 2 === 0 ? admin : user.client).post('/api/devices', { name: `U ${i}`, uniqueId: 'lc-same' }));
    expectRefusals(result, 1, 'Duplicate unique identifier - another device already uses lc-same');
  });

  it('a duplicate e-mail (any case): 50 simultaneous creates, exactly one succeeds', async () => {
    const result = await burst((i) => admin.post('/api/users', { name: `Dup ${i}`, email: i % 2 ? 'LC-Same@Test' : 'lc-same@test', password: 'secret' }));
    expectRefusals(result, 1, texts.duplicate);
  });

  it('a duplicate login, or one user\'s login as another\'s e-mail: exactly one succeeds', async () => {
    // No index can tie logins to e-mails: only the creating transaction can.
    const result = await burst((i) =>
      admin.post('/api/users', i % 2
        ? { name: `Login ${i}`, email: `lc-login-${i}@test`, login: 'lc-shared', password: 'secret' }
        : { name: `Mail ${i}`, email: 'lc-shared', password: 'secret' }),
    );
    expectRefusals(result, 1, texts.duplicate);
    const holders = await db().selectFrom('users').select('id').where((eb) => eb.or([eb('email', '=', 'lc-shared'), eb('login', '=', 'lc-shared')])).execute();
    expect(holders).toHaveLength(1);
  });

  it('50 users renamed at once to one login: exactly one succeeds', async () => {
    const ids = (await Promise.all(Array.from({ length: N }, (_, i) => makeUser(server, `lc-rename-${i}@test`)))).map((u) => u.row.id);
    const result = await burst((i) => admin.put(`/api/users/${ids[i]}`, { login: 'lc-renamed' }));
    expectRefusals(result, 1, texts.duplicate);
  });
});

describe.each(backends)('RASTRO_DEVICE_LIMIT under concurrency (%s)', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_DEVICE_LIMIT: '4' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('50 simultaneous creates, exactly the configured number succeed', async () => {
    const admin = await server.admin();
    const result = await burst((i) => admin.post('/api/devices', { name: `C ${i}`, uniqueId: `lc-config-${i}` }));
    expectRefusals(result, 4, SERVER_ERROR_TEXTS.deviceLimit);
  });
});
