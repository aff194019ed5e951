// Traccar's "extended" list flavour, shared by geofences and saved commands (and later
// notifications, drivers, computed attributes, maintenance): `all`, `userId`, `groupId`,
// `deviceId`, `keyword`, `limit`, `offset`, `excludeAttributes`. These objects are visible
// only through a direct link to the user; `groupId` / `deviceId` narrow to objects linked to
// that group / device (direct links, no group expansion), always within what the caller may
// list (an administrator's `all=true` lifts the user condition).
import { sql, type Expression, type SqlBool } from 'kysely';
import type { AppContext } from '../context.ts';
import type { LinkTableName } from '../storage/schema.ts';
import type { UserRow } from '../users/user-json.ts';
import { accessDenied } from '../http/errors.ts';
import { intParam, listParams, type Query } from './list-params.ts';

export interface ExtendedListFilter {
  /** Objects directly linked to this user; undefined = every row (administrator with all=true). */
  userId?: number;
  groupId?: number;
  deviceId?: number;
  keyword?: string;
  limit?: number;
  offset?: number;
  excludeAttributes: boolean;
}

/** Reads the parameters and checks the caller may use each of them. */
export async function extendedListFilter(ctx: AppContext, user: UserRow, query: Query): Promise<ExtendedListFilter> {
  const params = listParams(query);
  const groupId = intParam(query, 'groupId') || undefined;
  const deviceId = intParam(query, 'deviceId') || undefined;
  let userId: number | undefined = user.id;
  if (params.userId !== undefined) {
    if (!(await ctx.visibility.canManageUser(user, params.userId))) throw accessDenied.user();
    userId = params.userId;
  } else if (params.all && user.administrator === 1) {
    userId = undefined;
  }
  if (groupId !== undefined && !(await ctx.visibility.canSeeGroup(user, groupId))) throw accessDenied.group();
  if (deviceId !== undefined && !(await ctx.visibility.canSeeDevice(user, deviceId))) throw accessDenied.device();
  return {
    userId,
    groupId,
    deviceId,
    keyword: params.keyword,
    limit: params.limit,
    offset: params.offset,
    excludeAttributes: params.excludeAttributes,
  };
}

/** `<idColumn>` is linked to `ownerId` in `table` (a trusted link table and column reference). */
export function linkedTo(table: LinkTableName, ownerId: number, idColumn: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(idColumn)} in (select ${sql.ref('propertyId')} from ${sql.table(table)} where ${sql.ref('ownerId')} = ${ownerId})`;
}

/**
 * `<idColumn>` is linked to the device or to its group, parent group or grandparent group:
 * what applies to a device in processing (geofences, saved commands...), 3 levels like
 * Traccar's group walk.
 */
export function linkedToDeviceOrGroups(deviceTable: LinkTableName, groupTable: LinkTableName, deviceId: number, idColumn: string): Expression<SqlBool> {
  const id = sql.ref(idColumn);
  const owner = sql.ref('ownerId');
  const property = sql.ref('propertyId');
  return sql<SqlBool>`(${id} in (select ${property} from ${sql.table(deviceTable)} where ${owner} = ${deviceId})
    or ${id} in (select l.${property} from ${sql.table(groupTable)} l where l.${owner} in (
      select d.${sql.ref('groupId')} from ${sql.table('devices')} d where d.id = ${deviceId}
      union select g0.${sql.ref('groupId')} from ${sql.table('devices')} d join ${sql.table('groups')} g0 on g0.id = d.${sql.ref('groupId')} where d.id = ${deviceId}
      union select g1.${sql.ref('groupId')} from ${sql.table('devices')} d join ${sql.table('groups')} g0 on g0.id = d.${sql.ref('groupId')}
        join ${sql.table('groups')} g1 on g1.id = g0.${sql.ref('groupId')} where d.id = ${deviceId})))`;
}
