// Migration 011 (the user tree): the pure backfill (cycles dropped, paths counted) and the
// migration itself over a database that already has links, including the cycles and
// self-links a database coming from Traccar may hold, on SQLite and PostgreSQL.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { DialectName } from '../src/storage/db.ts';
import { migrations } from '../src/storage/migrations/index.ts';
import { acyclicLinks, closureOf } from '../src/storage/migrations/011-user-tree.ts';
import { backends } from './harness.ts';
import { newSchemaName } from './pg-schemas.ts';

const L = (ownerId: number, propertyId: number) => ({ ownerId, propertyId });

describe('user tree backfill', () => {
  it('keeps links in order and drops self-links and those closing a cycle', () => {
    expect(acyclicLinks([L(1, 2), L(2, 3), L(3, 1), L(4, 4), L(3, 4), L(4, 2)])).toEqual({
      keep: [L(1, 2), L(2, 3), L(3, 4)],
      drop: [L(3, 1), L(4, 4), L(4, 2)],
    });
  });

  it('counts every path of a graph with several managers per user', () => {
    // 1 -> 2 -> 4, 1 -> 3 -> 4, 4 -> 5: two paths from 1 to 4 and to 5.
    const rows = closureOf([L(1, 2), L(1, 3), L(2, 4), L(3, 4), L(4, 5)]).map((r) => `${r.ancestorId}>${r.descendantId}:${r.paths}`).sort();
    expect(rows).toEqual(['1>2:1', '1>3:1', '1>4:2', '1>5:2', '2>4:1', '2>5:1', '3>4:1', '3>5:1', '4>5:1'].sort());
  });

  it('handles a deep chain without recursion', () => {
    const chain = Array.from({ length: 1000 }, (_, i) => L(i + 1, i + 2));
    const rows = closureOf(chain);
    expect(rows.length).toBe((1000 * 1001) / 2);
    expect(rows.find((r) => r.ancestorId === 1 && r.descendantId === 1001)?.paths).toBe(1);
  });
});

/* eslint-disable @typescript-eslint/no-explicit-any */
async function openDb(backend: DialectName): Promise<{ db: Kysely<any>; schema?: string; close: () => Promise<void> }> {
  if (backend === 'postgres') {
    const schema = newSchemaName();
    const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 2, options: `-c search_path=${schema}` });
    const client = await pool.connect();
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    client.release();
    const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
    return { db, schema, close: () => db.destroy() };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-tree-'));
  const sqlite = new SQLite(path.join(dir, 'rastro.db'));
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, close: async () => { await db.destroy(); fs.rmSync(dir, { recursive: true, force: true }); } };
}

describe.each(backends)('migration 011 over existing links (%s)', (backend) => {
  it('backfills the closure, drops cycles and then keeps the closure by itself', async () => {
    const { db, schema, close } = await openDb(backend);
    try {
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => migrations(backend) },
        ...(schema ? { migrationTableSchema: schema } : {}),
      });
      expect((await migrator.migrateTo('010-statistics')).error).toBeUndefined();
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) {
        const row = await db
          .insertInto('users')
          .values({ name: `u${i}`, email: `u${i}@m.test`, attributes: '{}' })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(Number(row.id));
      }
      const [a, b, c, d, e, f] = ids as [number, number, number, number, number, number];
      // a > b > c > d, a > d too; c > a closes a cycle; e manages itself; f alone.
      await db.insertInto('userUser').values([L(a, b), L(b, c), L(c, d), L(a, d), L(c, a), L(e, e)]).execute();

      expect((await migrator.migrateToLatest()).error).toBeUndefined();
      const links = (await db.selectFrom('userUser').select(['ownerId', 'propertyId']).orderBy('ownerId').orderBy('propertyId').execute())
        .map((r: any) => L(Number(r.ownerId), Number(r.propertyId)));
      // Links are read in (owner, property) order: c > a is the one that closes the cycle (a < b < c).
      expect(links).toEqual([L(a, b), L(a, d), L(b, c), L(c, d)].sort((x, y) => x.ownerId - y.ownerId || x.propertyId - y.propertyId));
      const tree = async () => (await db.selectFrom('userTree').select(['ancestorId', 'descendantId', 'paths']).execute())
        .map((r: any) => `${Number(r.ancestorId)}>${Number(r.descendantId)}:${Number(r.paths)}`).sort();
      expect(await tree()).toEqual([`${a}>${b}:1`, `${a}>${c}:1`, `${a}>${d}:2`, `${b}>${c}:1`, `${b}>${d}:1`, `${c}>${d}:1`].sort());

      // From now on the triggers keep it: f under d, then b taken away from a.
      await db.insertInto('userUser').values(L(d, f)).execute();
      await db.deleteFrom('userUser').where('ownerId', '=', a).where('propertyId', '=', b).execute();
      expect(await tree()).toEqual([`${a}>${d}:1`, `${a}>${f}:1`, `${b}>${c}:1`, `${b}>${d}:1`, `${b}>${f}:1`, `${c}>${d}:1`, `${c}>${f}:1`, `${d}>${f}:1`].sort());
      // A user deleted: its links cascade and the triggers follow them.
      await db.deleteFrom('users').where('id', '=', d).execute();
      expect(await tree()).toEqual([`${b}>${c}:1`]);
    } finally {
      await close();
    }
  });
});
