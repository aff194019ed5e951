// Point 9 of the hardening issue: a restriction (disabled, expiration) set by a superior stands.
// Devices: ordinary users change neither field; managers may, within their own expiration, but
// not lift what an administrator or their own manager set. Users: nobody lifts their own; a
// manager does not lift what an administrator (or their own manager) put on a managed user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, User } from '@rastro/domain/entities';
import { texts } from '../src/users/user-rules.ts';
import { deviceTexts } from '../src/devices/device-rules.ts';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { create, link, makeUser, type TestUser } from './visibility-fixtures.ts';

const LATER = '2031-01-01T00:00:00.000Z';
const SOON = '2030-01-01T00:00:00.000Z';
const SOONER = '2029-06-01T00:00:00.000Z';

describe.each(backends)('restrictions set by a superior (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let serial = 0;

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  const newDevice = (fields: Record<string, unknown> = {}) => create<Device>(admin, '/api/devices', { name: 'R', uniqueId: `rs-${++serial}`, ...fields });
  const deviceOf = async (user: TestUser, fields: Record<string, unknown> = {}) => {
    const device = await newDevice(fields);
    await link(server, 'userDevice', user.row.id, device.id);
    return device;
  };
  const stored = async (id: number) => (await admin.get<Device>(`/api/devices/${id}`)).json;

  describe('devices', () => {
    it('an ordinary user cannot re-enable a device an administrator disabled (the finding)', async () => {
      const user = await makeUser(server, `rs-plain-${++serial}@test`);
      const device = await deviceOf(user);
      expect((await admin.put(`/api/devices/${device.id}`, { ...device, disabled: true })).status).toBe(200);
      const res = await user.client.put(`/api/devices/${device.id}`, { ...device, disabled: false });
      expect(res.status).toBe(400);
      expect(res.text).toBe(deviceTexts.restrictionDenied);
      expect((await stored(device.id)).disabled).toBe(true);
    });

    it('an ordinary user changes neither field, but may send them back unchanged', async () => {
      const user = await makeUser(server, `rs-plain-${++serial}@test`);
      const device = await deviceOf(user, { expirationTime: SOON });
      const same = await user.client.put<Device>(`/api/devices/${device.id}`, { ...device, name: 'Renamed' });
      expect(same.status).toBe(200);
      expect(same.json).toMatchObject({ name: 'Renamed', disabled: false });
      expect(Date.parse(same.json.expirationTime!)).toBe(Date.parse(SOON));
      for (const change of [{ disabled: true }, { expirationTime: LATER }, { expirationTime: SOONER }, { expirationTime: null }]) {
        const res = await user.client.put(`/api/devices/${device.id}`, change);
        expect(res.status, JSON.stringify(change)).toBe(400);
        expect(res.text).toBe(deviceTexts.restrictionDenied);
      }
      const born = await user.client.post('/api/devices', { name: 'New', uniqueId: `rs-${++serial}`, disabled: true });
      expect(born.status).toBe(400);
      expect(born.text).toBe(deviceTexts.restrictionDenied);
      expect((await user.client.post('/api/devices', { name: 'New', uniqueId: `rs-${++serial}`, disabled: false, expirationTime: null })).status).toBe(200);
    });

    it("a manager cannot lift an administrator's restriction, only tighten it", async () => {
      const manager = await makeUser(server, `rs-mgr-${++serial}@test`, { userLimit: 5 });
      const disabled = await deviceOf(manager, { disabled: true });
      const lift = await manager.client.put(`/api/devices/${disabled.id}`, { disabled: false });
      expect(lift.status).toBe(400);
      expect(lift.text).toBe(deviceTexts.restrictedBySuperior);

      const expiring = await deviceOf(manager);
      expect((await admin.put(`/api/devices/${expiring.id}`, { expirationTime: SOON })).status).toBe(200);
      for (const change of [{ expirationTime: LATER }, { expirationTime: null }]) {
        const res = await manager.client.put(`/api/devices/${expiring.id}`, change);
        expect(res.status, JSON.stringify(change)).toBe(400);
        expect(res.text).toBe(deviceTexts.restrictedBySuperior);
      }
      // Stricter is fine, and does not make the restriction the manager's.
      expect((await manager.client.put(`/api/devices/${expiring.id}`, { expirationTime: SOONER, disabled: true })).status).toBe(200);
      expect((await manager.client.put(`/api/devices/${expiring.id}`, { disabled: false })).status).toBe(400);
      expect((await manager.client.put(`/api/devices/${expiring.id}`, { expirationTime: SOON })).status).toBe(400);
      // The administrator lifts it; from then on it is nobody's.
      expect((await admin.put(`/api/devices/${expiring.id}`, { expirationTime: null, disabled: false })).status).toBe(200);
      expect((await manager.client.put(`/api/devices/${expiring.id}`, { disabled: true })).status).toBe(200);
      expect((await manager.client.put(`/api/devices/${expiring.id}`, { disabled: false })).status).toBe(200);
    });

    it("a manager lifts their own and a peer's restriction, not their own manager's", async () => {
      const boss = await makeUser(server, `rs-boss-${++serial}@test`, { userLimit: 5 });
      const sub = await makeUser(server, `rs-sub-${++serial}@test`, { userLimit: 5 });
      const peer = await makeUser(server, `rs-peer-${++serial}@test`, { userLimit: 5 });
      await link(server, 'userUser', boss.row.id, sub.row.id);
      const device = await deviceOf(boss);
      await link(server, 'userDevice', sub.row.id, device.id);
      await link(server, 'userDevice', peer.row.id, device.id);

      expect((await boss.client.put(`/api/devices/${device.id}`, { disabled: true })).status).toBe(200);
      const bySub = await sub.client.put(`/api/devices/${device.id}`, { disabled: false });
      expect(bySub.status).toBe(400);
      expect(bySub.text).toBe(deviceTexts.restrictedBySuperior);
      expect((await peer.client.put(`/api/devices/${device.id}`, { disabled: false })).status).toBe(200);
      expect((await sub.client.put(`/api/devices/${device.id}`, { disabled: true })).status).toBe(200);
      expect((await boss.client.put(`/api/devices/${device.id}`, { disabled: false })).status).toBe(200);
    });

    it('a manager gives no device an expiration later than their own', async () => {
      const manager = await makeUser(server, `rs-exp-${++serial}@test`, { userLimit: 5, expirationTime: Date.parse(SOON) });
      const device = await deviceOf(manager);
      const later = await manager.client.put(`/api/devices/${device.id}`, { expirationTime: LATER });
      expect(later.status).toBe(400);
      expect(later.text).toBe(deviceTexts.expiration);
      expect((await manager.client.put(`/api/devices/${device.id}`, { expirationTime: SOONER })).status).toBe(200);
      expect((await manager.client.put(`/api/devices/${device.id}`, { expirationTime: null })).text).toBe(deviceTexts.expiration);
      const created = await manager.client.post('/api/devices', { name: 'New', uniqueId: `rs-${++serial}`, expirationTime: LATER });
      expect(created.text).toBe(deviceTexts.expiration);
    });

    it('a restriction with no known setter (older data) is lifted only by an administrator', async () => {
      const manager = await makeUser(server, `rs-old-${++serial}@test`, { userLimit: 5 });
      const device = await deviceOf(manager);
      await server.rastro.ctx.storage.db.updateTable('devices').set({ disabled: 1 }).where('id', '=', device.id).execute();
      expect((await manager.client.put(`/api/devices/${device.id}`, { disabled: false })).text).toBe(deviceTexts.restrictedBySuperior);
      expect((await admin.put(`/api/devices/${device.id}`, { disabled: false })).status).toBe(200);
    });
  });

  describe('users', () => {
    it('a manager restricted by an administrator cannot lift it on themselves', async () => {
      const manager = await makeUser(server, `rs-self-${++serial}@test`, { userLimit: 5 });
      expect((await admin.put(`/api/users/${manager.row.id}`, { expirationTime: SOON })).status).toBe(200);
      for (const change of [{ expirationTime: LATER }, { expirationTime: null }]) {
        const res = await manager.client.put(`/api/users/${manager.row.id}`, change);
        expect(res.status, JSON.stringify(change)).toBe(400);
      }
      expect(Date.parse((await admin.get<User>(`/api/users/${manager.row.id}`)).json.expirationTime!)).toBe(Date.parse(SOON));
    });

    it("a manager cannot lift an administrator's restriction on a user they manage, but lifts their own", async () => {
      const manager = await makeUser(server, `rs-m-${++serial}@test`, { userLimit: 5 });
      const managed = await makeUser(server, `rs-u-${++serial}@test`);
      await link(server, 'userUser', manager.row.id, managed.row.id);
      expect((await admin.put(`/api/users/${managed.row.id}`, { disabled: true, expirationTime: SOON })).status).toBe(200);
      for (const change of [{ disabled: false }, { expirationTime: LATER }, { expirationTime: null }]) {
        const res = await manager.client.put(`/api/users/${managed.row.id}`, change);
        expect(res.status, JSON.stringify(change)).toBe(400);
        expect(res.text).toBe(texts.restrictedBySuperior);
      }
      // Stricter stays allowed.
      expect((await manager.client.put(`/api/users/${managed.row.id}`, { expirationTime: SOONER })).status).toBe(200);
      expect((await admin.put(`/api/users/${managed.row.id}`, { disabled: false, expirationTime: null })).status).toBe(200);

      expect((await manager.client.put(`/api/users/${managed.row.id}`, { disabled: true })).status).toBe(200);
      const lifted = await manager.client.put<User>(`/api/users/${managed.row.id}`, { disabled: false });
      expect(lifted.status).toBe(200);
      expect(lifted.json.disabled).toBe(false);
    });

    it('managers cannot manage each other, nor lift what an administrator set on the one they manage', async () => {
      const a = await makeUser(server, `rs-a-${++serial}@test`, { userLimit: 5 });
      const b = await makeUser(server, `rs-b-${++serial}@test`, { userLimit: 5 });
      await link(server, 'userUser', a.row.id, b.row.id);
      // Issue 13: user trees have no cycles (migration 011), so b can never manage a back.
      await expect(link(server, 'userUser', b.row.id, a.row.id)).rejects.toThrow(/User tree cycle/);
      expect((await admin.put(`/api/users/${b.row.id}`, { expirationTime: SOON })).status).toBe(200);
      const res = await a.client.put(`/api/users/${b.row.id}`, { expirationTime: null });
      expect(res.status).toBe(400);
      expect(res.text).toBe(texts.restrictedBySuperior);
    });

    it('a user created by a manager with the manager\'s expiration stays the manager\'s to extend (up to their own)', async () => {
      const manager = await makeUser(server, `rs-c-${++serial}@test`, { userLimit: 5, expirationTime: Date.parse(LATER) });
      const created = await manager.client.post<User>('/api/users', { name: 'Made', email: `rs-made-${++serial}@test`, password: 'secret', expirationTime: SOONER });
      expect(created.status).toBe(200);
      expect((await manager.client.put(`/api/users/${created.json.id}`, { expirationTime: SOON })).status).toBe(200);
      expect((await manager.client.put(`/api/users/${created.json.id}`, { expirationTime: LATER })).status).toBe(200);
    });
  });
});
