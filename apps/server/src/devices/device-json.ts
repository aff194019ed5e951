// Row -> API JSON for devices (REST answers and live pushes share it). The persisted motion /
// overspeed state of the processing pipeline is internal and never leaves the server. No group
// or calendar is stored as NULL and sent as 0, as Traccar sends it (its clients test `groupId`
// against 0, and the OpenAPI types both as integers).
import type { Device, DeviceStatus } from '@rastro/domain/entities';
import type { Selectable } from 'kysely';
import type { DeviceTable } from '../storage/schema.ts';
import { parseAttributes, toBool, toIso } from '../http/json.ts';

export type DeviceRow = Selectable<DeviceTable>;

/** The columns `deviceToJson` reads; lists select only these (no motion/overspeed state). */
export const DEVICE_JSON_COLUMNS = [
  'id', 'name', 'uniqueId', 'status', 'disabled', 'lastUpdate', 'positionId', 'groupId', 'calendarId',
  'phone', 'model', 'contact', 'category', 'expirationTime', 'attributes',
] as const;

export type DeviceJsonRow = Pick<DeviceRow, (typeof DEVICE_JSON_COLUMNS)[number]>;

const STATUSES: readonly string[] = ['online', 'offline', 'unknown'] satisfies DeviceStatus[];

export function deviceToJson(row: DeviceJsonRow): Device {
  return {
    id: row.id,
    name: row.name,
    uniqueId: row.uniqueId,
    // Traccar stores null for devices that never connected and shows them as offline.
    status: row.status !== null && STATUSES.includes(row.status) ? (row.status as DeviceStatus) : 'offline',
    disabled: toBool(row.disabled),
    lastUpdate: toIso(row.lastUpdate, 'device.lastUpdate', row.id),
    positionId: row.positionId,
    groupId: row.groupId ?? 0,
    calendarId: row.calendarId ?? 0,
    phone: row.phone,
    model: row.model,
    contact: row.contact,
    category: row.category,
    expirationTime: toIso(row.expirationTime, 'device.expirationTime', row.id),
    attributes: parseAttributes(row.attributes, 'device.attributes', row.id),
  };
}
