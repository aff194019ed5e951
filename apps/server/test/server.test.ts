// /api/server: the public settings shape, license and device-limit headers, admin-only
// updates, and the in-process restart that keeps sessions.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveErrorCode } from '@rastro/domain/errors';
import type { Server, User } from '@rastro/domain/entities';
import { loadConfig } from '../src/config.ts';
import { startRestartable, type Restartable } from '../src/server-info/restarter.ts';
import type { Rastro } from '../src/rastro.ts';
import { ADMIN_PASSWORD, backends, startTestServer, TestClient, type TestServer } from './harness.ts';
import { expectSchema } from './openapi.ts';
import { newSchemaName } from './pg-schemas.ts';

const rootVersion = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8')) as { version: string }).version;

describe.each(backends)('/api/server (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_LICENSE: 'basic', RASTRO_DEVICE_LIMIT: '3' });
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers anonymous callers with the Server shape, version and newServer', async () => {
    const res = await server.client().get<Server>('/api/server');
    expect(res.status).toBe(200);
    expectSchema(res.json, 'Server');
    expect(res.json.version).toBe(rootVersion);
    expect(res.json.newServer).toBe(false);
    expect(res.json.emailEnabled).toBe(false);
    expect(res.json.registration).toBe(false);
    expect(res.json.latitude).toBeCloseTo(-23.5505);
    // Every key Traccar sends is there: unset texts as null, the disk space only for administrators.
    expect(res.json).toMatchObject({
      map: null, bingKey: null, mapUrl: null, overlayUrl: null, coordinateFormat: null, poiLayer: null, announcement: null,
      storageSpace: null,
    });
  });

  it('tells administrators the usable and total bytes of the data directory\'s disk, others nothing', async () => {
    const res = await admin.get<Server>('/api/server');
    // Logged-in callers are never asked to register (Traccar sends false to them too).
    expect(res.json.newServer).toBe(false);
    const disk = fs.statfsSync(server.dataDir);
    const [usable, total] = res.json.storageSpace ?? [];
    expect(res.json.storageSpace).toHaveLength(2);
    expect(total).toBe(disk.blocks * disk.bsize);
    // Free space moves while the suites write; it is the disk's, within a few megabytes.
    expect(Math.abs(usable! - disk.bavail * disk.bsize)).toBeLessThan(64 * 1024 * 1024);
    expect(usable).toBeLessThanOrEqual(total!);

    const plain = await admin.post<User>('/api/users', { name: 'Space Reader', email: 'space@example.com', password: 'secret1' });
    expect(plain.status).toBe(200);
    const client = server.client();
    await client.login('space@example.com', 'secret1');
    expect((await client.get<Server>('/api/server')).json.storageSpace).toBeNull();
  });

  it('sends licensemode and devicelimit (limit minus live devices), exposed to scripts', async () => {
    const first = await server.client().get('/api/server');
    expect(first.headers.get('licensemode')).toBe('basic');
    expect(first.headers.get('devicelimit')).toBe('3');
    const exposed = (first.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    expect(exposed).toContain('licensemode');
    expect(exposed).toContain('devicelimit');

    const db = server.rastro.ctx.storage.db;
    await sql`INSERT INTO devices (name, "uniqueId") VALUES ('A', 'server-test-a'), ('B', 'deleted-server-test-b-1700000000'), ('C', 'server-test-c')`.execute(db);
    expect((await server.client().get('/api/server')).headers.get('devicelimit')).toBe('1');
    await sql`INSERT INTO devices (name, "uniqueId") VALUES ('D', 'server-test-d'), ('E', 'server-test-e')`.execute(db);
    expect((await server.client().get('/api/server')).headers.get('devicelimit')).toBe('0');
  });

  it('updates the settings for administrators only, ignoring computed fields', async () => {
    const current = (await admin.get<Server>('/api/server')).json;
    const res = await admin.put<Server>('/api/server', {
      ...current, registration: true, announcement: 'Maintenance at 22h', zoom: 7, version: '9.9.9', emailEnabled: true,
      attributes: { title: 'Frota' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ registration: true, announcement: 'Maintenance at 22h', zoom: 7, version: rootVersion, emailEnabled: false });
    expect(res.headers.get('licensemode')).toBe('basic');
    expect(res.headers.get('devicelimit')).toBe('0');
    const read = await server.client().get<Server>('/api/server');
    expect(read.json.attributes).toEqual({ title: 'Frota' });
    expect(read.json.registration).toBe(true);

    const bad = await admin.put('/api/server', { ...current, latitude: 120 });
    expect(bad.status).toBe(400);
    expect(bad.text).toMatch(/^Invalid latitude - /);
    expect((await admin.put('/api/server', { ...current, registration: 'yes' })).status).toBe(400);

    const user = await admin.post<User>('/api/users', { name: 'Plain User', email: 'plain@example.com', password: 'secret1' });
    expect(user.status).toBe(200);
    const plain = server.client();
    await plain.login('plain@example.com', 'secret1');
    const refused = await plain.put('/api/server', { ...current, registration: false });
    expect(refused.status).toBe(400);
    expect(deriveErrorCode(refused.text)).toBe('ADMINISTRATOR_ACCESS_REQUIRED');
    expect((await server.client().put('/api/server', current)).status).toBe(401);
    expect((await server.client().get<Server>('/api/server')).json.registration).toBe(true);
  });

  it('answers 503 to a restart when the server was not started restartable, 400 to non-admins', async () => {
    const res = await admin.post('/api/server/restart', {});
    expect(res.status).toBe(503);
    const plain = server.client();
    await plain.login('plain@example.com', 'secret1');
    expect((await plain.post('/api/server/restart', {})).status).toBe(400);
  });
});

