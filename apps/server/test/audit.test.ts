// The audit log over real HTTP: every audited action writes one row (code, object, diff,
// status, actor, address, agent), secrets never reach the table, a reseller reads only its
// tree's rows, the licence and role gates, Traccar's /api/audit, retention, and the
// completeness of the audited-route table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, User } from '@rastro/domain/entities';
import type { Geofence } from '@rastro/domain/geofence-area';
import { AUDIT_LIST_MAX, AUDIT_MASK, AUDIT_SYSTEM_USER, auditDiff, isAuditCode, type AuditRow } from '@rastro/domain/audit';
import { AuditRepo } from '../src/audit/audit-repo.ts';
import { AUDITED_ROUTES, auditedRoute, routeKey } from '../src/audit/audited-routes.ts';
import { isAudited } from '../src/audit/audit-route-kit.ts';
import { registeredRoutes, WRITE_METHODS } from '../src/audit/audit-recorder.ts';
import { removeExpiredAudit } from '../src/audit/audit-retention.ts';
import { recordSystem } from '../src/audit/audit-system.ts';
import { ADMIN_PASSWORD, backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectResponse } from './openapi.ts';
import { create, makeUser, USER_PASSWORD, type TestUser } from './visibility-fixtures.ts';

const DAY = 86_400_000;
const AGENT = 'AuditTest/1.0 (X11; Linux x86_64)';

