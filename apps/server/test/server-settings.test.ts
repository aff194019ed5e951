// PUT /api/server checks the product's server attributes (issue 13 item 7): the spec §6 options,
// the QR driver rules and their timeouts, the language, the server-wide device limit (only the
// first administrator moves it); a value stored earlier by another client does not block an
// unrelated save; and the web client's settings form, applied to what the server answers, is
// stored as it means.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server, User } from '@rastro/domain/entities';
import {
  applyServerSettings, QR_DRIVER_KEYS, serverSettingsForm, serverSettingsFormSchema,
} from '@rastro/domain/server-settings';
import { DEVICE_LIMIT_OWNER_TEXT } from '../src/server-info/server-settings-rules.ts';
import { invalidateServerRow } from '../src/server-info/server-repo.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';

describe.each(backends)('PUT /api/server settings (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let admin2: TestClient;

  const current = async () => (await admin.get<Server>('/api/server')).json;
  const putAttributes = async (client: TestClient, changes: Record<string, unknown>, drop: string[] = []) => {
    const now = await current();
    const attributes: Record<string, unknown> = { ...now.attributes, ...changes };
    for (const key of drop) delete attributes[key];
    return client.put<Server>('/api/server', { ...now, attributes });
  };

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
    const second = await admin.post<User>('/api/users', { name: 'Second Admin', email: 'admin2@example.com', password: 'secret2', administrator: true });
    expect(second.status, second.text).toBe(200);
    expect(second.json.id).toBeGreaterThan(1);
    admin2 = server.client();
    await admin2.login('admin2@example.com', 'secret2');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stores the options and QR driver rules as real values', async () => {
    const res = await putAttributes(admin, {
      'tarkan.enableLazyDeletion': true, 'tarkan.enableQrDriverId': true, 'tarkan.enableStops': false,
      [QR_DRIVER_KEYS.unlockOnCheckIn]: true,
      [QR_DRIVER_KEYS.logoutOnIgnitionOff]: true, [QR_DRIVER_KEYS.logoutAfterMinutes]: 3,
      [QR_DRIVER_KEYS.lockWithoutDriver]: true, [QR_DRIVER_KEYS.lockAfterMinutes]: 60,
      'tarkan.lang': 'es',
    });
    expect(res.status, res.text).toBe(200);
    const read = await server.client().get<Server>('/api/server');
    expect(read.json.attributes).toMatchObject({
      'tarkan.enableLazyDeletion': true, 'tarkan.enableQrDriverId': true, 'tarkan.enableStops': false,
      [QR_DRIVER_KEYS.logoutAfterMinutes]: 3, [QR_DRIVER_KEYS.lockAfterMinutes]: 60, 'tarkan.lang': 'es',
    });
  });

  it('refuses values of the wrong kind with a 400 naming the attribute, storing nothing', async () => {
    const before = await current();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ [QR_DRIVER_KEYS.logoutAfterMinutes]: 0 }, /^Invalid attributes\.tarkan\.qrDriver\.logoutAfterMinutes - must be a whole number from 1 to 60 minutes$/],
      [{ [QR_DRIVER_KEYS.lockAfterMinutes]: 2.5 }, /^Invalid attributes\.tarkan\.qrDriver\.lockAfterMinutes - /],
      [{ [QR_DRIVER_KEYS.unlockOnCheckIn]: 'true' }, /^Invalid attributes\.tarkan\.qrDriver\.unlockOnCheckIn - must be true or false$/],
      [{ 'tarkan.enableBilling': 'yes' }, /^Invalid attributes\.tarkan\.enableBilling - must be true or false$/],
      [{ 'tarkan.lang': 'fr' }, /^Invalid attributes\.tarkan\.lang - must be one of pt-BR, es, en$/],
      [{ 'tarkan.deviceLimit': 'many' }, /^Invalid attributes\.tarkan\.deviceLimit - /],
      [{ google_api: 42 }, /^Invalid attributes\.google_api - must be text$/],
    ];
    for (const [changes, message] of cases) {
      const res = await putAttributes(admin, changes);
      expect(res.status, JSON.stringify(changes)).toBe(400);
      expect(res.text.split('\n')[0]).toMatch(message);
    }
    expect((await current()).attributes).toEqual(before.attributes);
  });

  it('needs the timeout of a QR rule that is switched on', async () => {
    const res = await putAttributes(admin, { [QR_DRIVER_KEYS.lockWithoutDriver]: true }, [QR_DRIVER_KEYS.lockAfterMinutes]);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^Lock timeout is required - /);
    // Switched off, the timeout may go.
    const off = await putAttributes(admin, { [QR_DRIVER_KEYS.lockWithoutDriver]: false }, [QR_DRIVER_KEYS.lockAfterMinutes]);
    expect(off.status, off.text).toBe(200);
    expect(off.json.attributes[QR_DRIVER_KEYS.lockAfterMinutes]).toBeUndefined();
  });

  it('does not let an old stored value block an unrelated save, but judges it once it changes', async () => {
    // As another client might have left it (written straight to the table).
    const row = await server.rastro.ctx.storage.db.selectFrom('server').select(['id', 'attributes']).executeTakeFirstOrThrow();
    const attrs = { ...JSON.parse(row.attributes), 'tarkan.enableEvents': 'sometimes' };
    await sql`UPDATE server SET attributes = ${JSON.stringify(attrs)} WHERE id = ${row.id}`.execute(server.rastro.ctx.storage.db);
    invalidateServerRow(server.rastro.ctx);
    expect((await putAttributes(admin, { title: 'Frota' })).status).toBe(200);
    expect((await putAttributes(admin, { 'tarkan.enableEvents': 'often' })).status).toBe(400);
    expect((await putAttributes(admin, { 'tarkan.enableEvents': true })).status).toBe(200);
  });

  it('lets only the first administrator change the server device limit', async () => {
    const refused = await putAttributes(admin2, { 'tarkan.deviceLimit': 50 });
    expect(refused.status).toBe(400);
    expect(refused.text.split('\n')[0]).toBe(DEVICE_LIMIT_OWNER_TEXT);
    // Saving it unchanged (or "none" written another way) is no change.
    expect((await putAttributes(admin2, { registration: true })).status).toBe(200);
    expect((await putAttributes(admin2, { 'tarkan.deviceLimit': -1 })).status).toBe(200);
    const set = await putAttributes(admin, { 'tarkan.deviceLimit': 50 });
    expect(set.status, set.text).toBe(200);
    expect(set.json.attributes['tarkan.deviceLimit']).toBe(50);
    expect((await putAttributes(admin2, { 'tarkan.deviceLimit': '50' })).status).toBe(200);
    expect((await putAttributes(admin2, { 'tarkan.deviceLimit': 49 })).status).toBe(400);
    expect((await putAttributes(admin2, {}, ['tarkan.deviceLimit'])).status).toBe(400);
    expect((await putAttributes(admin, { 'tarkan.deviceLimit': -1 })).status).toBe(200);
  });

  it("stores the web client's settings form as it means, and a save that changes nothing keeps every value", async () => {
    const before = await current();
    const form = serverSettingsForm(before);
    const parsed = serverSettingsFormSchema.safeParse({
      ...form, language: 'en', map: 'googleTR', coordinateFormat: 'ddm', zoom: 9, sendCommands: false, registration: false,
      options: { ...form.options, advancedPerms: true, lockUnlock: false },
      logoutOnIgnitionOff: true, logoutAfterMinutes: '5',
      attributes: [...form.attributes, { key: 'speedLimit', value: '80' }],
    });
    if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues));
    const res = await admin.put<Server>('/api/server', applyServerSettings(before, parsed.data));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ map: 'googleTR', coordinateFormat: 'ddm', zoom: 9, limitCommands: true, registration: false });
    expect(res.json.attributes).toMatchObject({
      'tarkan.lang': 'en', 'tarkan.enableAdvancedPerms': true, 'tarkan.enableLockUnlock': false,
      [QR_DRIVER_KEYS.logoutOnIgnitionOff]: true, [QR_DRIVER_KEYS.logoutAfterMinutes]: 5, speedLimit: '80',
    });
    // The headers the client re-reads come with the answer.
    expect(res.headers.get('licensemode')).toBe('plus');
    expect(res.headers.get('rastro-instance')).toMatch(/^[0-9a-f-]{36}$/);

    const saved = res.json;
    const again = serverSettingsFormSchema.parse(serverSettingsForm(saved));
    const unchanged = await admin.put<Server>('/api/server', applyServerSettings(saved, again));
    expect(unchanged.status, unchanged.text).toBe(200);
    expect(unchanged.json.attributes).toEqual(saved.attributes);
  });
});
