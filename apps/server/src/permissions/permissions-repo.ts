// Link tables (`userDevice`, `userGroup`, ...): add, remove and list owner/property pairs.
// Links between users (`userUser`) shape the user tree (access/user-tree.ts, kept by triggers
// in the same statements): they are changed under the server row's lock, the lock every
// limit-checking create takes first, so a tree never changes under a limit being counted, and
// a link that would close a cycle is refused with a 400.
import type { Kysely } from 'kysely';
import type { Database, LinkTableName } from '../storage/schema.ts';
import { writeTransaction } from '../storage/write-transaction.ts';
import { lockServerRow } from '../access/limit-scopes.ts';
import { assertLinkKeepsTree } from '../access/user-tree.ts';
import { assertTreesFit } from '../access/tree-limits.ts';

export interface Link {
  ownerId: number;
  propertyId: number;
}

export interface LinkOptions {
  /** `userUser` links made by a manager: the trees they grow must fit their user capacity. */
  checkCapacity?: boolean;
}

export class PermissionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds links in one transaction; an existing link is left as it is. */
  async link(table: LinkTableName, links: Link[], options: LinkOptions = {}): Promise<void> {
    if (links.length === 0) return;
    await writeTransaction(this.db, async (trx) => {
      const tree = table === 'userUser';
      if (tree) await lockServerRow(trx);
      for (const l of links) {
        if (tree) await assertLinkKeepsTree(trx, l.ownerId, l.propertyId);
        await trx
          .insertInto(table)
          .values({ ownerId: l.ownerId, propertyId: l.propertyId })
          .onConflict((oc) => oc.columns(['ownerId', 'propertyId']).doNothing())
          .execute();
      }
      if (tree && options.checkCapacity) {
        for (const owner of new Set(links.map((l) => l.ownerId))) await assertTreesFit(trx, owner);
      }
    });
  }

  async unlink(table: LinkTableName, links: Link[]): Promise<void> {
    if (links.length === 0) return;
    await writeTransaction(this.db, async (trx) => {
      if (table === 'userUser') await lockServerRow(trx);
      for (const l of links) {
        await trx.deleteFrom(table).where('ownerId', '=', l.ownerId).where('propertyId', '=', l.propertyId).execute();
      }
    });
  }

  /** Links of a table; 0 on a side means any. */
  async list(table: LinkTableName, ownerId: number, propertyId: number): Promise<Link[]> {
    let query = this.db.selectFrom(table).select(['ownerId', 'propertyId']);
    if (ownerId !== 0) query = query.where('ownerId', '=', ownerId);
    if (propertyId !== 0) query = query.where('propertyId', '=', propertyId);
    const rows = await query.orderBy('ownerId').orderBy('propertyId').execute();
    return rows.map((r) => ({ ownerId: Number(r.ownerId), propertyId: Number(r.propertyId) }));
  }
}
