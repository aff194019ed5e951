// Who may see which device and group: the one module REST, the socket and notifications
// share. A user sees what is linked to them directly, plus every group below a linked group
// (Traccar walks 3 levels: the group, its children, its grandchildren) and the devices in them.
// A manager (userLimit != 0) also sees, the same way, what is linked to every user of its
// tree at any depth (user-tree.ts; Traccar's managers see only their own links).
// Administrators see everything. Lazily deleted devices (`deleted-<x>-<y>`) are seen by nobody.
//
// Each answer is one SQL statement (the group walk is spelled out as a union of joins rather
// than a loop of queries), so the cost does not grow with the depth or the number of groups.
// The `*IdsQuery` builders are exported for repositories that filter, sort and page in SQL.
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { UserRow } from '../users/user-json.ts';
import { canManageUser } from '../users/user-access.ts';
import { linkOwnerIdsQuery } from './user-tree.ts';

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

/**
 * Users below `viewerId` whose links it sees through: its whole tree when it is a manager
 * (userLimit != 0), nobody otherwise. The manager test is a condition of its own rather than
 * a join, so PostgreSQL runs it once before the branch (a one-time filter) and skips the
 * branch for the many users who manage no one. Kept apart from the viewer's own links
 * (below, `ownerId = viewer`) so each branch is planned for its real size: merged into one
 * `ownerId IN (viewer ∪ tree)`, the planner sized every viewer's set like an average tree
 * (hundreds of users) and scanned every link and device table whole, even for a customer
 * with a few vehicles (bench/users.ts on PostgreSQL, 200,000 devices: a customer's device
 * list took ~55 ms instead of ~4 ms).
 */
function managedTreeIdsQuery(db: Db, viewerId: number) {
  return db
    .selectFrom('userTree')
    .select('userTree.descendantId as id')
    .where('userTree.ancestorId', '=', viewerId)
    .where((eb) => eb.exists(eb.selectFrom('users as viewer').select('viewer.id').where('viewer.id', '=', viewerId).where('viewer.userLimit', '!=', 0)));
}

/** Ids of the groups linked to `viewerId` or, for a manager, to a user of its tree. */
function linkedGroupIdsQuery(db: Db, viewerId: number) {
  const own = db.selectFrom('userGroup').select('userGroup.propertyId as id').where('userGroup.ownerId', '=', viewerId);
  const tree = db.selectFrom('userGroup').select('userGroup.propertyId as id').where('userGroup.ownerId', 'in', managedTreeIdsQuery(db, viewerId));
  return own.union(tree);
}

/** Ids of the devices linked directly to `viewerId` or, for a manager, to a user of its tree. */
function linkedDeviceIdsQuery(db: Db, viewerId: number) {
  const own = db.selectFrom('userDevice').select('userDevice.propertyId as id').where('userDevice.ownerId', '=', viewerId);
  const tree = db.selectFrom('userDevice').select('userDevice.propertyId as id').where('userDevice.ownerId', 'in', managedTreeIdsQuery(db, viewerId));
  return own.union(tree);
}

/** Ids of the groups a user sees through links, theirs and their tree's (no administrator shortcut). */
export function visibleGroupIdsQuery(db: Db, userId: number) {
  const direct = linkedGroupIdsQuery(db, userId);
  const children = db.selectFrom('groups as g1').select('g1.id as id').where('g1.groupId', 'in', linkedGroupIdsQuery(db, userId));
  const grandchildren = db
    .selectFrom('groups as g2')
    .innerJoin('groups as g1', 'g1.id', 'g2.groupId')
    .select('g2.id as id')
    .where('g1.groupId', 'in', linkedGroupIdsQuery(db, userId));
  return direct.union(children).union(grandchildren);
}

/** Ids of the devices a user sees through links (theirs and their tree's): direct ones and those in visible groups. */
export function visibleDeviceIdsQuery(db: Db, userId: number) {
  const grouped = db
    .selectFrom('devices as gd')
    .select('gd.id as id')
    .where('gd.groupId', 'in', visibleGroupIdsQuery(db, userId));
  return linkedDeviceIdsQuery(db, userId).union(grouped);
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
            this.db
              .selectFrom('userDevice')
              .select('ownerId')
              .where('ownerId', 'in', linkOwnerIdsQuery(this.db, user.id))
              .where('propertyId', '=', deviceId),
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
   * feature's rule: the user themself, an administrator, or a manager with that user in its tree.
   */
  canManageUser(caller: UserRow, userId: number): Promise<boolean> {
    return canManageUser(this.db, caller, userId);
  }

  /**
   * Users who see a device: the audience of its socket messages. Administrators, the users
   * linked to it directly or through its group and up to two ancestors, and every manager who
   * has one of those in its tree.
   */
  async usersOfDevice(deviceId: number): Promise<Set<number>> {
    const db = this.db;
    const admins = db.selectFrom('users').select('users.id as id').where('users.administrator', '=', 1);
    const direct = db.selectFrom('userDevice').select('userDevice.ownerId as id').where('userDevice.propertyId', '=', deviceId);
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
    const linked = direct.union(level0).union(level1).union(level2);
    const managers = db
      .selectFrom('userTree as t')
      .innerJoin('users as m', 'm.id', 't.ancestorId')
      .select('t.ancestorId as id')
      .where('m.userLimit', '!=', 0)
      .where('t.descendantId', 'in', linked);
    const rows = await admins.union(direct).union(level0).union(level1).union(level2).union(managers).execute();
    return new Set(rows.map((r) => Number(r.id)));
  }
}
