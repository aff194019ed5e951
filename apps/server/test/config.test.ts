// Configuration from the environment: defaults, a readable refusal that names the variable for
// every bad value, the start-up refusal of main.ts, and docs/configuration.md kept complete.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const configSource = fs.readFileSync(path.join(repoRoot, 'apps/server/src/config.ts'), 'utf8');

/** Every environment variable config.ts reads: `env.NAME`, `env['NAME']` and `(env, 'NAME'`. */
function variablesReadByConfig(): string[] {
  const names = new Set<string>();
  for (const re of [/\benv\.([A-Z][A-Z0-9_]*)/g, /\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g, /\(env,\s*['"]([A-Z][A-Z0-9_]*)['"]/g]) {
    for (const m of configSource.matchAll(re)) names.add(m[1]!);
  }
  return [...names].sort();
}

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused`);
}

describe('loadConfig', () => {
  it('finds the variables it reads (sanity check of the source scan)', () => {
    const vars = variablesReadByConfig();
    expect(vars).toEqual(expect.arrayContaining(['RASTRO_PORT', 'RASTRO_HOST', 'DATABASE_URL', 'REDIS_URL', 'RASTRO_DATA_DIR']));
  });

  it('starts with sensible defaults on an empty environment', () => {
    expect(loadConfig({})).toMatchObject({
      host: '0.0.0.0',
      port: 8082,
      dataDir: './data',
      databaseUrl: null,
      osmandPort: 5055,
      adminPassword: null,
      demo: true,
      license: 'plus',
      deviceLimit: null,
      smtpUrl: null,
      mailFrom: 'Rastro <no-reply@rastro.local>',
      redisUrl: null,
      statusTimeout: 600,
      ingestBuffer: 50_000,
      ingestInFlight: 4_000,
      webRoot: null,
      publicUrl: null,
      socketKeepaliveMs: 55_000,
      demoIntervalMs: 5_000,
      trustProxy: 'loopback',
    });
  });

  it('treats empty values as unset', () => {
    const names = variablesReadByConfig();
    const empty = Object.fromEntries(names.map((name) => [name, '']));
    expect(loadConfig(empty)).toEqual(loadConfig({}));
  });

  it('reads good values', () => {
    expect(
      loadConfig({
        RASTRO_HOST: '127.0.0.1',
        RASTRO_PORT: ' 9000 ',
        RASTRO_OSMAND_PORT: '0',
        RASTRO_DATA_DIR: '/var/lib/rastro',
        DATABASE_URL: 'postgresql://rastro@db:5432/rastro',
        REDIS_URL: 'redis://cache:6379',
        RASTRO_DEMO: 'off',
        RASTRO_LICENSE: 'BASIC',
        RASTRO_DEVICE_LIMIT: '50',
        RASTRO_ADMIN_PASSWORD: 'secret-pw',
        RASTRO_SMTP_URL: 'smtps://user:pw@mail.example.com:465',
        RASTRO_PUBLIC_URL: 'https://track.example.com',
        RASTRO_STATUS_TIMEOUT: '120',
        RASTRO_TRUST_PROXY: '10.0.0.5, 10.1.0.0/16',
        RASTRO_INGEST_IN_FLIGHT: '2000',
      }),
    ).toMatchObject({
      host: '127.0.0.1',
      port: 9000,
      osmandPort: 0,
      dataDir: '/var/lib/rastro',
      databaseUrl: 'postgresql://rastro@db:5432/rastro',
      redisUrl: 'redis://cache:6379',
      demo: false,
      license: 'basic',
      deviceLimit: 50,
      adminPassword: 'secret-pw',
      smtpUrl: 'smtps://user:pw@mail.example.com:465',
      publicUrl: 'https://track.example.com',
      statusTimeout: 120,
      trustProxy: '10.0.0.5,10.1.0.0/16',
      ingestInFlight: 2_000,
    });
  });

  const bad: Array<[string, string]> = [
    ['RASTRO_PORT', 'abc'],
    ['RASTRO_PORT', '70000'],
    ['RASTRO_PORT', '-1'],
    ['RASTRO_PORT', '80.5'],
    ['RASTRO_OSMAND_PORT', 'five'],
    ['RASTRO_HOST', 'bad host!'],
    ['DATABASE_URL', 'mysql://db/rastro'],
    ['DATABASE_URL', 'not a url'],
    ['REDIS_URL', 'http://cache:6379'],
    ['RASTRO_SMTP_URL', 'mail.example.com'],
    ['RASTRO_PUBLIC_URL', 'ftp://track.example.com'],
    ['RASTRO_DEMO', 'maybe'],
    ['RASTRO_LICENSE', 'gold'],
    ['RASTRO_DEVICE_LIMIT', '-5'],
    ['RASTRO_DEVICE_LIMIT', 'many'],
    ['RASTRO_ADMIN_PASSWORD', 'abc'],
    ['RASTRO_STATUS_TIMEOUT', '1'],
    ['RASTRO_SOCKET_KEEPALIVE_MS', '10'],
    ['RASTRO_DEMO_INTERVAL_MS', 'fast'],
    ['RASTRO_TRUST_PROXY', 'everyone'],
    ['RASTRO_INGEST_IN_FLIGHT', '0'],
  ];
  it.each(bad)('refuses %s=%j and names the variable', (name, value) => {
    expect(refusal({ [name]: value })).toContain(name);
  });

  it('names the variable whenever any variable it reads is refused', () => {
    const junk = ['abc', '-1', '0', '99999999999', '1.5', 'ftp://x', 'x y', '%%%'];
    for (const name of variablesReadByConfig()) {
      for (const value of junk) {
        try {
          loadConfig({ [name]: value });
        } catch (error) {
          expect(error, `${name}=${value}`).toBeInstanceOf(ConfigError);
          expect((error as Error).message, `${name}=${value}`).toContain(name);
        }
      }
    }
  });
});

describe('npm start with a bad value', () => {
  it('exits non-zero and prints the name of the variable', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-config-test-'));
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
        cwd: repoRoot,
        env: { ...process.env, RASTRO_PORT: 'not-a-port', RASTRO_DATA_DIR: dataDir, RASTRO_HOST: '127.0.0.1', RASTRO_DEMO: '0' },
        encoding: 'utf8',
        timeout: 25_000,
      });
      expect(run.error).toBeUndefined();
      expect(run.status).not.toBe(0);
      expect(run.status).not.toBeNull();
      expect(`${run.stderr}${run.stdout}`).toContain('RASTRO_PORT');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('docs/configuration.md', () => {
  it('documents every variable config.ts reads', () => {
    const docs = fs.readFileSync(path.join(repoRoot, 'docs/configuration.md'), 'utf8');
    const missing = variablesReadByConfig().filter((name) => !new RegExp(`\\b${name}\\b`).test(docs));
    expect(missing, 'add these to docs/configuration.md (default, meaning, example)').toEqual([]);
  });
});
