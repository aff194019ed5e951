// The single `server` row (global settings). Every request's restriction guards read it, so
// it is cached briefly in memory; a PUT through this module invalidates the cache at once.
// With several instances, another instance's PUT is seen after at most CACHE_MS.
import type { Selectable, Updateable } from 'kysely';
import type { AppContext } from '../context.ts';
import type { ServerTable } from '../storage/schema.ts';

export type ServerRow = Selectable<ServerTable>;

const CACHE_MS = 5_000;

interface CacheEntry {
  row: ServerRow;
  at: number;
}

// Keyed by context so several servers in one process (tests, in-process restart) never mix.
const cache = new WeakMap<AppContext, CacheEntry>();

/** The server row, from a short-lived cache. */
export async function getServerRow(ctx: AppContext, now = Date.now()): Promise<ServerRow> {
  const hit = cache.get(ctx);
  if (hit && now - hit.at < CACHE_MS) return hit.row;
  const row = await ctx.storage.db.selectFrom('server').selectAll().orderBy('id').executeTakeFirstOrThrow();
  cache.set(ctx, { row, at: now });
  return row;
}

/** Forgets the cached row (after a write). */
export function invalidateServerRow(ctx: AppContext): void {
  cache.delete(ctx);
}

/** Writes the server row and refreshes the cache. */
export async function updateServerRow(ctx: AppContext, values: Updateable<ServerTable>): Promise<ServerRow> {
  const current = await getServerRow(ctx);
  await ctx.storage.db.updateTable('server').set(values).where('id', '=', current.id).execute();
  invalidateServerRow(ctx);
  // Caches of server attributes (the events engine's attribute lookup) reload.
  ctx.changes.publish({ kind: 'server', id: Number(current.id) });
  return getServerRow(ctx);
}
