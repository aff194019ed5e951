// Traccar API contract: the answers of the core endpoints match the Traccar OpenAPI file
// (status documented for the operation, body valid against its schema), on every backend.
// Behaviour follows shared/reference/traccar-reference.md A.1; the schemas come from
// shared/reference/traccar-openapi.yaml through ./openapi.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { expectArrayOf, expectResponse, expectSchema } from './openapi.ts';

interface Identified {
  id: number;
  [key: string]: unknown;
}

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(backends)('Traccar API contract (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  // Objects created along the way; later tests use them when the earlier ones passed.
  let user: Identified | undefined;
  let device: Identified | undefined;

  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('session', () => {
    it('POST /api/session (form login) returns the User', async () => {
      const client = server.client();
      const res = await client.post('/api/session', new URLSearchParams({ email: 'admin', password: ADMIN_PASSWORD }));
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(/JSESSIONID=/);
      const body = expectResponse<Identified>('POST', '/session', res);
      expectSchema(body, 'User');
      expect(body).toMatchObject({ administrator: true });
      expect(body).not.toHaveProperty('hashedPassword');
      expect(body).not.toHaveProperty('salt');
    });

    it('POST /api/session with a wrong password is a documented 401', async () => {
      const res = await server.client().post('/api/session', new URLSearchParams({ email: 'admin', password: 'wrong-password' }));
      expect(res.status).toBe(401);
      expectResponse('POST', '/session', res);
    });

    it('GET /api/session returns the logged-in User', async () => {
      const res = await admin.get('/api/session');
      expect(res.status).toBe(200);
      expectSchema(expectResponse('GET', '/session', res), 'User');
    });

    it('GET /api/session without a session is a documented 404', async () => {
      const res = await server.client().get('/api/session');
      expect(res.status).toBe(404);
      expectResponse('GET', '/session', res);
    });
  });

  describe('server', () => {
    it('GET /api/server returns the Server, to anonymous callers too', async () => {
      for (const client of [server.client(), admin]) {
        const res = await client.get('/api/server');
        expect(res.status).toBe(200);
        const body = expectResponse<Identified>('GET', '/server', res);
        expectSchema(body, 'Server');
        expect(typeof body.id).toBe('number');
      }
    });
  });

  describe('users', () => {
    it('POST /api/users creates a User (password write-only)', async () => {
      const res = await admin.post('/api/users', { name: 'Contract User', email: `contract-${backend}@example.com`, password: 'contract-pw' });
      expect(res.status).toBe(200);
      const body = expectResponse<Identified>('POST', '/users', res);
      expectSchema(body, 'User');
      expect(body.id).toBeGreaterThan(0);
      expect(body.password ?? null).toBeNull();
      user = body;
    });

    it('GET /api/users lists Users', async () => {
      const res = await admin.get('/api/users');
      expect(res.status).toBe(200);
      const list = expectResponse<Identified[]>('GET', '/users', res);
      expectArrayOf(list, 'User', { minLength: 1 });
      if (user) expect(list.map((u) => u.id)).toContain(user.id);
    });

    it('GET /api/users/{id} returns one User', async () => {
      expect(user, 'POST /api/users failed, no user to read').toBeDefined();
      const res = await admin.get(`/api/users/${user!.id}`);
      expect(res.status).toBe(200);
      expect(expectSchema(expectResponse<Identified>('GET', '/users/{id}', res), 'User').id).toBe(user!.id);
    });
  });

  describe('devices', () => {
    it('POST /api/devices creates a Device', async () => {
      const res = await admin.post('/api/devices', { name: 'Contract Truck', uniqueId: `contract-${backend}-1` });
      expect(res.status).toBe(200);
      const body = expectResponse<Identified>('POST', '/devices', res);
      expectSchema(body, 'Device');
      expect(body).toMatchObject({ name: 'Contract Truck', uniqueId: `contract-${backend}-1` });
      device = body;
    });

    it('GET /api/devices lists Devices', async () => {
      const res = await admin.get('/api/devices');
      expect(res.status).toBe(200);
      const list = expectResponse<Identified[]>('GET', '/devices', res);
      expectArrayOf(list, 'Device', { minLength: 1 });
      if (device) expect(list.map((d) => d.id)).toContain(device.id);
    });

    it('GET /api/devices/{id} returns one Device', async () => {
      expect(device, 'POST /api/devices failed, no device to read').toBeDefined();
      const res = await admin.get(`/api/devices/${device!.id}`);
      expect(res.status).toBe(200);
      expect(expectSchema(expectResponse<Identified>('GET', '/devices/{id}', res), 'Device').id).toBe(device!.id);
    });
  });

  describe('groups', () => {
    it('POST /api/groups creates a Group and GET /api/groups lists it', async () => {
      const created = await admin.post('/api/groups', { name: 'Contract Group' });
      expect(created.status).toBe(200);
      const group = expectSchema(expectResponse<Identified>('POST', '/groups', created), 'Group');
      expect(group.name).toBe('Contract Group');

      const res = await admin.get('/api/groups');
      expect(res.status).toBe(200);
      const list = expectArrayOf(expectResponse<Identified[]>('GET', '/groups', res), 'Group', { minLength: 1 });
      expect(list.map((g) => g.id)).toContain(group.id);
    });
  });

  describe('permissions', () => {
    it('POST /api/permissions links a user to a device with 204', async () => {
      expect(user && device, 'user or device creation failed').toBeTruthy();
      const link = { userId: user!.id, deviceId: device!.id };
      expectSchema(link, 'Permission');
      const res = await admin.post('/api/permissions', link);
      expect(res.status, res.text).toBe(204);
      expectResponse('POST', '/permissions', res);
    });
  });

  describe('positions', () => {
    it('GET /api/positions returns the latest Position after a device reports', async () => {
      expect(device, 'POST /api/devices failed, no device to report').toBeDefined();
      const uniqueId = String(device!.uniqueId);
      const fixTime = Math.floor(Date.now() / 1000) - 60;
      if (server.rastro.osmandPort) {
        // Traccar Client / OsmAnd protocol (traccar-reference.md A.10).
        const query = new URLSearchParams({ id: uniqueId, lat: '-23.5505', lon: '-46.6333', speed: '12.5', bearing: '90', altitude: '760', timestamp: String(fixTime) });
        const report = await fetch(`${server.osmandUrl}/?${query}`, { method: 'POST' });
        expect(report.status).toBe(200);
      } else {
        // No ingest yet: the accumulators endpoint stores a position too.
        const res = await admin.put(`/api/devices/${device!.id}/accumulators`, { deviceId: device!.id, totalDistance: 1000, hours: 3_600_000 });
        expect(res.status, res.text).toBe(204);
      }

      const positions = await waitFor('the reported position', async () => {
        const res = await admin.get<Identified[]>(`/api/positions?deviceId=${device!.id}`);
        expect(res.status).toBe(200);
        return Array.isArray(res.json) && res.json.length > 0 ? res : undefined;
      });
      const list = expectArrayOf(expectResponse<Identified[]>('GET', '/positions', positions), 'Position', { minLength: 1 });
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ deviceId: device!.id });

      const all = await admin.get('/api/positions');
      expect(all.status).toBe(200);
      expectArrayOf(expectResponse<Identified[]>('GET', '/positions', all), 'Position', { minLength: 1 });

      const updated = await admin.get(`/api/devices/${device!.id}`);
      expect(expectSchema(updated.json as Identified, 'Device').positionId).toBe(list[0]!.id);
    });

    it('PUT /api/devices/{id}/accumulators answers 204 and sets totalDistance on the latest Position', async () => {
      expect(device, 'POST /api/devices failed').toBeDefined();
      const body = { deviceId: device!.id, totalDistance: 12_345, hours: 7_200_000 };
      expectSchema(body, 'DeviceAccumulators');
      const res = await admin.put(`/api/devices/${device!.id}/accumulators`, body);
      expect(res.status, res.text).toBe(204);
      expectResponse('PUT', '/devices/{id}/accumulators', res);

      const latest = await waitFor('the accumulated position', async () => {
        const r = await admin.get<Identified[]>(`/api/positions?deviceId=${device!.id}`);
        const p = Array.isArray(r.json) ? r.json[0] : undefined;
        return p && (p.attributes as Record<string, unknown>)?.totalDistance === 12_345 ? p : undefined;
      });
      expectSchema(latest, 'Position');
      expect(latest.attributes).toMatchObject({ totalDistance: 12_345, hours: 7_200_000 });
    });
  });
});
