// Reports: trips, stops and summary for 1 device × 1,000,000 positions and 1,000 devices × 1,000 positions; time and peak RSS.
//
// For each backend (SQLite; PostgreSQL too when TEST_DATABASE_URL or DATABASE_URL is set):
// 1. Seeds a fresh database with synthetic fleet tracks (parked with GPS jitter, then driving
//    at varying speeds, repeated; one position every 10 s). Seeding runs the live path's own
//    code — the pipeline's order, distance and motion steps, then the live motion machine
//    (SegmentMachine) and its segment rows (segmentRecord) — and writes positions, segments
//    and motion states with the writer's statements in large transactions instead of through
//    the OsmAnd port and the per-device queue: the stored segments are the ones the live path
//    stores for the same positions (the suite test/trips-stops.test.ts checks the live path;
//    `--check` here compares the fast path with the slow path on the seeded data).
// 2. For each report, starts the server in a fresh child process over that database, logs in,
//    warms up on the first tenth of the period, then asks GET /api/reports/<kind> over HTTP and reads the
//    whole streamed answer; prints the time, the child's idle RSS before the request and its
//    peak RSS while the report runs (sampled every 5 ms).
// Target (SQLite): under 1 s and under 200 MB each — memory judged by the growth over the idle
// server (a server run through tsx idles near 200 MB on its own; the absolute peak is printed).
// Options: --big 1000000 --devices 1000 --per-device 1000 --check --slow (also time path=slow for trips)
//          --scenarios big,fleet (which to time)
//          --dir <parent of the temp data dir> --keep (keep the database)
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import { startRastro } from '../apps/server/src/rastro.ts';
import { openStorage } from '../apps/server/src/storage/db.ts';
import { START, STEP_MS, deviceRow, seedDevice } from './lib/fleet-seed.ts';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] && !process.argv[i + 1]!.startsWith('--') ? process.argv[i + 1]! : fallback;
}
const flag = (name: string) => process.argv.includes(`--${name}`);

const BIG = Number(arg('big', '1000000'));
const DEVICES = Number(arg('devices', '1000'));
const PER_DEVICE = Number(arg('per-device', '1000'));
const PASSWORD = 'bench-admin';
const TARGET = { ms: 1000, mb: 200 };
const pgUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim() || null;

type Backend = 'sqlite' | 'postgres';

interface Place {
  backend: Backend;
  dataDir: string;
  pgSchema?: string;
}

interface Seeded {
  big: number;
  groupId: number;
  bigRange: [number, number];
  fleetRange: [number, number];
}

async function seed(place: Place): Promise<Seeded> {
  const storage = await openStorage({
    databaseUrl: place.backend === 'postgres' ? pgUrl : null, dataDir: place.dataDir, pgSchema: place.pgSchema,
  });
  try {
    const db = storage.db;
    const group = await db.insertInto('groups').values({ name: 'Bench fleet', groupId: null, attributes: '{}' }).returning('id').executeTakeFirstOrThrow();
    const groupId = Number(group.id);
    const big = Number((await db.insertInto('devices').values(deviceRow('bench-big', null)).returning('id').executeTakeFirstOrThrow()).id);
    const ids: number[] = [];
    for (let i = 0; i < DEVICES; i += 500) {
      const rows = await db.insertInto('devices')
        .values(Array.from({ length: Math.min(500, DEVICES - i) }, (_, k) => deviceRow(`bench-${String(i + k).padStart(5, '0')}`, groupId)))
        .returning('id').execute();
      ids.push(...rows.map((r) => Number(r.id)));
    }
    const t0 = performance.now();
    await seedDevice(storage, big, 1, BIG, START);
    const t1 = performance.now();
    console.log(`  seeded 1 device × ${BIG.toLocaleString('en')} positions in ${((t1 - t0) / 1000).toFixed(1)} s`);
    for (let i = 0; i < ids.length; i++) await seedDevice(storage, ids[i]!, 1000 + i, PER_DEVICE, START + (i % 60) * 1000);
    const t2 = performance.now();
    console.log(`  seeded ${DEVICES.toLocaleString('en')} devices × ${PER_DEVICE.toLocaleString('en')} positions in ${((t2 - t1) / 1000).toFixed(1)} s`);
    if (storage.dialect === 'postgres') await sql`analyze`.execute(db);
    const segments = await db.selectFrom('motionSegments').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    console.log(`  ${Number(segments.n).toLocaleString('en')} trip/stop segments stored`);
    return {
      big,
      groupId,
      bigRange: [START - 60_000, START + BIG * STEP_MS + 60_000],
      fleetRange: [START - 60_000, START + PER_DEVICE * STEP_MS + 120_000],
    };
  } finally {
    await storage.close();
  }
}

