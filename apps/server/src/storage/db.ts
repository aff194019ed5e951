// Opens the database: SQLite (file in the data dir, WAL) by default, PostgreSQL when a
// postgres:// URL is given. Both go through Kysely so repositories are written once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';
import { migrations } from './migrations/index.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Storage {
  db: Kysely<Database>;
  dialect: DialectName;
  /** The SQLite database file (null on PostgreSQL): the ingest writer's thread opens its own connection to it. */
  file: string | null;
  close(): Promise<void>;
}

// int8 (bigserial ids, epoch-millisecond columns) arrives as a string by default; our values
// stay far below 2^53, so numbers are safe and keep both dialects returning the same types.
pg.types.setTypeParser(20, (v) => Number(v));
// double precision / numeric as numbers too.
pg.types.setTypeParser(1700, (v) => Number(v));

export interface StorageOptions {
  /** postgres:// URL; when null the SQLite file `<dataDir>/rastro.db` is used. */
  databaseUrl: string | null;
  dataDir: string;
  /** PostgreSQL schema to work in (tests give each suite its own). */
  pgSchema?: string;
  /** Where lost PostgreSQL connections are reported (the server's logger; the console without one). */
  log?: StorageLog;
}

export interface StorageLog {
  warn(details: object, message: string): void;
}

const consoleLog: StorageLog = { warn: (details, message) => console.warn(message, details) };

/** PostgreSQL connections each server instance keeps at most. */
const POOL_SIZE = 10;

export async function openStorage(options: StorageOptions): Promise<Storage> {
  if (options.databaseUrl) {
    const schema = options.pgSchema;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: POOL_SIZE,
      // Names the connections in pg_stat_activity (which instance holds them); tests find a
      // server's own by its schema. PostgreSQL keeps 63 characters.
      application_name: (schema ? `rastro/${schema}` : `rastro/${os.hostname()}/${process.pid}`).slice(0, 63),
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    watchConnections(pool, options.log ?? consoleLog);
    if (schema) {
      const client = await pool.connect();
      try {
        await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      } finally {
        client.release();
      }
    }
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const storage: Storage = { db, dialect: 'postgres', file: null, close: () => db.destroy() };
    await migrate(storage, schema);
    return storage;
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'rastro.db');
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const storage: Storage = { db, dialect: 'sqlite', file, close: () => db.destroy() };
  await migrate(storage);
  return storage;
}

/**
 * A connection the database ends (restart, pg_terminate_backend, network cut) makes pg emit
 * `error` on its client, and the pool re-emits it when the client was idle. Unheard, either ends
 * the process. Heard, the pool drops the broken connection and opens a new one for the next
 * query; a query that was running on it fails by itself and its caller handles that. Every pg
 * pool the server opens goes through here (the report threads' too).
 */
export function watchConnections(pool: pg.Pool, log: StorageLog): void {
  const warn = throttled(log);
  pool.on('connect', (client) => {
    client.on('error', (error) => warn(error, 'PostgreSQL connection lost; the pool replaces it'));
  });
  // The same error the client's own listener above has just reported.
  pool.on('error', () => undefined);
}

/** At most one report every 10 s: a restart of the database ends every connection at once. */
function throttled(log: StorageLog): (error: Error, message: string) => void {
  let last = 0;
  let quiet = 0;
  return (error, message) => {
    const now = Date.now();
    if (now - last < 10_000) {
      quiet++;
      return;
    }
    log.warn({ err: error, code: (error as { code?: unknown }).code, alsoLost: quiet }, message);
    last = now;
    quiet = 0;
  };
}

async function migrate(storage: Storage, pgSchema?: string): Promise<void> {
  const migrator = new Migrator({
    db: storage.db,
    provider: { getMigrations: async () => migrations(storage.dialect) },
    // Kysely looks for its bookkeeping tables across schemas unless told where they live;
    // pin them to our schema so instances in neighbouring schemas never confuse each other.
    ...(pgSchema ? { migrationTableSchema: pgSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
