// Transactions that read, decide and then write (count against a limit, look for a duplicate,
// then insert), the same on SQLite and PostgreSQL.
//
// SQLite: Kysely's one connection is held for the whole transaction, so requests of this
// process run their transactions one after the other. The ingest writer thread has its own
// connection, though: a plain (deferred) BEGIN that reads first and writes later fails with
// SQLITE_BUSY_SNAPSHOT when that thread commits in between. BEGIN IMMEDIATE takes the write
// lock up front (waiting through busy_timeout), so the decision and the write see one state.
//
// PostgreSQL: READ COMMITTED lets two transactions count the same rows; callers lock a row
// per scope (`lockingRead`) before counting, so the second waits for the first to commit.
import { PostgresAdapter, sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from './schema.ts';

type Db = Kysely<Database>;

export function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** Runs `work` in one transaction that holds the write lock from its first statement. */
export async function writeTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (isPostgres(db)) return db.transaction().execute(work);
  return db.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const result = await work(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      // SQLite may already have rolled back on its own (a full disk, say): the first error is the one to report.
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}

/**
 * A read that locks the rows it returns until the transaction ends (PostgreSQL `FOR NO KEY
 * UPDATE`: it serialises the lockers of one row but still lets others insert rows that refer
 * to it). SQLite needs no row lock inside `writeTransaction`, so the query is left as is.
 */
export function lockingRead<DB, TB extends keyof DB, O>(db: Db, query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return isPostgres(db) ? query.forNoKeyUpdate() : query;
}

/** A unique index refused the write (a concurrent create with the same key won). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  return e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || (typeof e.message === 'string' && /UNIQUE constraint failed/i.test(e.message));
}
