// Report isolation: OsmAnd ingest and GET /api/server latency (p50/p99/max) without and while the worst reports run (SQLite; --pg PostgreSQL).
//
// 1. Seeds a fresh database with synthetic history (bench/lib/fleet-seed.ts): one device with
//    1,000,000 positions (one every 10 s: ~116 days) and 300 devices with 1,000 each, in one group.
// 2. Starts the real server (`node --import tsx apps/server/src/main.ts`, its defaults: report
//    threads, per-user limit, period limit 366 days) on free ports over that database, creates
//    two users who see the whole fleet.
// 3. Baseline: for --baseline seconds, OsmAnd position requests at a steady --rate per second
//    (keep-alive connections, fleet devices, current timestamps) and GET /api/server ten times a
//    second; the latency of each (request sent → whole answer).
// 4. Under load: the same for --load seconds while the worst reports a user may ask for run
//    without pause (each restarted when it ends): user A a daily summary of every device over the
//    maximum period (366 days) and trips with path=slow (a replay of the 1,000,000 positions);
//    user B stops with path=slow and the route of every device as a spreadsheet; the
//    administrator a mailed daily summary of every device every few seconds (no SMTP: built,
//    then dropped with a log line).
// Prints p50/p99/max of both for both phases, the reports run, the server's peak RSS, and whether
// both p99 under load stay under 250 ms.
// Options: --big 1000000 --devices 300 --per-device 1000 --rate 150 --baseline 15 --load 40
//          --pg (PostgreSQL: a database of its own on TEST_DATABASE_URL or DATABASE_URL, dropped after)
//          --dir <parent of the temp data dir> --keep (keep the database)
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { openStorage } from '../apps/server/src/storage/db.ts';
import { START, STEP_MS, deviceRow, seedDevice } from './lib/fleet-seed.ts';
import { fmt, summary } from './lib/stats.ts';
import { freePort } from '../apps/server/test/free-port.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] && !process.argv[i + 1]!.startsWith('--') ? process.argv[i + 1]! : fallback;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const BIG = Number(arg('big', '1000000'));
const DEVICES = Number(arg('devices', '300'));
const PER_DEVICE = Number(arg('per-device', '1000'));
const RATE = Number(arg('rate', '150'));
const BASELINE_S = Number(arg('baseline', '15'));
const LOAD_S = Number(arg('load', '40'));
const TARGET_P99_MS = 250;
const PASSWORD = 'bench-admin';
const USER_PASSWORD = 'bench-user';
const DAY = 86_400_000;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pgUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim() || null;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));


interface Seeded {
  groupId: number;
  big: number;
  uniqueIds: string[];
}

