// Data access shared by the entity resources: the list with Traccar's list parameters, one
// object, the user link check, create with the creator linked, update and delete — each in
// one transaction where it writes more than one row. Table and column names come from the
// resource definitions (trusted), never from requests.
import { sql, type Kysely } from 'kysely';
import type { Change } from '../realtime/changes.ts';
import type { Database } from '../storage/schema.ts';
import { isUniqueViolation, writeTransaction } from '../storage/write-transaction.ts';
import { keywordMatch, NO_LIMIT } from '../access/list-params.ts';
import { linkedTo, type ExtendedListFilter } from '../access/extended-list.ts';
import type { ResourceDefinition, ResourceRow, ResourceTableName, ResourceValues } from './resource.ts';

/**
 * The database seen without table types: the resource tables differ per definition, and the
 * definitions type their rows and values themselves (ResourceRow / ResourceValues).
 */
type LooseDb = Kysely<Record<string, Record<string, unknown>>>;

export class ResourceRepo<T extends ResourceTableName> {
  private readonly loose: LooseDb;
  private readonly table: string;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly def: ResourceDefinition<T>,
  ) {
    this.loose = db as unknown as LooseDb;
    this.table = def.table;
  }

  async list(filter: ExtendedListFilter): Promise<ResourceRow<T>[]> {
    const { def, table } = this;
    const id = `${table}.id`;
    const columns = ['id', ...def.columns, ...(def.hasAttributes && !filter.excludeAttributes ? ['attributes'] : [])];
    let query = this.loose.selectFrom(table).select(columns.map((c) => `${table}.${c}`));
    if (filter.userId !== undefined) query = query.where(linkedTo(def.links.user, filter.userId, id));
    if (filter.groupId !== undefined && def.links.group) query = query.where(linkedTo(def.links.group, filter.groupId, id));
    if (filter.deviceId !== undefined && def.links.device) query = query.where(linkedTo(def.links.device, filter.deviceId, id));
    if (filter.keyword) query = query.where(keywordMatch(def.search.map((c) => `${table}.${c}`), filter.keyword));
    const order = sql.ref(`${table}.${def.orderBy}`);
    query = query.orderBy(sql`lower(coalesce(${order}, ''))`).orderBy(order).orderBy(id);
    if (filter.limit !== undefined || filter.offset) query = query.limit(filter.limit ?? NO_LIMIT);
    if (filter.offset) query = query.offset(filter.offset);
    const rows = await query.execute();
    // Left-out attributes read as an empty object, as Traccar's answers show them.
    const filled = def.hasAttributes && filter.excludeAttributes ? rows.map((r) => ({ ...r, attributes: '{}' })) : rows;
    return filled as unknown as ResourceRow<T>[];
  }

  async findById(id: number): Promise<ResourceRow<T> | undefined> {
    const row = await this.loose.selectFrom(this.table).selectAll().where('id', '=', id).executeTakeFirst();
    return row as ResourceRow<T> | undefined;
  }

  async isLinkedToUser(userId: number, id: number): Promise<boolean> {
    const row = await this.db
      .selectFrom(this.def.links.user)
      .select('ownerId')
      .where('ownerId', '=', userId)
      .where('propertyId', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Creates the object and links it to its creator, so they see it. */
  async insertLinked(values: ResourceValues<T>, userId: number): Promise<ResourceRow<T>> {
    return this.unique(values, () =>
      writeTransaction(this.db, async (trx) => {
        const loose = trx as unknown as LooseDb;
        const row = await loose.insertInto(this.table).values(values as Record<string, unknown>).returningAll().executeTakeFirstOrThrow();
        await trx.insertInto(this.def.links.user).values({ ownerId: userId, propertyId: Number(row.id) }).execute();
        return row as ResourceRow<T>;
      }),
    );
  }

  async update(id: number, values: ResourceValues<T>): Promise<ResourceRow<T> | undefined> {
    return this.unique(values, async () => {
      const row = await this.loose.updateTable(this.table).set(values as Record<string, unknown>).where('id', '=', id).returningAll().executeTakeFirst();
      return row as ResourceRow<T> | undefined;
    });
  }

  /** Deletes the object (its links cascade) after the definition's own clean-up; returns what else changed. */
  async delete(id: number): Promise<Change[]> {
    // The write lock from the start: the clean-up may touch devices, which ingest writes too.
    return writeTransaction(this.db, async (trx) => {
      const changes = (await this.def.beforeDelete?.(trx, id)) ?? [];
      await (trx as unknown as LooseDb).deleteFrom(this.table).where('id', '=', id).execute();
      return changes;
    });
  }

  private async unique<R>(values: ResourceValues<T>, write: () => Promise<R>): Promise<R> {
    try {
      return await write();
    } catch (error) {
      if (this.def.duplicate && isUniqueViolation(error)) throw this.def.duplicate(values);
      throw error;
    }
  }
}
