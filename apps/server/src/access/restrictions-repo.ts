// Who set the current restriction of a device or user (migration 007; the rule is in
// restriction-rules.ts). `db` may be a transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { UserRow } from '../users/user-json.ts';
import { isManagerOf } from '../users/user-access.ts';
import { isRestricted, restrictionChanged, type RestrictionState, type Setter } from './restriction-rules.ts';

export type RestrictionTableName = 'deviceRestrictions' | 'userRestrictions';

export class RestrictionsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Who set the object's restriction, seen from `caller`; null when nobody is on record or that user is gone. */
  async setterFor(table: RestrictionTableName, objectId: number, caller: UserRow): Promise<Setter | null> {
    const record = await this.db.selectFrom(table).select('restrictedBy').where('objectId', '=', objectId).executeTakeFirst();
    if (!record) return null;
    const id = Number(record.restrictedBy);
    const setter = await this.db.selectFrom('users').select('administrator').where('id', '=', id).executeTakeFirst();
    if (!setter) return null;
    return { id, administrator: setter.administrator === 1, managesCaller: await isManagerOf(this.db, id, caller.id) };
  }

  /**
   * The setter whose leave a change from `before` to `after` may need: looked up only when the
   * change touches an existing restriction (`objectId` null = an object being created).
   */
  setterForChange(table: RestrictionTableName, objectId: number | null, before: RestrictionState, after: RestrictionState, caller: UserRow): Promise<Setter | null> {
    if (objectId === null || !restrictionChanged(before, after) || !isRestricted(before)) return Promise.resolve(null);
    return this.setterFor(table, objectId, caller);
  }

  /** Records who owns the object's restriction now: null = none; undefined leaves the record alone. */
  async record(table: RestrictionTableName, objectId: number, restrictedBy: number | null | undefined): Promise<void> {
    if (restrictedBy === undefined) return;
    if (restrictedBy === null) {
      await this.db.deleteFrom(table).where('objectId', '=', objectId).execute();
      return;
    }
    await this.db
      .insertInto(table)
      .values({ objectId, restrictedBy })
      .onConflict((oc) => oc.column('objectId').doUpdateSet({ restrictedBy }))
      .execute();
  }
}
