// Removes audit rows older than RASTRO_AUDIT_RETENTION_DAYS. The rows' own times are the
// state: the job runs at start and every hour after, so a restart (or a stop of days) loses
// nothing and the first run catches up. Rows go in batches, so the ingest writer (which shares
// SQLite's write lock) never waits long. On PostgreSQL several instances may run it: one holds
// an advisory lock for the run and the others skip theirs.
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { AuditRepo } from './audit-repo.ts';

const DAY_MS = 86_400_000;
/** How often the job runs. */
export const RETENTION_INTERVAL_MS = 3_600_000;
const BATCH = 5_000;
/** Advisory lock key of the job (any constant no other job uses: "audit" in ASCII). */
const LOCK_KEY = 0x61756469;

/** Removes every row older than the retention at `now`; answers how many went (0 when another instance runs it). */
export async function removeExpiredAudit(ctx: Pick<AppContext, 'storage' | 'config'>, now = Date.now()): Promise<number> {
  const before = now - ctx.config.auditRetentionDays * DAY_MS;
  const sweep = async (repo: AuditRepo) => {
    let total = 0;
    for (;;) {
      const removed = await repo.removeOlderThan(before, BATCH);
      total += removed;
      if (removed < BATCH) return total;
    }
  };
  if (ctx.storage.dialect !== 'postgres') return sweep(new AuditRepo(ctx.storage.db));
  // A session lock on one pooled connection; the batches run on it, each its own transaction.
  return ctx.storage.db.connection().execute(async (conn) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${LOCK_KEY}) as locked`.execute(conn);
    if (!rows[0]?.locked) return 0;
    try {
      return await sweep(new AuditRepo(conn));
    } finally {
      await sql`select pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
  });
}

/** Starts the periodic job; the returned function stops it (awaiting a run under way). */
export function startAuditRetention(ctx: Pick<AppContext, 'storage' | 'config' | 'log'>): () => Promise<void> {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = running
      .then(() => removeExpiredAudit(ctx))
      .then((removed) => {
        if (removed > 0) ctx.log.info({ removed, days: ctx.config.auditRetentionDays }, 'audit rows past the retention removed');
      })
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'audit retention job failed; it runs again within the hour'));
  };
  run();
  const timer = setInterval(run, RETENTION_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
