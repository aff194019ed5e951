// The user tree: every user below a manager at any depth, read from `userTree` (the closure of
// the `userUser` links, kept by triggers: storage/migrations/011-user-tree.ts). Traccar's
// managers reach only their direct users; here a manager (userLimit != 0) reaches its whole
// tree, so a reseller's sub-reseller's customers are the reseller's too. Every question is one
// indexed look-up. `db` may be a transaction.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { badRequest } from '../http/errors.ts';
import { CYCLE_TEXT } from '../storage/migrations/011-user-tree.ts';

type Db = Kysely<Database>;

/** Ids of every user below `userId` (not `userId` itself), as a subquery. */
export function descendantIdsQuery(db: Db, userId: number) {
  return db.selectFrom('userTree').select('userTree.descendantId as id').where('userTree.ancestorId', '=', userId);
}

/**
 * Ids of the users whose links `viewerId` sees through: the viewer, and, when the viewer is a
 * manager (userLimit != 0), every user of its tree. One subquery, for visibility.ts.
 */
export function linkOwnerIdsQuery(db: Db, viewerId: number) {
  const self = db.selectFrom('users').select('users.id as id').where('users.id', '=', viewerId);
  const tree = db
    .selectFrom('userTree')
    .innerJoin('users as viewer', 'viewer.id', 'userTree.ancestorId')
    .select('userTree.descendantId as id')
    .where('userTree.ancestorId', '=', viewerId)
    .where('viewer.userLimit', '!=', 0);
  return self.union(tree);
}

/** Is `descendantId` below `ancestorId` at any depth? */
export async function isBelow(db: Db, ancestorId: number, descendantId: number): Promise<boolean> {
  const row = await db
    .selectFrom('userTree')
    .select('paths')
    .where('ancestorId', '=', ancestorId)
    .where('descendantId', '=', descendantId)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many users are below `userId` (what its userLimit and reseller limit count). */
export async function countDescendants(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('userTree')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('ancestorId', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The users above `userId`, the top of the tree first (fewest users above them), so limits
 * are locked from the widest scope to the narrowest (limit-scopes.ts).
 */
export async function ancestorIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('userTree as t')
    .select([
      't.ancestorId as id',
      (eb) => eb.selectFrom('userTree as up').select(sql<number>`count(*)`.as('n')).whereRef('up.descendantId', '=', 't.ancestorId').as('above'),
    ])
    .where('t.descendantId', '=', userId)
    .execute();
  return rows
    .map((r) => ({ id: Number(r.id), above: Number(r.above) }))
    .sort((a, b) => a.above - b.above || a.id - b.id)
    .map((r) => r.id);
}

/** Refuses (400) a link making `ownerId` manage `propertyId` when it would close a cycle. */
export async function assertLinkKeepsTree(db: Db, ownerId: number, propertyId: number): Promise<void> {
  if (ownerId === propertyId || (await isBelow(db, propertyId, ownerId))) throw badRequest(CYCLE_TEXT);
}
