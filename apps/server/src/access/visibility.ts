// Who may see which device and group: the one module REST, the socket and notifications
// share. A user sees what is linked to them directly, plus every group below a linked group
// (Traccar walks 3 levels: the group, its children, its grandchildren) and the devices in them.
// Administrators see everything.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { UserRow } from '../users/user-json.ts';

export const MAX_GROUP_DEPTH = 3;

export class Visibility {
  constructor(private readonly db: Kysely<Database>) {}

  /** Ids of groups the user sees (all groups for administrators). */
  async groupIds(user: UserRow): Promise<Set<number>> {
    if (user.administrator === 1) {
      const rows = await this.db.selectFrom('groups').select('id').execute();
      return new Set(rows.map((r) => r.id));
    }
    const direct = await this.db.selectFrom('userGroup').select('propertyId').where('ownerId', '=', user.id).execute();
    const result = new Set(direct.map((r) => Number(r.propertyId)));
    let frontier = [...result];
    for (let depth = 1; depth < MAX_GROUP_DEPTH && frontier.length > 0; depth++) {
      const children = await this.db.selectFrom('groups').select('id').where('groupId', 'in', frontier).execute();
      frontier = children.map((c) => c.id).filter((id) => !result.has(id));
      for (const id of frontier) result.add(id);
    }
    return result;
  }

  /** Ids of devices the user sees (all devices for administrators). */
  async deviceIds(user: UserRow): Promise<Set<number>> {
    if (user.administrator === 1) {
      const rows = await this.db.selectFrom('devices').select('id').execute();
      return new Set(rows.map((r) => r.id));
    }
    const direct = await this.db.selectFrom('userDevice').select('propertyId').where('ownerId', '=', user.id).execute();
    const result = new Set(direct.map((r) => Number(r.propertyId)));
    const groups = [...(await this.groupIds(user))];
    for (let i = 0; i < groups.length; i += 500) {
      const rows = await this.db.selectFrom('devices').select('id').where('groupId', 'in', groups.slice(i, i + 500)).execute();
      for (const r of rows) result.add(r.id);
    }
    return result;
  }

  async canSeeDevice(user: UserRow, deviceId: number): Promise<boolean> {
    if (user.administrator === 1) return true;
    return (await this.deviceIds(user)).has(deviceId);
  }

  async canSeeGroup(user: UserRow, groupId: number): Promise<boolean> {
    if (user.administrator === 1) return true;
    return (await this.groupIds(user)).has(groupId);
  }

  /** Users who see a device: the audience of its socket messages. */
  async usersOfDevice(deviceId: number): Promise<Set<number>> {
    const result = new Set<number>();
    const admins = await this.db.selectFrom('users').select('id').where('administrator', '=', 1).execute();
    for (const a of admins) result.add(a.id);
    const direct = await this.db.selectFrom('userDevice').select('ownerId').where('propertyId', '=', deviceId).execute();
    for (const d of direct) result.add(Number(d.ownerId));
    const device = await this.db.selectFrom('devices').select('groupId').where('id', '=', deviceId).executeTakeFirst();
    // Walk up to 3 ancestor groups; users linked to any of them see the device.
    let groupId = device?.groupId ?? null;
    for (let depth = 0; depth < MAX_GROUP_DEPTH && groupId !== null; depth++) {
      const linked = await this.db.selectFrom('userGroup').select('ownerId').where('propertyId', '=', groupId).execute();
      for (const l of linked) result.add(Number(l.ownerId));
      const parent = await this.db.selectFrom('groups').select('groupId').where('id', '=', groupId).executeTakeFirst();
      groupId = parent?.groupId ?? null;
    }
    return result;
  }
}
