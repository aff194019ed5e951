// Data access for groups. Lists filter, sort and page in SQL; visibility comes from the
// shared group walk of access/visibility.ts.
import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { Database, GroupTable } from '../storage/schema.ts';
import { visibleGroupIdsQuery } from '../access/visibility.ts';
import { keywordMatch, NO_LIMIT } from '../access/list-params.ts';
import type { GroupRow } from './group-json.ts';

export interface GroupListFilter {
  /** Groups seen by this user (links + 3 levels of children); absent = every group. */
  visibleTo?: number;
  keyword?: string;
  limit?: number;
  offset?: number;
  excludeAttributes?: boolean;
}

/** Longest parent chain we follow when looking for a cycle (protects against bad data). */
const MAX_CHAIN = 1000;

export class GroupsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async list(filter: GroupListFilter): Promise<GroupRow[]> {
    let query = this.db.selectFrom('groups').select(['groups.id', 'groups.name', 'groups.groupId']);
    if (!filter.excludeAttributes) query = query.select('groups.attributes');
    if (filter.visibleTo !== undefined) query = query.where('groups.id', 'in', visibleGroupIdsQuery(this.db, filter.visibleTo));
    if (filter.keyword) query = query.where(keywordMatch(['groups.name'], filter.keyword));
    // Case-insensitive name order, the same on every database collation.
    query = query.orderBy(sql`lower(${sql.ref('groups.name')})`).orderBy('groups.name').orderBy('groups.id');
    // SQLite needs a LIMIT before an OFFSET; "no limit" is spelled as the largest safe integer.
    if (filter.limit !== undefined || filter.offset) query = query.limit(filter.limit ?? NO_LIMIT);
    if (filter.offset) query = query.offset(filter.offset);
    const rows = await query.execute();
    return rows.map((r) => ({ attributes: '{}', ...r }));
  }

  findById(id: number): Promise<GroupRow | undefined> {
    return this.db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
  }

  insert(values: Insertable<GroupTable>): Promise<GroupRow> {
    return this.db.insertInto('groups').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, values: Updateable<GroupTable>): Promise<GroupRow | undefined> {
    return this.db.updateTable('groups').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** True when making `parentId` the parent of `groupId` would close a loop. */
  async wouldCycle(groupId: number, parentId: number): Promise<boolean> {
    let current: number | null = parentId;
    const seen = new Set<number>();
    for (let steps = 0; current !== null && steps < MAX_CHAIN; steps++) {
      if (current === groupId || seen.has(current)) return true;
      seen.add(current);
      const row: { groupId: number | null } | undefined = await this.db
        .selectFrom('groups')
        .select('groupId')
        .where('id', '=', current)
        .executeTakeFirst();
      current = row?.groupId ?? null;
    }
    return current !== null;
  }

  /**
   * Deletes a group after detaching what hangs from it: its devices and child groups lose
   * their group (the foreign keys would do it too; done explicitly so both databases agree
   * and the caller learns which devices changed). Returns the ids of the detached devices.
   */
  async delete(id: number): Promise<number[]> {
    return this.db.transaction().execute(async (trx) => {
      const devices = await trx.selectFrom('devices').select('id').where('groupId', '=', id).execute();
      await trx.updateTable('devices').set({ groupId: null }).where('groupId', '=', id).execute();
      await trx.updateTable('groups').set({ groupId: null }).where('groupId', '=', id).execute();
      await trx.deleteFrom('groups').where('id', '=', id).execute();
      return devices.map((d) => d.id);
    });
  }
}
