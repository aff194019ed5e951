// The real server for HTTP benchmarks: `node --import tsx apps/server/src/main.ts` in a child
// process on free ports over a seeded database, as operators run it, plus a logged-in HTTP
// client that times whole answers over keep-alive connections.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../apps/server/test/free-port.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  osmandPort: number;
  /** Everything the server printed (for errors). */
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts the server over `dataDir` / `databaseUrl`; the tracker ports other than OsmAnd are off. */
export async function startServer(dataDir: string, databaseUrl: string | null, env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const osmandPort = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env, RASTRO_HOST: '127.0.0.1', RASTRO_PORT: String(port), RASTRO_OSMAND_PORT: String(osmandPort), RASTRO_DATA_DIR: dataDir,
      RASTRO_GT06_PORT: '0', RASTRO_TELTONIKA_PORT: '0', RASTRO_H02_PORT: '0', RASTRO_SUNTECH_PORT: '0',
      RASTRO_DEMO: '0', DATABASE_URL: databaseUrl ?? '', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const started = Date.now();
  while (!output.includes('Rastro is running')) {
    if (child.exitCode !== null || Date.now() - started > 120_000) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start:\n${output}`);
    }
    await sleep(50);
  }
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    if (!(await Promise.race([exited.then(() => true), sleep(15_000).then(() => false)]))) {
      child.kill('SIGKILL');
      await exited;
    }
  };
  return { child, port, osmandPort, output: () => output, stop };
}

export interface Timed {
  status: number;
  ms: number;
  body: string;
}

/** A session (cookie) on one server, its requests on keep-alive connections. */
export class BenchClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  cookie = '';

  constructor(readonly port: number) {}

  async login(email: string, password: string): Promise<void> {
    const res = await this.request('POST', '/api/session', new URLSearchParams({ email, password }).toString(), 'application/x-www-form-urlencoded');
    if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${res.body}`);
  }

  /** One request, timed from sending until the whole answer was read. */
  request(method: string, pathAndQuery: string, body?: string, contentType = 'application/json'): Promise<Timed> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) {
      headers['content-type'] = contentType;
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const t0 = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.port, method, path: pathAndQuery, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - t0;
          const cookie = /JSESSIONID=[^;]+/.exec(String(res.headers['set-cookie'] ?? ''))?.[0];
          if (cookie) this.cookie = cookie;
          resolve({ status: res.statusCode ?? 0, ms, body: Buffer.concat(chunks).toString() });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** `request`, failing on any status but `expected`. */
  async expect(expected: number, method: string, pathAndQuery: string, body?: unknown): Promise<Timed> {
    const res = await this.request(method, pathAndQuery, body === undefined ? undefined : JSON.stringify(body));
    if (res.status !== expected) throw new Error(`${method} ${pathAndQuery}: ${res.status} (expected ${expected}) ${res.body.slice(0, 300)}`);
    return res;
  }

  close(): void {
    this.agent.destroy();
  }
}
