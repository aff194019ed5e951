// Limits on how many objects a scope may hold — the server's devices, a user's devices, a
// manager's users (a reseller's, later: one more scope) — enforced inside the transaction that
// creates the object (storage/write-transaction.ts). Every scope first locks its own row, in
// the order given, and only then counts: a concurrent create in the same scope waits for this
// one to commit and then counts its row. Callers list scopes from the widest to the narrowest
// (server, then reseller, then user), so two transactions never wait for each other in a circle.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { ApiError } from '../http/errors.ts';
import { lockingRead } from '../storage/write-transaction.ts';

type Db = Kysely<Database>;

export interface LimitScope {
  /** Locks the scope's row and reads its limit as it is now: null = unlimited, 0 = none allowed. */
  lock(trx: Db): Promise<number | null>;
  /** How many objects the scope holds now (read after every lock is taken). */
  count(trx: Db): Promise<number>;
  refusal(): ApiError;
}

/** Locks every scope, then throws the refusal of the first one that is full. */
export async function enforceLimits(trx: Db, scopes: readonly LimitScope[]): Promise<void> {
  const limits: Array<number | null> = [];
  for (const scope of scopes) limits.push(await scope.lock(trx));
  for (const [i, scope] of scopes.entries()) {
    const limit = limits[i] ?? null;
    if (limit === null) continue;
    if (limit <= 0 || (await scope.count(trx)) >= limit) throw scope.refusal();
  }
}

/**
 * The server row, locked: the scope of server-wide limits, and of login names (an e-mail must
 * not be another user's login, which no single index can enforce).
 */
export function lockServerRow(trx: Db): Promise<{ id: number; attributes: string }> {
  return lockingRead(trx, trx.selectFrom('server').select(['id', 'attributes']).orderBy('id').limit(1)).executeTakeFirstOrThrow();
}

/** A user's row, locked, with the limits stored on it (undefined when the user is gone). */
export function lockUserRow(trx: Db, userId: number): Promise<{ deviceLimit: number; userLimit: number } | undefined> {
  return lockingRead(trx, trx.selectFrom('users').select(['deviceLimit', 'userLimit']).where('id', '=', userId)).executeTakeFirst();
}
