// Spec §6 permissions: the ordered check and the 128-bit `tarkan.advancedPerms` flags.
// Both the client (which menus and buttons exist) and the server use this one module.

/** Area bits of spec §6 and the action bits after them (tarkan-reference §5.1). */
export const PERMISSION_BITS = {
  selfEdit: 0,
  devices: 8,
  devicesAnchor: 9,
  devicesLock: 10,
  devicesUnlock: 11,
  devicesCommand: 12,
  devicesCreate: 13,
  devicesEdit: 14,
  devicesDelete: 15,
  users: 16,
  usersCreate: 17,
  usersEdit: 18,
  usersDelete: 19,
  share: 24,
  shareCreate: 25,
  shareEdit: 26,
  shareDelete: 27,
  notifications: 32,
  notificationsCreate: 33,
  notificationsEdit: 34,
  notificationsDelete: 35,
  events: 36,
  eventsCreate: 37,
  eventsEdit: 38,
  eventsDelete: 39,
  geofences: 40,
  geofencesCreate: 41,
  geofencesEdit: 42,
  geofencesDelete: 43,
  groups: 48,
  groupsCreate: 49,
  groupsEdit: 50,
  groupsDelete: 51,
  commands: 56,
  commandsCreate: 57,
  commandsEdit: 58,
  commandsDelete: 59,
  computedAttributes: 64,
  computedAttributesCreate: 65,
  computedAttributesEdit: 66,
  computedAttributesDelete: 67,
  reports: 72,
  reportsRoute: 73,
  reportsStops: 74,
  reportsTrips: 75,
  reportsEvents: 76,
  drivers: 80,
  driversCreate: 81,
  driversEdit: 82,
  driversDelete: 83,
  calendars: 88,
  calendarsCreate: 89,
  calendarsEdit: 90,
  calendarsDelete: 91,
  maintenance: 96,
  maintenanceCreate: 97,
  maintenanceEdit: 98,
  maintenanceDelete: 99,
  // Tarkan 1.7.0's (disabled) reseller bits, kept so stored flags decode the same; resellers
  // are user attributes here (resellers.ts) and these bits grant nothing.
  reseller: 104,
  subReseller: 105,
} as const;

export type PermissionName = keyof typeof PERMISSION_BITS;

/**
 * The area bit of what an `/api/permissions` link connects, by the link's second (property)
 * key: linking a geofence needs the geofences area, and so on. The server enforces it on the
 * link routes; the client offers a link shortcut only when it passes.
 */
export const LINKED_AREA_BITS: Readonly<Record<string, number>> = {
  deviceId: PERMISSION_BITS.devices,
  linkedDeviceId: PERMISSION_BITS.devices,
  groupId: PERMISSION_BITS.groups,
  managedUserId: PERMISSION_BITS.users,
  geofenceId: PERMISSION_BITS.geofences,
  commandId: PERMISSION_BITS.commands,
  notificationId: PERMISSION_BITS.notifications,
  calendarId: PERMISSION_BITS.calendars,
  driverId: PERMISSION_BITS.drivers,
  maintenanceId: PERMISSION_BITS.maintenance,
  attributeId: PERMISSION_BITS.computedAttributes,
};

const HEX = /^[0-9a-fA-F]{32}$/;

/** 32 hex characters → 128 flags; index 0 is the most significant bit of the first character. */
export function decodeAdvancedPerms(value: unknown): boolean[] | null {
  if (typeof value !== 'string' || !HEX.test(value)) return null;
  const flags: boolean[] = [];
  for (const ch of value) {
    const nibble = parseInt(ch, 16);
    for (let bit = 3; bit >= 0; bit--) flags.push(((nibble >> bit) & 1) === 1);
  }
  return flags;
}

/** 128 flags (missing ones count as off) → 32 upper-case hex characters. */
export function encodeAdvancedPerms(flags: readonly boolean[]): string {
  let out = '';
  for (let i = 0; i < 128; i += 4) {
    let nibble = 0;
    for (let j = 0; j < 4; j++) nibble = (nibble << 1) | (flags[i + j] ? 1 : 0);
    out += nibble.toString(16).toUpperCase();
  }
  return out;
}

export interface PermissionSubject {
  administrator?: boolean;
  attributes?: Record<string, unknown>;
}

export interface PermissionServer {
  /** Licence mode from the `licensemode` header. */
  plus: boolean;
  attributes?: Record<string, unknown>;
}

const truthy = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';

export const isSharedUser = (u: PermissionSubject): boolean =>
  u.attributes?.isShared !== undefined && u.attributes?.isShared !== null && u.attributes?.isShared !== false;

export const isQrDriver = (u: PermissionSubject): boolean =>
  u.attributes?.['tarkan.isQrDriverId'] !== undefined && u.attributes?.['tarkan.isQrDriverId'] !== null &&
  u.attributes?.['tarkan.isQrDriverId'] !== '';

/**
 * Spec §6, in order: administrators pass; QR drivers never; without the plus licence everyone
 * passes; when advanced permissions are not in effect for this user (server switch off, or the
 * user has no flags) a non-shared user passes; otherwise the bit decides (a shared user without
 * flags is therefore denied).
 */
export function hasPermission(user: PermissionSubject, server: PermissionServer, bit: number): boolean {
  if (user.administrator) return true;
  if (isQrDriver(user)) return false;
  if (!server.plus) return true;
  const enabled = truthy(server.attributes?.['tarkan.enableAdvancedPerms']);
  const flags = enabled ? decodeAdvancedPerms(user.attributes?.['tarkan.advancedPerms']) : null;
  if (!flags) return !isSharedUser(user);
  return flags[bit] === true;
}