/** Seeds devices, their group and their history; users come later through the API (the server creates `admin` on an empty user table). */
async function seed(databaseUrl: string | null, dataDir: string): Promise<Seeded> {
  const storage = await openStorage({ databaseUrl, dataDir });
  try {
    const db = storage.db;
    const groupId = Number((await db.insertInto('groups').values({ name: 'Bench fleet', groupId: null, attributes: '{}' }).returning('id').executeTakeFirstOrThrow()).id);
    const big = Number((await db.insertInto('devices').values(deviceRow('bench-big', groupId)).returning('id').executeTakeFirstOrThrow()).id);
    const ids: number[] = [];
    const uniqueIds: string[] = [];
    for (let i = 0; i < DEVICES; i += 500) {
      const rows = Array.from({ length: Math.min(500, DEVICES - i) }, (_, k) => deviceRow(`bench-${String(i + k).padStart(5, '0')}`, groupId));
      uniqueIds.push(...rows.map((r) => r.uniqueId));
      ids.push(...(await db.insertInto('devices').values(rows).returning('id').execute()).map((r) => Number(r.id)));
    }
    const t0 = performance.now();
    await seedDevice(storage, big, 1, BIG, START);
    const t1 = performance.now();
    console.log(`  seeded 1 device × ${BIG.toLocaleString('en')} positions in ${((t1 - t0) / 1000).toFixed(1)} s`);
    for (let i = 0; i < ids.length; i++) await seedDevice(storage, ids[i]!, 1000 + i, PER_DEVICE, START + (i % 60) * 1000);
    console.log(`  seeded ${DEVICES.toLocaleString('en')} devices × ${PER_DEVICE.toLocaleString('en')} positions in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    if (storage.dialect === 'postgres') await sql`analyze`.execute(db);
    return { groupId, big, uniqueIds };
  } finally {
    await storage.close();
  }
}

/** The server as operators run it, in its own process. */
async function startServer(dataDir: string, databaseUrl: string | null): Promise<{ child: ChildProcess; port: number; osmandPort: number; rssPeakMb: () => number }> {
  const port = await freePort();
  const osmandPort = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env, RASTRO_HOST: '127.0.0.1', RASTRO_PORT: String(port), RASTRO_OSMAND_PORT: String(osmandPort), RASTRO_DATA_DIR: dataDir,
      RASTRO_DEMO: '0', RASTRO_ADMIN_PASSWORD: PASSWORD, DATABASE_URL: databaseUrl ?? '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const started = Date.now();
  while (!output.includes('Rastro is running')) {
    if (child.exitCode !== null || Date.now() - started > 90_000) throw new Error(`the server did not start:\n${output}`);
    await sleep(50);
  }
  // Peak RSS of the server process (threads included), sampled; Linux only.
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
      peak = Math.max(peak, kb / 1024);
    } catch {
      /* not Linux, or the process ended */
    }
  }, 100);
  sampler.unref();
  child.once('exit', () => clearInterval(sampler));
  return { child, port, osmandPort, rssPeakMb: () => peak };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 128 });

/** A request not answered within this is counted as failed (a frozen server must not freeze the benchmark). */
const REQUEST_TIMEOUT_MS = 10_000;

/** One request; resolves with the status and the milliseconds until the whole answer was read (status 0: error or timeout). */
function timed(port: number, pathAndQuery: string, headers: Record<string, string> = {}): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    // From the moment it is sent, waiting for a connection included.
    const signal = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const req = http.get({ host: '127.0.0.1', port, path: pathAndQuery, headers, agent, signal }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      res.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
    });
    req.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
  });
}

async function login(port: number, email: string, password: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/session`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return /JSESSIONID=[^;]+/.exec(res.headers.get('set-cookie') ?? '')?.[0] ?? '';
}

async function api(port: number, cookie: string, method: string, p: string, body: unknown): Promise<{ id?: number }> {
  const res = await fetch(`http://127.0.0.1:${port}${p}`, { method, headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  const text = await res.text();
  return text ? (JSON.parse(text) as { id?: number }) : {};
}

interface Phase {
  ingest: number[];
  ingestFailed: number;
  server: number[];
  serverFailed: number;
}

/** Steady OsmAnd load and /api/server probes for `seconds`. */
async function measure(port: number, osmandPort: number, cookie: string, uniqueIds: string[], seconds: number): Promise<Phase> {
  const phase: Phase = { ingest: [], ingestFailed: 0, server: [], serverFailed: 0 };
  const pending: Array<Promise<void>> = [];
  const end = performance.now() + seconds * 1000;
  const tick = 10;
  let owed = 0;
  let n = 0;
  let nextProbe = performance.now();
  while (performance.now() < end) {
    owed += (RATE * tick) / 1000;
    for (; owed >= 1; owed--) {
      const uid = uniqueIds[n++ % uniqueIds.length]!;
      const now = Date.now();
      const q = `/?id=${uid}&timestamp=${Math.floor(now / 1000)}&lat=${(-23.5 + (n % 1000) / 10_000).toFixed(5)}&lon=-46.6&speed=${n % 60}`;
      pending.push(timed(osmandPort, q).then((r) => {
        if (r.status === 200) phase.ingest.push(r.ms);
        else phase.ingestFailed++;
      }));
    }
    if (performance.now() >= nextProbe) {
      nextProbe += 100;
      pending.push(timed(port, '/api/server', { cookie }).then((r) => {
        if (r.status === 200) phase.server.push(r.ms);
        else phase.serverFailed++;
      }));
    }
    await sleep(tick);
  }
  await Promise.all(pending);
  return phase;
}

interface ReportRun {
  label: string;
  done: number;
  refused: number;
  failed: number;
  bytes: number;
}

/** Runs one report again and again until `stop` aborts; counts finished runs and bytes. */
async function loop(port: number, cookie: string, p: string, run: ReportRun, stop: AbortSignal, headers: Record<string, string> = {}): Promise<void> {
  while (!stop.aborted) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${p}`, { headers: { cookie, ...headers }, signal: stop });
      if (res.status === 429 || res.status === 503) {
        run.refused++;
        await res.arrayBuffer();
        await sleep(500);
        continue;
      }
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) run.bytes += chunk.length;
      if (res.status < 300) run.done++;
      else run.failed++;
    } catch {
      if (!stop.aborted) run.failed++;
    }
  }
}

function row(name: string, values: number[], failed: number): string {
  const s = summary(values);
  return `  ${name.padEnd(26)}${String(s.n).padStart(7)}${String(failed).padStart(8)}${fmt(s.p50).padStart(10)}${fmt(s.p99).padStart(10)}${fmt(s.max).padStart(10)}`;
}

async function main(): Promise<void> {
  const usePg = flag('pg');
  if (usePg && !pgUrl) throw new Error('--pg needs TEST_DATABASE_URL or DATABASE_URL');
  console.log(`Rastro report isolation benchmark (${usePg ? 'PostgreSQL' : 'SQLite'}): ingest at ${RATE}/s and GET /api/server at 10/s, ${BASELINE_S} s without reports, ${LOAD_S} s under the worst reports`);
  console.log(`node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const dataDir = fs.mkdtempSync(path.join(arg('dir', os.tmpdir()), 'rastro-bench-isolation-'));
  const database = usePg ? `rastro_bench_isolation_${crypto.randomBytes(4).toString('hex')}` : null;
  let databaseUrl: string | null = null;
  const admin = usePg ? new pg.Pool({ connectionString: pgUrl! }) : null;
  if (database && admin) {
    await admin.query(`CREATE DATABASE "${database}"`);
    const url = new URL(pgUrl!);
    url.pathname = `/${database}`;
    databaseUrl = url.toString();
  }
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const seeded = await seed(databaseUrl, dataDir);
    server = await startServer(dataDir, databaseUrl);
    const { port, osmandPort } = server;
    const adminCookie = await login(port, 'admin', PASSWORD);
    const users: string[] = [];
    for (const name of ['a', 'b']) {
      const user = await api(port, adminCookie, 'POST', '/api/users', { name: `Bench ${name}`, email: `bench-${name}@bench`, password: USER_PASSWORD });
      await api(port, adminCookie, 'POST', '/api/permissions', { userId: user.id, groupId: seeded.groupId });
      users.push(await login(port, `bench-${name}@bench`, USER_PASSWORD));
    }
    const from = new Date(START - DAY).toISOString();
    const to = new Date(START - DAY + 366 * DAY).toISOString();
    const all = `groupId=${seeded.groupId}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    const big = `deviceId=${seeded.big}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date(START + BIG * STEP_MS + DAY).toISOString())}`;
    // Warm-up: starts the report thread, opens keep-alive connections, JIT.
    await (await fetch(`http://127.0.0.1:${port}/api/reports/summary?deviceId=${seeded.big}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(new Date(START).toISOString())}`, { headers: { cookie: users[0]! } })).arrayBuffer();
    await measure(port, osmandPort, adminCookie, seeded.uniqueIds, 2);

    console.log(`\n  baseline: ${BASELINE_S} s without reports`);
    const baseline = await measure(port, osmandPort, adminCookie, seeded.uniqueIds, BASELINE_S);

    console.log(`  under load: ${LOAD_S} s while the worst reports run`);
    const stop = new AbortController();
    const runs: ReportRun[] = [
      { label: 'A: summary daily, all devices, 366 days', done: 0, refused: 0, failed: 0, bytes: 0 },
      { label: 'A: trips path=slow, 1M positions', done: 0, refused: 0, failed: 0, bytes: 0 },
      { label: 'B: stops path=slow, 1M positions', done: 0, refused: 0, failed: 0, bytes: 0 },
      { label: 'B: route xlsx, all devices', done: 0, refused: 0, failed: 0, bytes: 0 },
      { label: 'admin: summary daily by mail (queued)', done: 0, refused: 0, failed: 0, bytes: 0 },
    ];
    const loops = [
      loop(port, users[0]!, `/api/reports/summary?daily=true&${all}&deviceId=${seeded.big}`, runs[0]!, stop.signal),
      loop(port, users[0]!, `/api/reports/trips?path=slow&${big}`, runs[1]!, stop.signal),
      loop(port, users[1]!, `/api/reports/stops?path=slow&${big}`, runs[2]!, stop.signal),
      loop(port, users[1]!, `/api/reports/route/xlsx?${all}&deviceId=${seeded.big}`, runs[3]!, stop.signal),
      (async () => {
        // A mail is queued (204) or refused (429: the administrator's mails pending); it is built in the background.
        while (!stop.signal.aborted) {
          const res = await timed(port, `/api/reports/summary/mail?daily=true&${all}`, { cookie: adminCookie });
          if (res.status === 204) runs[4]!.done++;
          else if (res.status === 429) runs[4]!.refused++;
          else runs[4]!.failed++;
          await sleep(3_000);
        }
      })(),
    ];
    await sleep(500);
    const loaded = await measure(port, osmandPort, adminCookie, seeded.uniqueIds, LOAD_S);
    stop.abort();
    await Promise.all(loops);

    console.log('\n  latency (ms)                  count  failed       p50       p99       max');
    console.log(row('OsmAnd ingest, baseline', baseline.ingest, baseline.ingestFailed));
    console.log(row('OsmAnd ingest, reports', loaded.ingest, loaded.ingestFailed));
    console.log(row('GET /api/server, baseline', baseline.server, baseline.serverFailed));
    console.log(row('GET /api/server, reports', loaded.server, loaded.serverFailed));
    console.log('\n  reports during the load phase        finished  refused  failed    MB read');
    for (const r of runs) console.log(`  ${r.label.padEnd(38)}${String(r.done).padStart(8)}${String(r.refused).padStart(9)}${String(r.failed).padStart(8)}${(r.bytes / 2 ** 20).toFixed(1).padStart(11)}`);
    console.log(`\n  server peak RSS (threads included): ${server.rssPeakMb().toFixed(0)} MB`);
    const ingestP99 = summary(loaded.ingest).p99;
    const serverP99 = summary(loaded.server).p99;
    const met = ingestP99 < TARGET_P99_MS && serverP99 < TARGET_P99_MS && loaded.ingestFailed === 0 && loaded.serverFailed === 0;
    console.log(`\nTarget (under the worst reports, ingest p99 and GET /api/server p99 < ${TARGET_P99_MS} ms, none failed): ${met ? 'met' : 'NOT met'}` +
      ` (ingest p99 ${fmt(ingestP99)} ms, /api/server p99 ${fmt(serverP99)} ms)`);
  } finally {
    if (server && server.child.exitCode === null) {
      const exited = new Promise((r) => server!.child.once('exit', r));
      const t0 = performance.now();
      server.child.kill('SIGTERM');
      if (await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)])) {
        console.log(`  server stopped ${((performance.now() - t0) / 1000).toFixed(1)} s after SIGTERM`);
      } else {
        console.log('  server did NOT stop within 15 s of SIGTERM: killed');
        server.child.kill('SIGKILL');
        await exited;
      }
    }
    agent.destroy();
    if (!flag('keep')) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (database && admin) await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    } else console.log(`  kept: ${database ?? dataDir}`);
    await admin?.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