describe.each(backends)('audit (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let adminId: number;

  /** Rows written since `mark` (an id), oldest first, straight from the table. */
  async function rowsSince(mark: number) {
    return server.rastro.ctx.storage.db.selectFrom('auditLog').selectAll().where('id', '>', mark).orderBy('id').execute();
  }
  async function lastId(): Promise<number> {
    const row = await server.rastro.ctx.storage.db.selectFrom('auditLog').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst();
    return row ? Number(row.id) : 0;
  }
  /** Runs `action` and answers the one row it wrote, as the log routes show it. */
  async function oneRow(action: () => Promise<unknown>): Promise<AuditRow> {
    const mark = await lastId();
    await action();
    const rows = await rowsSince(mark);
    expect(rows.map((r) => r.code), 'exactly one row').toHaveLength(1);
    const page = await admin.get<AuditRow[]>('/api/server/logs?limit=1');
    expect(page.status, page.text).toBe(200);
    expect(page.json[0]!.id).toBe(Number(rows[0]!.id));
    return page.json[0]!;
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = server.client();
    admin.headers['user-agent'] = AGENT;
    const login = await admin.login('admin', ADMIN_PASSWORD);
    adminId = (login.json as User).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('recording', () => {
    it('writes a login, with the e-mail tried, address and agent', async () => {
      const row = await oneRow(() => {
        const c = server.client();
        c.headers['user-agent'] = AGENT;
        return c.login('admin', ADMIN_PASSWORD);
      });
      expect(row).toMatchObject({ code: 101, userId: adminId, objectType: 'user', objectId: adminId, status: 200, userAgent: AGENT, data: { email: 'admin' } });
      expect(row.userIp).toMatch(/127\.0\.0\.1/);
      expect(Date.now() - Date.parse(row.created_at)).toBeLessThan(60_000);
      expect(Object.keys(row).sort()).toEqual(['code', 'created_at', 'data', 'id', 'objectId', 'objectType', 'old', 'status', 'userAgent', 'userId', 'userIp', 'username']);
    });

    it('writes a failed login without the password, naming the account tried', async () => {
      const password = 'wrong-Pa55word-xyz';
      const row = await oneRow(async () => {
        const res = await server.client().post('/api/session', new URLSearchParams({ email: 'ADMIN', password }));
        expect(res.status).toBe(401);
      });
      expect(row).toMatchObject({ code: 101, userId: null, username: 'ADMIN', objectType: 'user', objectId: adminId, status: 401, data: { email: 'ADMIN' }, old: null });
      const unknown = await oneRow(() => server.client().post('/api/session', new URLSearchParams({ email: 'nobody@audit.test', password })));
      expect(unknown).toMatchObject({ code: 101, userId: null, objectId: null, status: 401 });
      const stored = await server.rastro.ctx.storage.db.selectFrom('auditLog').selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(password);
    });

    it('writes user creation (101), edit with its diff (105, 106 for a password) and deletion (102)', async () => {
      const password = 'Secret-777-pass';
      let user!: User;
      const made = await oneRow(async () => {
        user = await create<User>(admin, '/api/users', { name: 'Audit Person', email: 'person@audit.test', password });
      });
      expect(made).toMatchObject({ code: 101, userId: adminId, username: 'admin', objectType: 'user', objectId: user.id, status: 200, old: null });
      expect(made.data).toMatchObject({ id: user.id, name: 'Audit Person', email: 'person@audit.test' });

      const mark = await lastId();
      const res = await admin.put(`/api/users/${user.id}`, { ...user, name: 'Audit Person 2', phone: '555', password: 'Another-888' });
      expect(res.status, res.text).toBe(200);
      const rows = await rowsSince(mark);
      expect(rows.map((r) => [r.code, r.objectId, r.status])).toEqual([[105, user.id, 200], [106, user.id, 200]]);
      const edit = (await admin.get<AuditRow[]>(`/api/users/${user.id}/logs`)).json.find((r) => r.code === 105)!;
      expect(auditDiff(edit.old, edit.data)).toEqual([
        { field: 'name', before: 'Audit Person', after: 'Audit Person 2' },
        { field: 'phone', before: null, after: '555' },
      ]);

      const gone = await oneRow(async () => expect((await admin.delete(`/api/users/${user.id}`)).status).toBe(204));
      expect(gone).toMatchObject({ code: 102, objectType: 'user', objectId: user.id, status: 204, data: null });
      expect(gone.old).toMatchObject({ name: 'Audit Person 2' });
      const stored = JSON.stringify(await server.rastro.ctx.storage.db.selectFrom('auditLog').selectAll().execute());
      expect(stored).not.toContain(password);
      expect(stored).not.toContain('Another-888');
    });

    it('writes device creation and edit (301, diff) and deletion (302)', async () => {
      let device!: Device;
      const made = await oneRow(async () => {
        device = await create<Device>(admin, '/api/devices', { name: 'Audit Truck', uniqueId: 'audit-1' });
      });
      expect(made).toMatchObject({ code: 301, objectType: 'device', objectId: device.id, status: 200, old: null, data: { name: 'Audit Truck' } });

      const edit = await oneRow(() => admin.put(`/api/devices/${device.id}`, { ...device, name: 'Audit Truck 2', attributes: { speedLimit: 50 } }));
      expect(edit).toMatchObject({ code: 301, objectId: device.id, status: 200 });
      expect(auditDiff(edit.old, edit.data)).toEqual([
        { field: 'attributes.speedLimit', before: undefined, after: 50 },
        { field: 'name', before: 'Audit Truck', after: 'Audit Truck 2' },
      ]);

      const gone = await oneRow(() => admin.delete(`/api/devices/${device.id}`));
      expect(gone).toMatchObject({ code: 302, objectId: device.id, status: 204, data: null, old: { name: 'Audit Truck 2', uniqueId: 'audit-1' } });
    });

    it('writes a refused action with its status and without the object it would have shown', async () => {
      const device = await create<Device>(admin, '/api/devices', { name: 'Not yours', uniqueId: 'audit-private' });
      const outsider = await makeUser(server, 'outsider@audit.test');
      const row = await oneRow(async () => expect((await outsider.client.delete(`/api/devices/${device.id}`)).status).toBe(400));
      expect(row).toMatchObject({ code: 302, userId: outsider.row.id, objectId: device.id, status: 400, old: null, data: null });
      // Nobody signed in: no account acted, no row.
      const mark = await lastId();
      expect((await server.client().delete(`/api/devices/${device.id}`)).status).toBe(401);
      expect(await rowsSince(mark)).toEqual([]);
    });

    it('writes geofences (401, 403, 402) and anchors (405, 406) about their device', async () => {
      let geofence!: Geofence;
      const made = await oneRow(async () => {
        geofence = await create<Geofence>(admin, '/api/geofences', { name: 'Yard', area: 'CIRCLE (-23.5 -46.6, 100)' });
      });
      expect(made).toMatchObject({ code: 401, objectType: 'geofence', objectId: geofence.id, data: { name: 'Yard' } });
      const edit = await oneRow(() => admin.put(`/api/geofences/${geofence.id}`, { ...geofence, name: 'Yard 2' }));
      expect(edit).toMatchObject({ code: 403, objectId: geofence.id, status: 200 });
      expect(auditDiff(edit.old, edit.data)).toEqual([{ field: 'name', before: 'Yard', after: 'Yard 2' }]);
      expect(await oneRow(() => admin.delete(`/api/geofences/${geofence.id}`))).toMatchObject({ code: 402, objectId: geofence.id, status: 204, old: { name: 'Yard 2' } });

      const device = await create<Device>(admin, '/api/devices', { name: 'Anchored', uniqueId: 'audit-anchor' });
      let anchor!: Geofence;
      const on = await oneRow(async () => {
        anchor = await create<Geofence>(admin, '/api/geofences', {
          name: 'Anchor', area: 'CIRCLE (-23.5 -46.6, 50)', attributes: { isAnchor: true, deviceId: device.id },
        });
      });
      expect(on).toMatchObject({ code: 405, objectType: 'device', objectId: device.id, status: 200 });
      const off = await oneRow(() => admin.delete(`/api/geofences/${anchor.id}`));
      expect(off).toMatchObject({ code: 406, objectType: 'device', objectId: device.id, status: 204 });
      // Both show in the device's log.
      const log = (await admin.get<AuditRow[]>(`/api/devices/${device.id}/logs`)).json.map((r) => r.code);
      expect(log).toEqual(expect.arrayContaining([405, 406, 301]));
    });

    it('writes drivers (510, 511 with diff) and masks secrets in attributes', async () => {
      let driver!: { id: number; name: string; uniqueId: string; attributes: Record<string, unknown> };
      const made = await oneRow(async () => {
        driver = await create(admin, '/api/drivers', { name: 'Ana', uniqueId: 'drv-1', attributes: { 'tarkan.driverPassword': 'qr-secret-1234' } });
      });
      expect(made).toMatchObject({ code: 510, objectType: 'driver', objectId: driver.id, data: { name: 'Ana', attributes: { 'tarkan.driverPassword': AUDIT_MASK } } });
      const edit = await oneRow(() => admin.put(`/api/drivers/${driver.id}`, { ...driver, name: 'Ana Maria' }));
      expect(edit).toMatchObject({ code: 511, objectId: driver.id });
      expect(auditDiff(edit.old, edit.data)).toEqual([{ field: 'name', before: 'Ana', after: 'Ana Maria' }]);
      expect(JSON.stringify(await server.rastro.ctx.storage.db.selectFrom('auditLog').selectAll().execute())).not.toContain('qr-secret-1234');
    });

    it('writes a command sent (201) with its type and device', async () => {
      const device = await create<Device>(admin, '/api/devices', { name: 'Cmd', uniqueId: 'audit-cmd' });
      const row = await oneRow(async () => {
        const res = await admin.post('/api/commands/send', { deviceId: device.id, type: 'engineStop' });
        expect([200, 202]).toContain(res.status);
      });
      expect(row).toMatchObject({ code: 201, objectType: 'device', objectId: device.id, data: { type: 'engineStop', deviceId: device.id } });
      expect([200, 202]).toContain(row.status);
    });

    it('writes links and unlinks (901 / 902) with both keys, in the logs of both sides', async () => {
      const device = await create<Device>(admin, '/api/devices', { name: 'Linked', uniqueId: 'audit-link' });
      const user = await makeUser(server, 'linked@audit.test');
      const on = await oneRow(() => admin.post('/api/permissions', { userId: user.row.id, deviceId: device.id }));
      expect(on).toMatchObject({ code: 901, objectType: 'user', objectId: user.row.id, status: 204, data: { userId: user.row.id, deviceId: device.id } });
      const off = await oneRow(() => admin.delete('/api/permissions', { userId: user.row.id, deviceId: device.id }));
      expect(off).toMatchObject({ code: 902, status: 204, data: { userId: user.row.id, deviceId: device.id } });
      expect((await admin.get<AuditRow[]>(`/api/devices/${device.id}/logs`)).json.map((r) => r.code)).toEqual(expect.arrayContaining([901, 902]));
      expect((await admin.get<AuditRow[]>(`/api/users/${user.row.id}/logs`)).json.map((r) => r.code)).toEqual(expect.arrayContaining([901, 902]));
      // Bulk: one row per link.
      const d2 = await create<Device>(admin, '/api/devices', { name: 'Linked 2', uniqueId: 'audit-link-2' });
      const mark = await lastId();
      expect((await admin.post('/api/permissions/bulk', [{ userId: user.row.id, deviceId: device.id }, { userId: user.row.id, deviceId: d2.id }])).status).toBe(204);
      expect((await rowsSince(mark)).map((r) => [r.code, r.relatedId])).toEqual([[901, device.id], [901, d2.id]]);
    });

    it('records the server\'s own actions with recordSystem', async () => {
      const device = await create<Device>(admin, '/api/devices', { name: 'Ruled', uniqueId: 'audit-system' });
      await recordSystem(server.rastro.ctx, { code: 211, objectType: 'device', objectId: device.id, data: { reason: 'unknownDriver' } });
      const [row] = (await admin.get<AuditRow[]>(`/api/devices/${device.id}/logs`)).json;
      expect(row).toMatchObject({ code: 211, userId: null, username: AUDIT_SYSTEM_USER, userIp: null, status: null, data: { reason: 'unknownDriver' } });
    });

    it('has no route that changes or removes a row', async () => {
      const [row] = (await admin.get<AuditRow[]>('/api/server/logs?limit=1')).json;
      for (const method of ['PUT', 'DELETE', 'POST'] as const) {
        const res = await admin.request(method, `/api/server/logs/${row!.id}`, method === 'DELETE' ? undefined : {});
        expect(res.status, method).toBe(404);
      }
    });
  });

  describe('reading', () => {
    let manager: TestUser;
    let customer: TestUser;
    let stranger: TestUser;
    let customerDevice: Device;
    let strangerDevice: Device;

    beforeAll(async () => {
      manager = await makeUser(server, 'reseller@audit.test', { userLimit: 10, deviceLimit: -1 });
      customer = await makeUser(server, 'customer@audit.test', { deviceLimit: -1 });
      stranger = await makeUser(server, 'stranger@audit.test', { deviceLimit: -1 });
      expect((await admin.post('/api/permissions', { userId: manager.row.id, managedUserId: customer.row.id })).status).toBe(204);
      customerDevice = await create<Device>(customer.client, '/api/devices', { name: 'Customer car', uniqueId: 'audit-cust' });
      strangerDevice = await create<Device>(stranger.client, '/api/devices', { name: 'Stranger car', uniqueId: 'audit-strange' });
      // The manager sees its customer's car (linked as resellers do).
      expect((await admin.post('/api/permissions', { userId: manager.row.id, deviceId: customerDevice.id })).status).toBe(204);
      await customer.client.put(`/api/devices/${customerDevice.id}`, { ...customerDevice, name: 'Customer car 2' });
      await stranger.client.put(`/api/devices/${strangerDevice.id}`, { ...strangerDevice, name: 'Stranger car 2' });
      await server.client().post('/api/session', new URLSearchParams({ email: 'customer@audit.test', password: 'bad-guess' }));
      await server.client().post('/api/session', new URLSearchParams({ email: 'stranger@audit.test', password: 'bad-guess' }));
      await customer.client.login('customer@audit.test', USER_PASSWORD);
    });

    it('gives a reseller only the rows of its tree, never one about anyone else', async () => {
      const res = await manager.client.get<AuditRow[]>(`/api/server/logs?limit=${AUDIT_LIST_MAX}`);
      expect(res.status, res.text).toBe(200);
      const tree = new Set([manager.row.id, customer.row.id]);
      const devices = new Set([customerDevice.id]);
      for (const row of res.json) {
        const about =
          (row.userId !== null && tree.has(row.userId)) ||
          (row.objectType === 'user' && tree.has(row.objectId!)) ||
          (row.objectType === 'device' && devices.has(row.objectId!)) ||
          Object.entries(row.data ?? {}).some(([k, v]) => (k === 'userId' && tree.has(v as number)) || (k === 'deviceId' && devices.has(v as number)));
        expect(about, JSON.stringify(row)).toBe(true);
        expect(row.userId).not.toBe(stranger.row.id);
        expect(row.objectId === strangerDevice.id && row.objectType === 'device').toBe(false);
      }
      const codes = res.json.map((r) => `${r.code}:${r.userId}:${r.objectId}:${r.status}`);
      // Its customer's edit, its failed and good logins, and the admin linking the customer to it.
      expect(codes).toContain(`301:${customer.row.id}:${customerDevice.id}:200`);
      expect(codes).toContain(`101:null:${customer.row.id}:401`);
      expect(codes).toContain(`101:${customer.row.id}:${customer.row.id}:200`);
      expect(codes).toContain(`901:${adminId}:${manager.row.id}:204`);
      // The administrator sees the stranger's rows too.
      const all = (await admin.get<AuditRow[]>(`/api/server/logs?limit=${AUDIT_LIST_MAX}`)).json;
      expect(all.some((r) => r.userId === stranger.row.id)).toBe(true);
      expect(all.some((r) => r.objectId === stranger.row.id && r.status === 401)).toBe(true);
    });

    it('serves a managed user\'s and a seen device\'s log, and refuses the others', async () => {
      const user = await manager.client.get<AuditRow[]>(`/api/users/${customer.row.id}/logs`);
      expect(user.status, user.text).toBe(200);
      expect(user.json.length).toBeGreaterThan(0);
      expect(user.json.every((r) => r.userId === customer.row.id || (r.objectType === 'user' && r.objectId === customer.row.id) || r.data?.managedUserId === customer.row.id)).toBe(true);
      const device = await manager.client.get<AuditRow[]>(`/api/devices/${customerDevice.id}/logs`);
      expect(device.status, device.text).toBe(200);
      expect(device.json.map((r) => r.code)).toEqual(expect.arrayContaining([301, 901]));
      expect((await manager.client.get(`/api/users/${stranger.row.id}/logs`)).status).toBe(400);
      expect((await manager.client.get(`/api/devices/${strangerDevice.id}/logs`)).status).toBe(400);
    });

    it('answers the same under /tarkan', async () => {
      for (const path of ['/server/logs', `/users/${customer.row.id}/logs`, `/devices/${customerDevice.id}/logs`]) {
        const api = await manager.client.get<AuditRow[]>(`/api${path}`);
        const tarkan = await manager.client.get<AuditRow[]>(`/tarkan${path}`);
        expect(tarkan.status, tarkan.text).toBe(200);
        expect(tarkan.json).toEqual(api.json);
      }
      expect((await server.client().get('/tarkan/server/logs')).status).toBe(401);
    });

    it('refuses users who are not managers, with a message', async () => {
      const res = await customer.client.get('/api/server/logs');
      expect(res.status).toBe(403);
      expect(res.text).toMatch(/^Manager access required/);
      expect((await customer.client.get(`/tarkan/users/${customer.row.id}/logs`)).status).toBe(403);
    });

    it('pages and filters by period', async () => {
      const first = await admin.get<AuditRow[]>('/api/server/logs?limit=2');
      const second = await admin.get<AuditRow[]>('/api/server/logs?limit=2&offset=1');
      expect(first.json).toHaveLength(2);
      expect(second.json[0]).toEqual(first.json[1]);
      expect(Date.parse(first.json[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(first.json[1]!.created_at));
      const future = new Date(Date.now() + DAY).toISOString();
      expect((await admin.get<AuditRow[]>(`/api/server/logs?from=${future}`)).json).toEqual([]);
      const to = new Date(Date.now() + DAY).toISOString();
      const from = new Date(Date.now() - DAY).toISOString();
      expect((await admin.get<AuditRow[]>(`/api/server/logs?from=${from}&to=${to}&limit=3`)).json).toHaveLength(3);
      for (const bad of ['from=yesterday', 'limit=-1', 'limit=0', 'offset=x', `from=${to}&to=${from}`]) {
        const res = await admin.get(`/api/server/logs?${bad}`);
        expect(res.status, bad).toBe(400);
        expect(res.text, bad).toMatch(/^Invalid/);
      }
    });

    it('serves Traccar\'s /api/audit to administrators, in its shape', async () => {
      const from = new Date(Date.now() - DAY).toISOString();
      const to = new Date(Date.now() + DAY).toISOString();
      const res = await admin.get<Array<Record<string, unknown>>>(`/api/audit?from=${from}&to=${to}`);
      expect(res.status, res.text).toBe(200);
      expectResponse('GET', '/audit', res);
      expect(res.json.length).toBeGreaterThan(5);
      const types = new Set(res.json.map((a) => a.actionType));
      for (const t of ['login', 'failedLogin', 'create', 'edit', 'remove', 'link', 'unlink', 'command']) expect(types, t).toContain(t);
      const failed = res.json.find((a) => a.actionType === 'failedLogin')!;
      expect(failed).toMatchObject({ userId: 0, objectType: 'user' });
      expect(Date.parse(res.json[0]!.actionTime as string)).toBeLessThanOrEqual(Date.parse(res.json[res.json.length - 1]!.actionTime as string));
      expect((await admin.get('/api/audit')).status).toBe(400);
      expect((await manager.client.get(`/api/audit?from=${from}&to=${to}`)).status).toBe(400);
    });
  });

  it('keeps rows for the retention only, at start-up and by the job', async () => {
    const repo = new AuditRepo(server.rastro.ctx.storage.db);
    const now = Date.now();
    const entry = { code: 301, userId: null, userName: 'x', userIp: null, userAgent: null, objectType: 'device', objectId: 999_999, status: 200 };
    await repo.insert([{ ...entry, time: now - 400 * DAY }, { ...entry, time: now - 300 * DAY }, { ...entry, time: now - DAY }]);
    const times = async () =>
      (await server.rastro.ctx.storage.db.selectFrom('auditLog').select('time').where('objectId', '=', 999_999).orderBy('time').execute()).map((r) => Number(r.time));
    expect(await removeExpiredAudit(server.rastro.ctx, now)).toBe(1);
    expect(await times()).toEqual([now - 300 * DAY, now - DAY]);
    // A server started later with a shorter retention removes what is past it at once.
    const second = await startTestServer(backend, { RASTRO_AUDIT_RETENTION_DAYS: '30' }, { shareDatabaseWith: server });
    try {
      const deadline = Date.now() + 10_000;
      while ((await times()).length > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await times()).toEqual([now - DAY]);
    } finally {
      await second.close();
    }
  });

  it('refuses the logs without the Plus licence', async () => {
    const basic = await startTestServer(backend, { RASTRO_LICENSE: 'basic' });
    try {
      const res = await (await basic.admin()).get('/api/server/logs');
      expect(res.status).toBe(403);
      expect(res.text).toMatch(/Plus licence/);
    } finally {
      await basic.close();
    }
  });

  it('has an entry (a code or a reason) for every write route', () => {
    const writes = registeredRoutes(server.rastro.app).filter((r) => (WRITE_METHODS as readonly string[]).includes(r.method));
    expect(writes.length).toBeGreaterThan(30);
    const missing = writes.filter((r) => !auditedRoute(r.method, r.url)).map((r) => `${r.method} ${r.url}`);
    expect(missing, 'add these to apps/server/src/audit/audited-routes.ts (a code, or notAudited with the reason)').toEqual([]);
    for (const [key, entry] of Object.entries(AUDITED_ROUTES)) {
      expect(key, 'keys are "METHOD /path"').toMatch(/^(GET|POST|PUT|DELETE|PATCH) \/\S+$/);
      if (!isAudited(entry)) expect(entry.notAudited.trim().length, key).toBeGreaterThan(10);
    }
    expect(routeKey('PUT', '/tarkan/shares/:shareId')).toBe(routeKey('put', '/tarkan/shares/:id'));
  });

  it('writes only known codes', async () => {
    const codes = await server.rastro.ctx.storage.db.selectFrom('auditLog').select('code').distinct().execute();
    expect(codes.length).toBeGreaterThan(10);
    for (const { code } of codes) expect(isAuditCode(code), String(code)).toBe(true);
  });
});