describe.each(backends)('/api/server without limits (%s)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends licensemode plus by default and no devicelimit', async () => {
    const res = await server.client().get('/api/server');
    expect(res.headers.get('licensemode')).toBe('plus');
    expect(res.headers.has('devicelimit')).toBe(false);
  });

  it('answers newServer true to anonymous callers only while no user exists', async () => {
    expect((await server.client().get<Server>('/api/server')).json.newServer).toBe(false);
    // The first-start administrator always exists; only a database emptied by hand has none.
    await server.rastro.ctx.storage.db.deleteFrom('users').execute();
    expect((await server.client().get<Server>('/api/server')).json.newServer).toBe(true);
  });
});

describe.each(backends)('restart (%s)', (backend) => {
  const pgUrl = process.env.TEST_DATABASE_URL?.trim() ?? '';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-restart-'));
  const schema = backend === 'postgres' ? newSchemaName() : undefined;
  const phases: Array<'stopping' | 'started'> = [];
  let runner: Restartable;

  beforeAll(async () => {
    const config = loadConfig({
      RASTRO_HOST: '127.0.0.1', RASTRO_PORT: '0', RASTRO_OSMAND_PORT: '0', RASTRO_DATA_DIR: dataDir, RASTRO_DEMO: '0',
      RASTRO_ADMIN_PASSWORD: ADMIN_PASSWORD, ...(backend === 'postgres' ? { DATABASE_URL: pgUrl } : {}),
    });
    runner = await startRestartable(config, { pgSchema: schema, onRestart: (phase) => phases.push(phase) });
  });
  afterAll(async () => {
    await runner?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    // The PostgreSQL schema is dropped with the run's others (test/pg-schemas.ts).
  });

  it('restarts in place on the same port and keeps sessions', async () => {
    const before: Rastro = runner.current;
    const url = `http://127.0.0.1:${before.port}`;
    const admin = new TestClient(url);
    await admin.login('admin', ADMIN_PASSWORD);

    const res = await admin.post('/api/server/restart', {});
    expect(res.status).toBe(200);
    // The restart begins once the answer has left; wait until the new instance is up.
    for (let i = 0; i < 400 && !phases.includes('started'); i++) await new Promise((r) => setTimeout(r, 25));
    const after = await runner.whenRestarted();
    expect(phases).toEqual(['stopping', 'started']);
    expect(after).not.toBe(before);
    expect(after.port).toBe(before.port);

    // The old instance closed its kept-alive connections; like a browser, retry once on a
    // connection that turns out to be stale.
    const session = await admin.get<User>('/api/session').catch(() => admin.get<User>('/api/session'));
    expect(session.status).toBe(200);
    expect(session.json.email).toBe('admin');
    expect((await new TestClient(url).get<Server>('/api/server')).status).toBe(200);
  });
});
