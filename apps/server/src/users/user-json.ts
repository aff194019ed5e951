// Row <-> API JSON for users. The password never leaves the server.
import type { User } from '@rastro/domain/entities';
import type { Selectable } from 'kysely';
import type { UserTable } from '../storage/schema.ts';
import { parseAttributes, toBool, toIso } from '../http/json.ts';

export type UserRow = Selectable<UserTable>;

export function userToJson(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    // Always sent, null when the user has none, as Traccar does.
    login: row.login || null,
    email: row.email,
    phone: row.phone,
    readonly: toBool(row.readonly),
    administrator: toBool(row.administrator),
    map: row.map,
    latitude: row.latitude,
    longitude: row.longitude,
    zoom: row.zoom,
    twelveHourFormat: toBool(row.twelveHourFormat),
    coordinateFormat: row.coordinateFormat,
    disabled: toBool(row.disabled),
    expirationTime: toIso(row.expirationTime, 'user.expirationTime', row.id),
    deviceLimit: row.deviceLimit,
    userLimit: row.userLimit,
    deviceReadonly: toBool(row.deviceReadonly),
    limitCommands: toBool(row.limitCommands),
    disableReports: toBool(row.disableReports),
    fixedEmail: toBool(row.fixedEmail),
    poiLayer: row.poiLayer,
    temporary: toBool(row.temporary),
    totpKey: null,
    password: null,
    attributes: parseAttributes(row.attributes, 'user.attributes', row.id),
  };
}

export const isAdmin = (u: UserRow): boolean => u.administrator === 1;
/** Traccar's manager: any non-zero userLimit (-1 = unlimited). */
export const isManager = (u: UserRow): boolean => u.administrator === 1 || u.userLimit !== 0;
