// Data access for saved commands: lists (extended flavour), CRUD, and the saved commands a
// user may send to one device.
import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import type { CommandTable, Database } from '../storage/schema.ts';
import { keywordMatch, NO_LIMIT } from '../access/list-params.ts';
import { linkedTo, linkedToDeviceOrGroups, type ExtendedListFilter } from '../access/extended-list.ts';
import type { CommandRow } from './command-json.ts';

export class CommandsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async list(filter: ExtendedListFilter): Promise<CommandRow[]> {
    let query = this.db.selectFrom('commands').select(['commands.id', 'commands.description', 'commands.type', 'commands.textChannel']);
    if (!filter.excludeAttributes) query = query.select('commands.attributes');
    if (filter.userId !== undefined) query = query.where(linkedTo('userCommand', filter.userId, 'commands.id'));
    if (filter.groupId !== undefined) query = query.where(linkedTo('groupCommand', filter.groupId, 'commands.id'));
    if (filter.deviceId !== undefined) query = query.where(linkedTo('deviceCommand', filter.deviceId, 'commands.id'));
    if (filter.keyword) query = query.where(keywordMatch(['commands.description'], filter.keyword));
    query = query
      .orderBy(sql`lower(coalesce(${sql.ref('commands.description')}, ''))`)
      .orderBy('commands.description')
      .orderBy('commands.id');
    if (filter.limit !== undefined || filter.offset) query = query.limit(filter.limit ?? NO_LIMIT);
    if (filter.offset) query = query.offset(filter.offset);
    const rows = await query.execute();
    return rows.map((r) => ({ attributes: '{}', ...r }));
  }

  findById(id: number): Promise<CommandRow | undefined> {
    return this.db.selectFrom('commands').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async isLinkedToUser(userId: number, id: number): Promise<boolean> {
    const row = await this.db.selectFrom('userCommand').select('ownerId').where('ownerId', '=', userId).where('propertyId', '=', id).executeTakeFirst();
    return row !== undefined;
  }

  insert(values: Insertable<CommandTable>): Promise<CommandRow> {
    return this.db.insertInto('commands').values(values).returningAll().executeTakeFirstOrThrow();
  }

  update(id: number, values: Updateable<CommandTable>): Promise<CommandRow | undefined> {
    return this.db.updateTable('commands').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('commands').where('id', '=', id).execute();
  }

  /**
   * Saved commands linked to the user AND to the device or one of its groups (3 levels), as
   * Traccar's `GET /api/commands/send?deviceId=` (administrators too need the user link).
   */
  forUserAndDevice(userId: number, deviceId: number): Promise<CommandRow[]> {
    return this.db
      .selectFrom('commands')
      .selectAll()
      .where(linkedTo('userCommand', userId, 'commands.id'))
      .where(linkedToDeviceOrGroups('deviceCommand', 'groupCommand', deviceId, 'commands.id'))
      .orderBy(sql`lower(coalesce(${sql.ref('commands.description')}, ''))`)
      .orderBy('commands.id')
      .execute();
  }
}