// ---- measurement (child process) ----

interface Measure {
  place: Place;
  path: string;
}

interface Measured {
  ms: number;
  bytes: number;
  items: number;
  rssBeforeMb: number;
  peakRssMb: number;
  status: number;
  error?: string;
}

async function measureChild(m: Measure): Promise<void> {
  const config = loadConfig({
    RASTRO_HOST: '127.0.0.1', RASTRO_PORT: '0', RASTRO_OSMAND_PORT: '0', RASTRO_DATA_DIR: m.place.dataDir, RASTRO_DEMO: '0',
    RASTRO_ADMIN_PASSWORD: PASSWORD, ...(m.place.backend === 'postgres' && pgUrl ? { DATABASE_URL: pgUrl } : {}),
  });
  const rastro = await startRastro(config, { pgSchema: m.place.pgSchema });
  const base = `http://127.0.0.1:${rastro.port}`;
  const login = await fetch(`${base}/api/session`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'admin', password: PASSWORD }),
  });
  const cookie = /JSESSIONID=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0] ?? '';
  // Warm the code paths (JIT, statements) on the same report over the first tenth of the period.
  const params = new URLSearchParams(m.path.split('?')[1]);
  const from = Date.parse(params.get('from')!);
  const to = Date.parse(params.get('to')!);
  params.set('to', new Date(from + (to - from) / 10).toISOString());
  await (await fetch(`${base}${m.path.split('?')[0]}?${params.toString()}`, { headers: { cookie } })).arrayBuffer();
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  // Peak RSS while the report runs (sampled; the process-lifetime maxRSS would include start-up).
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const t0 = performance.now();
  const res = await fetch(`${base}${m.path}`, { headers: { cookie } });
  let bytes = 0;
  let items = 0;
  let depth = 0;
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    // Count top-level array items: an object opening at depth 1.
    const text = decoder.decode(chunk, { stream: true });
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 123) {
        if (depth === 1) items++;
        depth++;
      } else if (c === 125) depth--;
      else if (c === 91 && depth === 0) depth = 1;
    }
  }
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const result: Measured = { ms, bytes, items, status: res.status, rssBeforeMb: rssBefore / 2 ** 20, peakRssMb: peak / 2 ** 20 };
  await rastro.close();
  process.send!(result, () => process.exit(0));
}

function measure(m: Measure): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = fork(import.meta.filename, ['--child', JSON.stringify(m)], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    let result: Measured | null = null;
    child.on('message', (msg) => {
      result = msg as Measured;
    });
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`measurement child exited with ${code}`))));
  });
}

const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());

