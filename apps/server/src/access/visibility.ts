// Who may see which device and group: the one module REST, the socket and notifications
// share. A user sees what is linked to them directly, plus every group below a linked group
// (Traccar walks 3 levels: the group, its children, its grandchildren) and the devices in them.
// Administrators see everything. Lazily deleted devices (`deleted-<x>-<y>`) are seen by nobody.
//
// Each answer is one SQL statement (the group walk is spelled out as a union of joins rather
// than a loop of queries), so the cost does not grow with the depth or the number of groups.
// The `*IdsQuery` builders are exported for repositories that filter, sort and page in SQL.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { UserRow } from '../users/user-json.ts';
import { canManageUser } from '../users/user-access.ts';

export const MAX_GROUP_DEPTH = 3;

type Db = Kysely<Database>;

/**
 * True for devices that are not lazily deleted. Safe-mode deletion renames the uniqueId to
 * `deleted-<uniqueId>-<unix seconds>`; such devices keep their history but are hidden.
 * `column` must be a trusted column reference such as `devices.uniqueId`.
 */
export function notDeletedDevice(column = 'uniqueId'): Expression<SqlBool> {
  const ref = sql.ref(column);
  // substr + LIKE on the dash only: the same answer on SQLite (case-insensitive LIKE) and PostgreSQL.
  return sql<SqlBool>`not (substr(${ref}, 1, 8) = 'deleted-' and substr(${ref}, 9) like '%-%')`;
}

/** The form a lazily deleted device's uniqueId takes (the client hides these too). */
export function isDeletedUniqueId(uniqueId: string): boolean {
  return uniqueId.startsWith('deleted-') && uniqueId.slice(8).includes('-');
}

/** Ids of the groups a user sees through links (no administrator shortcut). */
export function visibleGroupIdsQuery(db: Db, userId: number) {
  const direct = db.selectFrom('userGroup').select('userGroup.propertyId as id').where('userGroup.ownerId', '=', userId);
  const children = db
    .selectFrom('groups as g1')
    .innerJoin('userGroup as ug', 'ug.propertyId', 'g1.groupId')
    .select('g1.id as id')
    .where('ug.ownerId', '=', userId);
  const grandchildren = db
    .selectFrom('groups as g2')
    .innerJoin('groups as g1', 'g1.id', 'g2.groupId')
    .innerJoin('userGroup as ug', 'ug.propertyId', 'g1.groupId')
    .select('g2.id as id')
    .where('ug.ownerId', '=', userId);
  return direct.union(children).union(grandchildren);
}

/** Ids of the devices a user sees through links: direct ones and those in visible groups. */
export function visibleDeviceIdsQuery(db: Db, userId: number) {
  const direct = db.selectFrom('userDevice').select('userDevice.propertyId as id').where('userDevice.ownerId', '=', userId);
  const grouped = db
    .selectFrom('devices as gd')
    .select('gd.id as id')
    .where('gd.groupId', 'in', visibleGroupIdsQuery(db, userId));
  return direct.union(grouped);
}

/** Number of (not deleted) devices a user sees through links (`db` may be a transaction). */
export async function countVisibleDevices(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(notDeletedDevice('devices.uniqueId'))
    .where('devices.id', 'in', visibleDeviceIdsQuery(db, userId))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export class Visibility {
  constructor(private readonly db: Kysely<Database>) {}

  /** Ids of groups the user sees (all groups for administrators). */
  async groupIds(user: UserRow): Promise<Set<number>> {
    if (user.administrator === 1) {
      const rows = await this.db.selectFrom('groups').select('id').execute();
      return new Set(rows.map((r) => r.id));
    }
    const rows = await visibleGroupIdsQuery(this.db, user.id).execute();
    return new Set(rows.map((r) => Number(r.id)));
  }

  /** Ids of devices the user sees (all devices for administrators); never lazily deleted ones. */
  async deviceIds(user: UserRow): Promise<Set<number>> {
    let query = this.db.selectFrom('devices').select('id').where(notDeletedDevice('devices.uniqueId'));
    if (user.administrator !== 1) query = query.where('devices.id', 'in', visibleDeviceIdsQuery(this.db, user.id));
    const rows = await query.execute();
    return new Set(rows.map((r) => r.id));
  }

  async canSeeDevice(user: UserRow, deviceId: number): Promise<boolean> {
    if (user.administrator === 1) return true;
    const row = await this.db
      .selectFrom('devices')
      .select('id')
      .where('devices.id', '=', deviceId)
      .where(notDeletedDevice('devices.uniqueId'))
      // One device: test its direct link and its group instead of building the whole visible set.
      .where((eb) =>
        eb.or([
          eb.exists(
            this.db.selectFrom('userDevice').select('ownerId').where('ownerId', '=', user.id).where('propertyId', '=', deviceId),
          ),
          eb('devices.groupId', 'in', visibleGroupIdsQuery(this.db, user.id)),
        ]),
      )
      .executeTakeFirst();
    return row !== undefined;
  }

  async canSeeGroup(user: UserRow, groupId: number): Promise<boolean> {
    if (user.administrator === 1) return true;
    const row = await this.db
      .selectFrom('groups')
      .select('id')
      .where('groups.id', '=', groupId)
      .where('groups.id', 'in', visibleGroupIdsQuery(this.db, user.id))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Number of (not deleted) devices a user sees through links: what `deviceLimit` counts. */
  countDevices(userId: number): Promise<number> {
    return countVisibleDevices(this.db, userId);
  }

  /**
   * May `caller` act on user `userId` (list their objects, link things to them)? The users
   * feature's rule: the user themself, an administrator, or a manager who manages that user.
   */
  canManageUser(caller: UserRow, userId: number): Promise<boolean> {
    return canManageUser(this.db, caller, userId);
  }

  /** Users who see a device: the audience of its socket messages. */
  async usersOfDevice(deviceId: number): Promise<Set<number>> {
    const db = this.db;
    const admins = db.selectFrom('users').select('users.id as id').where('users.administrator', '=', 1);
    const direct = db.selectFrom('userDevice').select('userDevice.ownerId as id').where('userDevice.propertyId', '=', deviceId);
    // The device's group and up to two ancestors: users linked to any of them see the device.
    const level0 = db
      .selectFrom('devices as d')
      .innerJoin('userGroup as ug', 'ug.propertyId', 'd.groupId')
      .select('ug.ownerId as id')
      .where('d.id', '=', deviceId);
    const level1 = db
      .selectFrom('devices as d')
      .innerJoin('groups as g0', 'g0.id', 'd.groupId')
      .innerJoin('userGroup as ug', 'ug.propertyId', 'g0.groupId')
      .select('ug.ownerId as id')
      .where('d.id', '=', deviceId);
    const level2 = db
      .selectFrom('devices as d')
      .innerJoin('groups as g0', 'g0.id', 'd.groupId')
      .innerJoin('groups as g1', 'g1.id', 'g0.groupId')
      .innerJoin('userGroup as ug', 'ug.propertyId', 'g1.groupId')
      .select('ug.ownerId as id')
      .where('d.id', '=', deviceId);
    const rows = await admins.union(direct).union(level0).union(level1).union(level2).execute();
    return new Set(rows.map((r) => Number(r.id)));
  }
}
