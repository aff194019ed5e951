// Which /api/permissions key links an object of each collection to its owner (tarkan-reference
// §3.13.19): `{<ownerKey>: ownerId, <propertyKey>: objectId}`.
import { LINKED_AREA_BITS } from '@rastro/domain/permissions';

export type OwnerKey = 'userId' | 'deviceId' | 'groupId';

export const LINKED_TYPES = {
  devices: 'deviceId',
  groups: 'groupId',
  geofences: 'geofenceId',
  notifications: 'notificationId',
  calendars: 'calendarId',
  attributes: 'attributeId',
  drivers: 'driverId',
  commands: 'commandId',
  maintenance: 'maintenanceId',
  users: 'managedUserId',
} as const;

export type LinkedType = keyof typeof LINKED_TYPES;

/** The advanced-permission area a link of this type needs (the server checks the same table). */
export const linkedAreaBit = (type: LinkedType): number => LINKED_AREA_BITS[LINKED_TYPES[type]]!;

export interface Owner {
  key: OwnerKey;
  id: number;
}

/** The body of one link: owner key first (the server reads the first key as the owner). */
export function linkBody(owner: Owner, type: LinkedType, objectId: number): Record<string, number> {
  return { [owner.key]: owner.id, [LINKED_TYPES[type]]: objectId };
}
