// What `/api/permissions` can link: one row per link table. A body `{"userId":1,"deviceId":2}`
// names its kind by its two keys (first = owner). Later features (geofences, notifications,
// drivers, calendars, commands, maintenance, computed attributes) add one OBJECT_KINDS entry
// for their object and one LINK_KINDS row per link table, here or with the register functions.
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import type { LinkTableName } from '../storage/schema.ts';
import type { UserRow } from '../users/user-json.ts';

/**
 * How a non-administrator may reach an object kind:
 * - `device` / `group`: the shared visibility (direct links and groups, 3 levels);
 * - `user`: the user themself or a user they manage (managers only);
 * - `{ userLink }`: directly linked to the caller in that link table (geofences, drivers...).
 */
export type Access = 'device' | 'group' | 'user' | { userLink: LinkTableName };

export interface ObjectKind {
  /** Table holding the objects (its `id` column is checked for existence). */
  table: string;
  /** Name used in messages. */
  label: string;
  access: Access;
}

export interface LinkKind {
  ownerKey: string;
  propertyKey: string;
  table: LinkTableName;
  /** OBJECT_KINDS keys of both sides. */
  owner: string;
  property: string;
  /** Only administrators and managers may change links of this kind. */
  managersOnly?: boolean;
}

export const OBJECT_KINDS: Record<string, ObjectKind> = {
  user: { table: 'users', label: 'user', access: 'user' },
  device: { table: 'devices', label: 'device', access: 'device' },
  group: { table: 'groups', label: 'group', access: 'group' },
  geofence: { table: 'geofences', label: 'geofence', access: { userLink: 'userGeofence' } },
  command: { table: 'commands', label: 'command', access: { userLink: 'userCommand' } },
};

export const LINK_KINDS: LinkKind[] = [
  { ownerKey: 'userId', propertyKey: 'deviceId', table: 'userDevice', owner: 'user', property: 'device' },
  { ownerKey: 'userId', propertyKey: 'groupId', table: 'userGroup', owner: 'user', property: 'group' },
  { ownerKey: 'userId', propertyKey: 'managedUserId', table: 'userUser', owner: 'user', property: 'user', managersOnly: true },
  { ownerKey: 'deviceId', propertyKey: 'linkedDeviceId', table: 'deviceDevice', owner: 'device', property: 'device' },
  { ownerKey: 'userId', propertyKey: 'geofenceId', table: 'userGeofence', owner: 'user', property: 'geofence' },
  { ownerKey: 'deviceId', propertyKey: 'geofenceId', table: 'deviceGeofence', owner: 'device', property: 'geofence' },
  { ownerKey: 'groupId', propertyKey: 'geofenceId', table: 'groupGeofence', owner: 'group', property: 'geofence' },
  { ownerKey: 'userId', propertyKey: 'commandId', table: 'userCommand', owner: 'user', property: 'command' },
  { ownerKey: 'deviceId', propertyKey: 'commandId', table: 'deviceCommand', owner: 'device', property: 'command' },
  { ownerKey: 'groupId', propertyKey: 'commandId', table: 'groupCommand', owner: 'group', property: 'command' },
];

export function registerObjectKind(name: string, kind: ObjectKind): void {
  OBJECT_KINDS[name] = kind;
}

/** Adds (or replaces) the link kind with the same key pair. */
export function registerLinkKind(kind: LinkKind): void {
  const i = LINK_KINDS.findIndex((k) => k.ownerKey === kind.ownerKey && k.propertyKey === kind.propertyKey);
  if (i >= 0) LINK_KINDS[i] = kind;
  else LINK_KINDS.push(kind);
}

export function findLinkKind(ownerKey: string, propertyKey: string): LinkKind | undefined {
  return LINK_KINDS.find((k) => k.ownerKey === ownerKey && k.propertyKey === propertyKey);
}

export function objectKind(name: string): ObjectKind {
  const kind = OBJECT_KINDS[name];
  if (!kind) throw new Error(`link kind refers to unknown object kind "${name}"`);
  return kind;
}

export async function objectExists(ctx: AppContext, kind: ObjectKind, id: number): Promise<boolean> {
  const result = await sql<{ id: number }>`select id from ${sql.table(kind.table)} where id = ${id}`.execute(ctx.storage.db);
  return result.rows.length > 0;
}

/** May `user` reach object `id` of this kind? (Administrators always may.) */
export async function canAccess(ctx: AppContext, user: UserRow, kind: ObjectKind, id: number): Promise<boolean> {
  if (user.administrator === 1) return true;
  const access = kind.access;
  if (access === 'device') return ctx.visibility.canSeeDevice(user, id);
  if (access === 'group') return ctx.visibility.canSeeGroup(user, id);
  if (access === 'user') return ctx.visibility.canManageUser(user, id);
  const result = await sql<{ ownerId: number }>`select ${sql.ref('ownerId')} from ${sql.table(access.userLink)}
    where ${sql.ref('ownerId')} = ${user.id} and ${sql.ref('propertyId')} = ${id}`.execute(ctx.storage.db);
  return result.rows.length > 0;
}
