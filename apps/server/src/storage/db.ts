// Opens the database: SQLite (file in the data dir, WAL) by default, PostgreSQL when a
// postgres:// URL is given. Both go through Kysely so repositories are written once.
import fs from 'node:fs';
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
}

export async function openStorage(options: StorageOptions): Promise<Storage> {
  if (options.databaseUrl) {
    const schema = options.pgSchema;
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
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
