// The demo fleet on a real server: created on an empty database, visible to the admin, and
// driving through the real OsmAnd ingest (decode -> processing -> storage -> socket).
import type { FastifyBaseLogger } from 'fastify';
import type { Device, Position } from '@rastro/domain/entities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../src/context.ts';
import { startDemo } from '../src/demo/demo.ts';
import { DEMO_FLEET } from '../src/demo/fleet.ts';
import { backends, startTestServer, type TestServer } from './harness.ts';
import { LiveSocket, isKey } from './socket-client.ts';
import { insertDevice } from './socket-fixtures.ts';

/** A logger that remembers what was said (the demo explains why it is off). */
function recordingLog(): { log: FastifyBaseLogger; lines: string[] } {
  const lines: string[] = [];
  const say = (...args: unknown[]) => void lines.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  const log = { info: say, warn: say, error: say, debug: say, trace: say, fatal: say, child: () => log, level: 'info', silent: say };
  return { log: log as unknown as FastifyBaseLogger, lines };
}

const inSaoPaulo = (p: Position) => p.latitude > -23.75 && p.latitude < -23.45 && p.longitude > -46.85 && p.longitude < -46.4;

describe.each(backends)('demo fleet (%s)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_DEMO: '1', RASTRO_DEMO_INTERVAL_MS: '100' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates a dozen varied demo vehicles the admin sees', async () => {
    const admin = await server.admin();
    const res = await admin.get<Device[]>('/api/devices');
    expect(res.status).toBe(200);
    const demo = res.json.filter((d) => d.uniqueId.startsWith('demo-')).sort((a, b) => a.uniqueId.localeCompare(b.uniqueId));
    expect(demo.map((d) => d.uniqueId)).toEqual(DEMO_FLEET.map((v) => v.uniqueId));
    expect(new Set(demo.map((d) => d.name)).size).toBe(12);
    expect(new Set(demo.map((d) => d.category)).size).toBeGreaterThanOrEqual(6);
    for (const d of demo) expect(d.attributes.plate).toMatch(/^[A-Z]{3}\d[A-Z]\d{2}$/);
    // Linked to the administrator like a device the admin created.
    const links = await server.rastro.ctx.storage.db.selectFrom('userDevice').select('propertyId').execute();
    for (const d of demo) expect(links.map((l) => Number(l.propertyId))).toContain(d.id);
  });

  it('drives them through the real OsmAnd port: stored and pushed on the socket', async () => {
    const admin = await server.admin();
    const socket = await LiveSocket.open(server.url, { cookie: admin.cookie });
    try {
      const seen = new Map<number, Position>();
      const ids = new Set((await server.rastro.ctx.storage.db.selectFrom('devices').select('id').where('uniqueId', 'like', 'demo-%').execute()).map((d) => d.id));
      const deadline = Date.now() + 20_000;
      while (seen.size < ids.size && Date.now() < deadline) {
        const m = await socket.next(isKey('positions'), Math.max(100, deadline - Date.now()));
        for (const p of m.json.positions as Position[]) if (ids.has(p.deviceId) && p.protocol === 'osmand') seen.set(p.deviceId, p);
      }
      expect(seen.size).toBe(12);
      for (const p of seen.values()) {
        expect(inSaoPaulo(p)).toBe(true);
        expect(p.speed).toBeGreaterThanOrEqual(0);
        expect(p.speed).toBeLessThan(90 / 1.852 + 0.01); // knots
        expect(p.course).toBeGreaterThanOrEqual(0);
        expect(p.course).toBeLessThan(360);
        expect(typeof p.attributes.ignition).toBe('boolean');
      }
      // Stored as each device's latest position.
      const rows = await server.rastro.ctx.storage.db.selectFrom('devices').select(['id', 'positionId']).where('uniqueId', 'like', 'demo-%').execute();
      for (const r of rows) expect(r.positionId).not.toBeNull();
    } finally {
      socket.close();
    }
  });

  it('resumes the existing demo vehicles on a later start instead of creating more', async () => {
    const ctx = server.rastro.ctx;
    const before = await ctx.storage.db.selectFrom('devices').select('id').where('uniqueId', 'like', 'demo-%').orderBy('id').execute();
    const again = await startDemo(ctx, { osmandPort: server.rastro.osmandPort, intervalMs: 60_000 });
    try {
      expect(again).not.toBeNull();
      expect(again!.devices.map((d) => d.id).sort((a, b) => a - b)).toEqual(before.map((d) => d.id));
      const after = await ctx.storage.db.selectFrom('devices').select('id').where('uniqueId', 'like', 'demo-%').execute();
      expect(after).toHaveLength(12);
    } finally {
      await again?.stop();
    }
  });

  it('stays off without an OsmAnd port, and never joins a database that has other devices', async () => {
    // One server at a time: PostgreSQL migrations of a second schema must not run beside the first.
    await server.close();
    const other = await startTestServer(backend);
    try {
      const { log, lines } = recordingLog();
      const ctx: AppContext = { ...other.rastro.ctx, log, config: { ...other.rastro.ctx.config, demo: true } };
      expect(await startDemo(ctx, { osmandPort: 0 })).toBeNull();
      expect(lines.join('\n')).toMatch(/OsmAnd port is disabled/);

      await insertDevice(ctx.storage.db, 'customer-truck-1');
      expect(await startDemo(ctx, { osmandPort: other.rastro.osmandPort })).toBeNull();
      expect(lines.join('\n')).toMatch(/already has devices/);
      const demo = await ctx.storage.db.selectFrom('devices').select('id').where('uniqueId', 'like', 'demo-%').execute();
      expect(demo).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});
