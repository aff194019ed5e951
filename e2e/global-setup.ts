// Starts what the browser tests run against, once per run:
//   1. a temporary web root with the built client: a copy of apps/web/dist when it is up to
//      date, else a fresh build (the PWA test publishes a "new version" there);
//   2. a local SMTP server that writes every mail it receives to a folder (support/mail.ts);
//   3. the real server (node --import tsx apps/server/src/main.ts) on free ports over a fresh
//      SQLite database, demo off, with a known admin password.
// Tests find them through E2E_* environment variables; the returned function stops them.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { ADMIN_PASSWORD } from './support/env.ts';
import { freePort } from '../apps/server/test/free-port.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');


function newestMtime(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const child of fs.readdirSync(entry)) {
    if (child === 'node_modules' || child === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

/** apps/web/dist is at least as new as every source it is made from. */
function distIsFresh(): boolean {
  const index = path.join(web, 'dist/index.html');
  if (!fs.existsSync(index)) return false;
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json']
    .map((p) => path.join(web, p))
    .concat(path.join(root, 'packages/domain/src'));
  return fs.statSync(index).mtimeMs > Math.max(...sources.map(newestMtime));
}

/** Every file the page and the worker's precache name is there (no half-written build). */
function buildIsComplete(dir: string): boolean {
  const must = ['index.html', 'sw.js', 'manifest.webmanifest'];
  if (!must.every((f) => fs.existsSync(path.join(dir, f)))) return false;
  const precache = [...fs.readFileSync(path.join(dir, 'sw.js'), 'utf8').matchAll(/url:"([^"]+)"/g)].map((m) => m[1]!);
  return precache.length > 0 && precache.every((f) => fs.existsSync(path.join(dir, f)));
}

function build(outDir: string): void {
  const result = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'],
    { cwd: web, stdio: 'inherit' },
  );
  if (result.status !== 0) throw new Error(`vite build failed (exit ${result.status})`);
}

/**
 * The web root the server serves: a copy of apps/web/dist when it is up to date, else a fresh
 * build made straight into the run's folder (apps/web/dist is left alone: someone else may be
 * serving or rebuilding it right now). A copy caught mid-rebuild is detected and rebuilt.
 */
function prepareWebRoot(webRoot: string): void {
  if (distIsFresh() && !process.env.E2E_FORCE_BUILD) {
    fs.cpSync(path.join(web, 'dist'), webRoot, { recursive: true });
    if (buildIsComplete(webRoot)) return;
    fs.rmSync(webRoot, { recursive: true, force: true });
  }
  console.log('[e2e] building the web client (apps/web/dist is missing, older than its sources or incomplete)…');
  build(webRoot);
  if (!buildIsComplete(webRoot)) throw new Error(`the web build in ${webRoot} is incomplete`);
}

async function startMailbox(dir: string): Promise<{ port: number; close(): Promise<void> }> {
  let count = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        count += 1;
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        const name = `${Date.now()}-${String(count).padStart(4, '0')}.eml`;
        // Written under a temporary name first, so a reader never sees half a mail.
        const file = path.join(dir, name);
        fs.writeFileSync(`${file}.part`, `X-E2E-To: ${to}\r\n${Buffer.concat(chunks).toString('utf8')}`);
        fs.renameSync(`${file}.part`, file);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as net.AddressInfo).port;
  return { port, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

async function waitForHealth(url: string, server: ChildProcess, log: string, ms = 90_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}:\n${fs.readFileSync(log, 'utf8').slice(-3000)}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the server did not answer within ${ms / 1000} s:\n${fs.readFileSync(log, 'utf8').slice(-3000)}`);
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const run = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-e2e-'));
  const webRoot = path.join(run, 'web');
  prepareWebRoot(webRoot);
  const mailDir = path.join(run, 'mail');
  fs.mkdirSync(mailDir);
  const mailbox = await startMailbox(mailDir);

  const port = await freePort();
  const osmandPort = await freePort();
  // The tracker ports on free ports too: Traccar's defaults (5023, …) may be taken by another run.
  const gt06Port = await freePort();
  const log = path.join(run, 'server.log');
  const out = fs.openSync(log, 'a');
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', out, out],
    env: {
      ...process.env,
      RASTRO_HOST: '127.0.0.1',
      RASTRO_PORT: String(port),
      RASTRO_OSMAND_PORT: String(osmandPort),
      RASTRO_GT06_PORT: String(gt06Port),
      RASTRO_TELTONIKA_PORT: '0',
      RASTRO_H02_PORT: '0',
      RASTRO_SUNTECH_PORT: '0',
      RASTRO_DATA_DIR: path.join(run, 'data'),
      RASTRO_DEMO: '0',
      RASTRO_ADMIN_PASSWORD: ADMIN_PASSWORD,
      RASTRO_SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
      RASTRO_WEB_ROOT: webRoot,
      RASTRO_LICENSE: 'plus',
    },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, server, log);
  } catch (error) {
    server.kill('SIGKILL');
    await mailbox.close();
    throw error;
  }

  process.env.E2E_BASE_URL = url;
  process.env.E2E_MAIL_DIR = mailDir;
  process.env.E2E_WEB_ROOT = webRoot;
  process.env.E2E_SERVER_LOG = log;
  process.env.E2E_OSMAND_PORT = String(osmandPort);
  process.env.E2E_GT06_PORT = String(gt06Port);

  return async () => {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    fs.closeSync(out);
    await mailbox.close();
    if (!process.env.E2E_KEEP) fs.rmSync(run, { recursive: true, force: true });
  };
}
