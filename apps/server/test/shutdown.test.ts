// SIGTERM always stops the server within a few seconds (hardening issue, point 1): the real
// process (`node --import tsx apps/server/src/main.ts`) on free ports, a fresh database (a temp
// dir; on PostgreSQL a database of its own, as main.ts takes no schema), the worst report a
// user may ask for running and a mailed one being built, then SIGTERM. The old server ran the
// report on its only thread: the signal waited for the report (ten seconds and more).
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { backends, freePort, TestClient } from './harness.ts';
import { sleep } from './ingest-helpers.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const pgUrl = process.env.TEST_DATABASE_URL?.trim() || '';
const PASSWORD = 'shutdown-admin';
const CENTURIES = `from=${encodeURIComponent('1971-01-01T00:00:00Z')}&to=${encodeURIComponent('2199-01-01T00:00:00Z')}`;

/** A PostgreSQL database for one run of main.ts (dropped afterwards). */
async function withDatabase(name: string, sqlText: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    await client.query(sqlText.replace('$db', `"${name}"`));
  } finally {
    await client.end();
  }
}

function waitForOutput(child: ChildProcess, output: () => string, text: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${timeoutMs} ms:\n${output()}`)), timeoutMs);
    const check = () => {
      if (output().includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before "${text}":\n${output()}`));
    });
    check();
  });
}

describe.each(backends)('SIGTERM (%s)', (backend) => {
  it('stops the real server within 5 s while the worst report and a mailed one run', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-shutdown-'));
    const database = backend === 'postgres' ? `rastro_shutdown_${crypto.randomBytes(4).toString('hex')}` : null;
    let databaseUrl: string | null = null;
    if (database) {
      await withDatabase(database, 'CREATE DATABASE $db');
      const url = new URL(pgUrl);
      url.pathname = `/${database}`;
      databaseUrl = url.toString();
    }
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        RASTRO_HOST: '127.0.0.1',
        RASTRO_PORT: String(port),
        RASTRO_OSMAND_PORT: String(await freePort()),
        RASTRO_DATA_DIR: dataDir,
        RASTRO_DEMO: '0',
        RASTRO_ADMIN_PASSWORD: PASSWORD,
        // The worst report needs the period limit off (an administrator's choice).
        RASTRO_REPORT_PERIOD_LIMIT: '0',
        DATABASE_URL: databaseUrl ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitForOutput(child, () => output, 'Rastro is running', 60_000);
      const admin = new TestClient(`http://127.0.0.1:${port}`);
      await admin.login('admin', PASSWORD);
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await admin.post<{ id: number }>('/api/devices', { name: `Shutdown ${i}`, uniqueId: `shutdown-${i}` });
        expect(res.status).toBe(200);
        ids.push(res.json.id);
      }
      const worst = `/api/reports/summary?daily=true&${ids.map((id) => `deviceId=${id}`).join('&')}&${CENTURIES}`;
      // The first report starts the report thread.
      expect((await admin.get(`/api/reports/summary?deviceId=${ids[0]}&from=2024-01-01T00:00:00Z&to=2024-01-02T00:00:00Z`)).status).toBe(200);
      // The mailed one is answered (204) before it is built; then the worst report, not awaited.
      expect((await admin.get(`${worst.replace('/summary?', '/summary/mail?')}`)).status).toBe(204);
      const running = fetch(`${admin.baseUrl}${worst}`, { headers: { cookie: admin.cookie! } }).then((r) => r.text()).catch(() => 'cut');
      await sleep(1_000);
      // Still answering while both run (the old server answered only once they were done).
      const probe = await fetch(`${admin.baseUrl}/api/server`, { headers: { cookie: admin.cookie! }, signal: AbortSignal.timeout(3_000) });
      expect(probe.status).toBe(200);

      const t0 = performance.now();
      child.kill('SIGTERM');
      const code = await Promise.race([exited, sleep(20_000).then(() => 'still running' as const)]);
      const took = performance.now() - t0;
      expect(code, output).not.toBe('still running');
      expect(took, output).toBeLessThan(5_500);
      // Stopped by draining (threads terminated, answers cut), not by the hard deadline.
      expect(code, output).toBe(0);
      await running;
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (database) await withDatabase(database, 'DROP DATABASE IF EXISTS $db WITH (FORCE)');
    }
  }, 120_000);
});
