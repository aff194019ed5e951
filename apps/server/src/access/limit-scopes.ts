// Limits on how many objects a scope may hold — the server's devices, a user's devices, a
// manager's users, and those of every manager above in the user tree (tree-limits.ts) —
// enforced inside the transaction that creates the object (storage/write-transaction.ts).
// Every scope first locks its own row, in the order given, and only then counts: a concurrent
// create in the same scope waits for this one to commit and then counts its row. Callers list
// scopes from the widest to the narrowest (server, then the managers above from the top of
// the tree down, then the user), so two transactions never wait for each other in a circle.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { ApiError } from '../http/errors.ts';
import { lockingRead } from '../storage/write-transaction.ts';

type Db = Kysely<Database>;

/** One limit: a row to lock, its limit, what it holds. */
export interface FixedScope {
  /** Locks the scope's row and reads its limit as it is now: null = unlimited, 0 = none allowed. */
  lock(trx: Db): Promise<number | null>;
  /** How many objects the scope holds now (read after every lock is taken). */
  count(trx: Db): Promise<number>;
  refusal(): ApiError;
}

/**
 * Scopes only known inside the transaction (the managers above a user: the tree may change
 * until the server row is locked); expanded in place, in the order they come.
 */
export interface ScopeGroup {
  expand(trx: Db): Promise<FixedScope[]>;
}

export type LimitScope = FixedScope | ScopeGroup;

const isGroup = (scope: LimitScope): scope is ScopeGroup => 'expand' in scope;

/** Locks every scope, then throws the refusal of the first one that is full. */
export async function enforceLimits(trx: Db, scopes: readonly LimitScope[]): Promise<void> {
  const fixed: FixedScope[] = [];
  const limits: Array<number | null> = [];
  for (const scope of scopes) {
    for (const one of isGroup(scope) ? await scope.expand(trx) : [scope]) {
      fixed.push(one);
      limits.push(await one.lock(trx));
    }
  }
  for (const [i, scope] of fixed.entries()) {
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

export interface LockedUser {
  administrator: number;
  deviceLimit: number;
  userLimit: number;
  /** JSON text (the reseller limit is an attribute). */
  attributes: string;
}

/** A user's row, locked, with the limits stored on it (undefined when the user is gone). */
export function lockUserRow(trx: Db, userId: number): Promise<LockedUser | undefined> {
  const query = trx.selectFrom('users').select(['administrator', 'deviceLimit', 'userLimit', 'attributes']).where('id', '=', userId);
  return lockingRead(trx, query).executeTakeFirst();
}
