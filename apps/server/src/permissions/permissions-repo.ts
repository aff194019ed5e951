// Link tables (`userDevice`, `userGroup`, ...): add, remove and list owner/property pairs.
import type { Kysely } from 'kysely';
import type { Database, LinkTableName } from '../storage/schema.ts';

export interface Link {
  ownerId: number;
  propertyId: number;
}

export class PermissionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds links in one transaction; an existing link is left as it is. */
  async link(table: LinkTableName, links: Link[]): Promise<void> {
    if (links.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const l of links) {
        await trx
          .insertInto(table)
          .values({ ownerId: l.ownerId, propertyId: l.propertyId })
          .onConflict((oc) => oc.columns(['ownerId', 'propertyId']).doNothing())
          .execute();
      }
    });
  }

  async unlink(table: LinkTableName, links: Link[]): Promise<void> {
    if (links.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
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
