// Integration-test harness: a real Rastro server on free ports over a fresh database,
// and a small HTTP client that keeps its cookie like a browser.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../src/config.ts';
import { newSchemaName } from './pg-schemas.ts';
import { freePort } from './free-port.ts';

export { freePort };
import { startRastro, type Rastro } from '../src/rastro.ts';

export type Backend = 'sqlite' | 'postgres';

const pgUrl = process.env.TEST_DATABASE_URL?.trim() || null;

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set. */
export const backends: Backend[] = pgUrl ? ['sqlite', 'postgres'] : ['sqlite'];

/** Redis for the multi-instance (realtime bus) suites; they skip, saying so, without it. */
export const redisUrl = process.env.TEST_REDIS_URL?.trim() || null;

if (!pgUrl && !process.env.RASTRO_PG_SKIP_NOTICE_SHOWN) {
  process.env.RASTRO_PG_SKIP_NOTICE_SHOWN = '1';
  console.warn('PostgreSQL suites skipped: TEST_DATABASE_URL is not set (.ci/run sets it).');
}

export const ADMIN_PASSWORD = 'admin-pass';

export interface TestServer {
  backend: Backend;
  rastro: Rastro;
  url: string;
  /** Base URL of the OsmAnd port (when enabled). */
  osmandUrl: string;
  /** Where its database lives (another server can share it: `shareDatabaseWith`). */
  dataDir: string;
  pgSchema: string | undefined;
  client(): TestClient;
  /** A client already logged in as `admin`. */
  admin(): Promise<TestClient>;
  close(): Promise<void>;
}


export interface TestServerOptions {
  /** Run as a second instance over that server's database (it owns and removes it). */
  shareDatabaseWith?: TestServer;
}

export async function startTestServer(backend: Backend, env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const owner = options.shareDatabaseWith;
  const dataDir = owner?.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-test-'));
  const schema = owner ? owner.pgSchema : backend === 'postgres' ? newSchemaName() : undefined;
  const config: Config = loadConfig({
    RASTRO_HOST: '127.0.0.1',
    RASTRO_PORT: '0',
    // A free port for the OsmAnd listener (0 would disable it); a test may pass its own.
    RASTRO_OSMAND_PORT: env.RASTRO_OSMAND_PORT ?? String(await freePort()),
    // The tracker protocols stay off unless a test asks (RASTRO_GT06_PORT: String(await freePort())).
    RASTRO_GT06_PORT: '0',
    RASTRO_TELTONIKA_PORT: '0',
    RASTRO_H02_PORT: '0',
    RASTRO_SUNTECH_PORT: '0',
    RASTRO_DATA_DIR: dataDir,
    RASTRO_DEMO: '0',
    RASTRO_ADMIN_PASSWORD: ADMIN_PASSWORD,
    ...(backend === 'postgres' && pgUrl ? { DATABASE_URL: pgUrl } : {}),
    ...env,
  });
  const rastro = await startRastro(config, { pgSchema: schema });
  const url = `http://127.0.0.1:${rastro.port}`;
  const server: TestServer = {
    backend,
    rastro,
    url,
    osmandUrl: `http://127.0.0.1:${rastro.osmandPort}`,
    dataDir,
    pgSchema: schema,
    client: () => new TestClient(url),
    async admin() {
      const c = new TestClient(url);
      await c.login('admin', ADMIN_PASSWORD);
      return c;
    },
    async close() {
      await rastro.close();
      if (owner) return; // the first server removes the shared database
      fs.rmSync(dataDir, { recursive: true, force: true });
      // The PostgreSQL schema stays until the run is over (test/pg-schemas.ts says why).
    },
  };
  return server;
}

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  json: T;
}

/** Minimal browser-like client: keeps the JSESSIONID cookie, sends forms and JSON. */
export class TestClient {
  cookie: string | null = null;
  headers: Record<string, string> = {};

  constructor(readonly baseUrl: string) {}

  async request<T = unknown>(method: string, pathAndQuery: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...this.headers, ...extraHeaders };
    if (this.cookie) headers.cookie = this.cookie;
    let payload: string | undefined;
    if (body instanceof URLSearchParams) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = body.toString();
    } else if (body !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const res = await fetch(this.baseUrl + pathAndQuery, { method, headers, body: payload, redirect: 'manual' });
    const setCookie = res.headers.get('set-cookie');
    if (setCookie) {
      const match = /JSESSIONID=([^;]*)/.exec(setCookie);
      if (match) this.cookie = match[1] ? `JSESSIONID=${match[1]}` : null;
    }
    const text = await res.text();
    let json: unknown = undefined;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) json = JSON.parse(text);
    return { status: res.status, headers: res.headers, text, json: json as T };
  }

  get<T = unknown>(p: string, h?: Record<string, string>) { return this.request<T>('GET', p, undefined, h); }
  post<T = unknown>(p: string, body?: unknown, h?: Record<string, string>) { return this.request<T>('POST', p, body, h); }
  put<T = unknown>(p: string, body?: unknown, h?: Record<string, string>) { return this.request<T>('PUT', p, body, h); }
  delete<T = unknown>(p: string, body?: unknown, h?: Record<string, string>) { return this.request<T>('DELETE', p, body, h); }

  async login(email: string, password: string): Promise<TestResponse> {
    const res = await this.post('/api/session', new URLSearchParams({ email, password }));
    if (res.status !== 200) throw new Error(`login ${email} failed: ${res.status} ${res.text}`);
    return res;
  }
}
