// POST /api/server/restart loses nothing a tracker sent (issue 13 item 7): the old instance
// stops taking connections, finishes the positions it already took (including one still in a
// slow processing step when the restart begins) and commits them before its database closes;
// every report a tracker saw acknowledged is stored, on both backends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '@rastro/domain/entities';
import { loadConfig } from '../src/config.ts';
import { startRestartable, type Restartable } from '../src/server-info/restarter.ts';
import type { Rastro } from '../src/rastro.ts';
import { ADMIN_PASSWORD, backends, freePort, TestClient } from './harness.ts';
import { newSchemaName } from './pg-schemas.ts';
import { sleep } from './ingest-helpers.ts';

const pgUrl = process.env.TEST_DATABASE_URL?.trim() ?? '';

/** Rows stored for the device: fix times in ms. */
async function storedFixes(rastro: Rastro, deviceId: number): Promise<number[]> {
  const rows = await rastro.ctx.storage.db.selectFrom('positions').select('fixTime').where('deviceId', '=', deviceId).execute();
  return rows.map((r) => Number(r.fixTime));
}

/** One OsmAnd report; true when the server acknowledged it (200). */
async function report(port: number, uniqueId: string, fixMs: number): Promise<boolean> {
  const query = new URLSearchParams({ id: uniqueId, lat: '-23.55', lon: '-46.63', speed: '10', timestamp: String(fixMs / 1000) });
  try {
    const res = await fetch(`http://127.0.0.1:${port}/?${query}`, { method: 'POST', signal: AbortSignal.timeout(10_000) });
    await res.text();
    return res.status === 200;
  } catch {
    // Cut (the old instance closed the connection) or refused (the new one is not listening yet).
    return false;
  }
}

describe.each(backends)('restart drains (%s)', (backend) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-restart-drain-'));
  let runner: Restartable;
  let osmandPort: number;
  let admin: TestClient;

  beforeAll(async () => {
    osmandPort = await freePort();
    const config = loadConfig({
      RASTRO_HOST: '127.0.0.1', RASTRO_PORT: '0', RASTRO_OSMAND_PORT: String(osmandPort), RASTRO_DATA_DIR: dataDir, RASTRO_DEMO: '0',
      RASTRO_GT06_PORT: '0', RASTRO_TELTONIKA_PORT: '0', RASTRO_H02_PORT: '0', RASTRO_SUNTECH_PORT: '0',
      RASTRO_ADMIN_PASSWORD: ADMIN_PASSWORD, ...(backend === 'postgres' ? { DATABASE_URL: pgUrl } : {}),
    });
    runner = await startRestartable(config, { pgSchema: backend === 'postgres' ? newSchemaName() : undefined });
    admin = new TestClient(`http://127.0.0.1:${runner.current.port}`);
    await admin.login('admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await runner?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const restart = async () => {
    const before = runner.current;
    const res = await admin.post('/api/server/restart', {});
    expect(res.status).toBe(200);
    for (let i = 0; i < 400 && runner.current === before; i++) await sleep(25);
    const after = await runner.whenRestarted();
    expect(after).not.toBe(before);
    return { before, after };
  };

  it('stores a position still being processed when the restart begins', async () => {
    const device = (await admin.post<Device>('/api/devices', { name: 'Slow step', uniqueId: 'drain-slow' })).json;
    const old = runner.current;
    // A step that takes longer than the OsmAnd port waits for open answers (1 s): the report's
    // connection is cut, but its position is already the server's to keep.
    old.ctx.processing!.pipeline.steps.push({ name: 'slow', run: () => sleep(1_500) });
    const fix = Date.UTC(2024, 4, 1, 12, 0, 0);
    const sent = report(osmandPort, device.uniqueId, fix);
    await sleep(150);
    const { after } = await restart();
    await sent;
    expect(await storedFixes(after, device.id)).toEqual([fix]);
    const writer = old.ctx.processing!.writer;
    expect(writer.stats.failures).toBe(0);
    expect(writer.stats.abandoned).toBe(0);
    expect(writer.buffered).toBe(0);
  }, 30_000);

  it('keeps every report a tracker saw acknowledged while trackers keep sending through the restart', async () => {
    const devices: Device[] = [];
    for (let i = 0; i < 8; i++) devices.push((await admin.post<Device>('/api/devices', { name: `Load ${i}`, uniqueId: `drain-load-${i}` })).json);
    const acked = new Map<number, number[]>(devices.map((d) => [d.id, []]));
    let stop = false;
    let afterRestart = 0;
    const base = Date.UTC(2024, 5, 1, 8, 0, 0);
    // Each tracker sends its next report once the previous one was acknowledged, and sends a
    // refused or cut one again (what real trackers do).
    const trackers = devices.map(async (device, d) => {
      for (let n = 0; !stop; ) {
        const fix = base + d * 1_000_000 + n * 1_000;
        if (await report(osmandPort, device.uniqueId, fix)) {
          acked.get(device.id)!.push(fix);
          n++;
          if (restarted) afterRestart++;
        } else {
          await sleep(50);
        }
      }
    });
    let restarted = false;
    await sleep(400);
    const { before, after } = await restart();
    restarted = true;
    // Every tracker gets through to the new instance.
    for (let i = 0; i < 200 && afterRestart < devices.length * 3; i++) await sleep(25);
    stop = true;
    await Promise.all(trackers);
    expect(afterRestart).toBeGreaterThanOrEqual(devices.length * 3);

    for (const device of devices) {
      const stored = new Set(await storedFixes(after, device.id));
      const missing = acked.get(device.id)!.filter((fix) => !stored.has(fix));
      expect(missing, `device ${device.name}`).toEqual([]);
    }
    const writer = before.ctx.processing!.writer;
    expect(writer.stats.failures).toBe(0);
    expect(writer.stats.abandoned).toBe(0);
    expect(writer.buffered).toBe(0);
  }, 60_000);
});