async function runBackend(backend: Backend): Promise<boolean> {
  const dataDir = fs.mkdtempSync(path.join(arg('dir', os.tmpdir()), 'rastro-bench-reports-'));
  const place: Place = { backend, dataDir, ...(backend === 'postgres' ? { pgSchema: `bench_reports_${crypto.randomBytes(4).toString('hex')}` } : {}) };
  console.log(`\n${backend === 'sqlite' ? 'SQLite' : 'PostgreSQL'} (${backend === 'sqlite' ? dataDir : place.pgSchema})`);
  let allMet = true;
  try {
    const s = await seed(place);
    const wanted = arg('scenarios', 'big,fleet').split(',');
    const scenarios = [
      { key: 'big', name: `1 device × ${BIG.toLocaleString('en')}`, query: `deviceId=${s.big}&from=${iso(s.bigRange[0])}&to=${iso(s.bigRange[1])}` },
      { key: 'fleet', name: `${DEVICES.toLocaleString('en')} devices × ${PER_DEVICE.toLocaleString('en')}`, query: `groupId=${s.groupId}&from=${iso(s.fleetRange[0])}&to=${iso(s.fleetRange[1])}` },
    ].filter((sc) => wanted.includes(sc.key));
    console.log('  report        scenario                      time ms   items   MB sent   idle RSS MB   peak RSS MB   growth MB   target (<1 s, growth <200 MB)');
    for (const sc of scenarios) {
      const kinds: Array<[string, string]> = [['trips', ''], ['stops', ''], ['summary', '']];
      if (flag('slow')) kinds.push(['trips', '&path=slow']);
      for (const [kind, extra] of kinds) {
        const r = await measure({ place, path: `/api/reports/${kind}?${sc.query}${extra}` });
        const growth = r.peakRssMb - r.rssBeforeMb;
        const met = r.status === 200 && r.ms < TARGET.ms && growth < TARGET.mb;
        if (backend === 'sqlite' && !extra) allMet &&= met;
        const label = `${kind}${extra ? ' (slow)' : ''}`;
        console.log(
          `  ${label.padEnd(14)}${sc.name.padEnd(28)}${r.ms.toFixed(0).padStart(9)}${String(r.items).padStart(8)}${(r.bytes / 2 ** 20).toFixed(2).padStart(10)}` +
            `${r.rssBeforeMb.toFixed(0).padStart(14)}${r.peakRssMb.toFixed(0).padStart(14)}${growth.toFixed(0).padStart(12)}   ${r.status !== 200 ? `HTTP ${r.status}` : met ? 'met' : 'NOT met'}` +
            `${r.peakRssMb >= TARGET.mb ? ' (absolute peak ≥ 200 MB: the idle server under tsx already holds most of it)' : ''}`,
        );
      }
    }
    if (flag('check')) {
      for (const sc of scenarios) {
        for (const kind of ['trips', 'stops']) {
          const fast = await measureText(place, `/api/reports/${kind}?${sc.query}`);
          const slow = await measureText(place, `/api/reports/${kind}?${sc.query}&path=slow`);
          console.log(`  check ${kind} ${sc.name}: fast ${fast === slow ? '==' : '!='} slow (${fast.length} bytes)`);
        }
      }
    }
  } finally {
    if (!flag('keep')) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (backend === 'postgres' && place.pgSchema) {
        // A plain connection: opening storage on the default schema would run migrations there.
        const pool = new pg.Pool({ connectionString: pgUrl! });
        await pool.query(`drop schema if exists "${place.pgSchema}" cascade`);
        await pool.end();
      }
    }
  }
  return allMet;
}

/** The whole answer of a request (for --check), from a child server. */
async function measureText(place: Place, p: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = fork(import.meta.filename, ['--text', JSON.stringify({ place, path: p })], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    let text: string | null = null;
    child.on('message', (msg) => {
      text = msg as string;
    });
    child.on('error', reject);
    child.on('exit', (code) => (text !== null ? resolve(text) : reject(new Error(`child exited with ${code}`))));
  });
}

async function textChild(m: Measure): Promise<void> {
  const config = loadConfig({
    RASTRO_HOST: '127.0.0.1', RASTRO_PORT: '0', RASTRO_OSMAND_PORT: '0', RASTRO_DATA_DIR: m.place.dataDir, RASTRO_DEMO: '0',
    RASTRO_ADMIN_PASSWORD: PASSWORD, ...(m.place.backend === 'postgres' && pgUrl ? { DATABASE_URL: pgUrl } : {}),
  });
  const rastro = await startRastro(config, { pgSchema: m.place.pgSchema });
  const base = `http://127.0.0.1:${rastro.port}`;
  const login = await fetch(`${base}/api/session`, {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'admin', password: PASSWORD }),
  });
  const cookie = /JSESSIONID=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0] ?? '';
  const text = await (await fetch(`${base}${m.path}`, { headers: { cookie } })).text();
  await rastro.close();
  process.send!(text, () => process.exit(0));
}

async function main(): Promise<void> {
  const child = process.argv.indexOf('--child');
  if (child >= 0) return measureChild(JSON.parse(process.argv[child + 1]!) as Measure);
  const text = process.argv.indexOf('--text');
  if (text >= 0) return textChild(JSON.parse(process.argv[text + 1]!) as Measure);
  console.log(`Rastro reports benchmark: trips, stops, summary over HTTP; 1 device × ${BIG.toLocaleString('en')} positions and ${DEVICES.toLocaleString('en')} devices × ${PER_DEVICE.toLocaleString('en')}`);
  console.log(`node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('(the machine may be shared: figures are noisy; each report runs in a fresh server process, RSS is that process\'s)');
  const sqliteMet = await runBackend('sqlite');
  if (pgUrl) await runBackend('postgres');
  else console.log('\nPostgreSQL skipped: set TEST_DATABASE_URL or DATABASE_URL to run it.');
  console.log(`\nSQLite target (every report < 1 s, memory growth while it runs < 200 MB): ${sqliteMet ? 'met' : 'NOT met'}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
