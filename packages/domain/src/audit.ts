// The audit log ("advanced logs", tarkan-reference §3.13.20 and §7.6): who did what, when,
// from where, with the values before and after. The server writes one row per login attempt
// and per write (apps/server/src/audit/); the log viewer reads them from
// `GET /api/server/logs`, `/api/users/:id/logs`, `/api/devices/:id/logs` (and the same under
// `/tarkan`). Codes below 900 keep Tarkan's numbers where Tarkan has one, so rows from either
// read the same; the codes Tarkan lacks (marked `rastro`) fill its gaps in the same ranges.

/** The kind of object a row is about (the viewer names it; Traccar's `objectType`). */
export const AUDIT_OBJECT_TYPES = [
  'user', 'device', 'geofence', 'driver', 'group', 'command', 'calendar', 'maintenance',
  'computedAttribute', 'notification', 'server',
] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

export interface AuditCodeInfo {
  /** Stable name of the action (the viewer's i18n key `logs.actions.<action>`). */
  action: string;
  /** What the row's objectType / objectId name. */
  objectType: AuditObjectType;
  /** Traccar's actionType for `GET /api/audit`. */
  traccarAction: string;
  /** Written by the server itself (rules, clean-up), never by a request. */
  system?: boolean;
  /** Not one of Tarkan's codes: added by Rastro so every write has a row. */
  rastro?: boolean;
}

/**
 * Every code. 101 is both "login attempt" and "user created", as Tarkan writes it: a login
 * row carries `data = {email}` only, a creation the new user (its `name` included, also when
 * refused); `auditActionOf` tells them apart. 901 / 902 name the link's owner as object (its
 * kind varies: user, device, group) and carry both keys in `data`.
 */
export const AUDIT_CODES = {
  101: { action: 'login', objectType: 'user', traccarAction: 'login' },
  102: { action: 'userDeleted', objectType: 'user', traccarAction: 'remove' },
  103: { action: 'logout', objectType: 'user', traccarAction: 'logout', rastro: true },
  104: { action: 'loginAs', objectType: 'user', traccarAction: 'login', rastro: true },
  105: { action: 'userEdited', objectType: 'user', traccarAction: 'edit' },
  106: { action: 'passwordChanged', objectType: 'user', traccarAction: 'edit', rastro: true },
  107: { action: 'passwordResetRequested', objectType: 'user', traccarAction: 'reset', rastro: true },
  108: { action: 'tokenIssued', objectType: 'user', traccarAction: 'token', rastro: true },
  109: { action: 'tokenRevoked', objectType: 'user', traccarAction: 'token', rastro: true },
  110: { action: 'shareCreated', objectType: 'user', traccarAction: 'create' },
  111: { action: 'shareEdited', objectType: 'user', traccarAction: 'edit' },
  112: { action: 'shareDeleted', objectType: 'user', traccarAction: 'remove' },
  120: { action: 'qrDriverUserCreated', objectType: 'user', traccarAction: 'create' },
  201: { action: 'commandSent', objectType: 'device', traccarAction: 'command' },
  202: { action: 'engineStopByGeofenceRule', objectType: 'device', traccarAction: 'command', system: true },
  203: { action: 'savedCommandCreated', objectType: 'command', traccarAction: 'create', rastro: true },
  204: { action: 'savedCommandEdited', objectType: 'command', traccarAction: 'edit', rastro: true },
  205: { action: 'savedCommandDeleted', objectType: 'command', traccarAction: 'remove', rastro: true },
  206: { action: 'commandCancelled', objectType: 'device', traccarAction: 'command', rastro: true },
  211: { action: 'lockByDriverRule', objectType: 'device', traccarAction: 'command', system: true },
  212: { action: 'unlockByDriverRule', objectType: 'device', traccarAction: 'command', system: true },
  301: { action: 'deviceSaved', objectType: 'device', traccarAction: 'edit' },
  302: { action: 'deviceDeleted', objectType: 'device', traccarAction: 'remove' },
  303: { action: 'accumulatorsEdited', objectType: 'device', traccarAction: 'accumulators', rastro: true },
  401: { action: 'geofenceCreated', objectType: 'geofence', traccarAction: 'create' },
  402: { action: 'geofenceDeleted', objectType: 'geofence', traccarAction: 'remove' },
  403: { action: 'geofenceEdited', objectType: 'geofence', traccarAction: 'edit', rastro: true },
  405: { action: 'anchorEnabled', objectType: 'device', traccarAction: 'create' },
  406: { action: 'anchorDisabled', objectType: 'device', traccarAction: 'remove' },
  510: { action: 'driverCreated', objectType: 'driver', traccarAction: 'create' },
  511: { action: 'driverEdited', objectType: 'driver', traccarAction: 'edit' },
  512: { action: 'driverDeleted', objectType: 'driver', traccarAction: 'remove', rastro: true },
  601: { action: 'groupCreated', objectType: 'group', traccarAction: 'create', rastro: true },
  602: { action: 'groupEdited', objectType: 'group', traccarAction: 'edit', rastro: true },
  603: { action: 'groupDeleted', objectType: 'group', traccarAction: 'remove', rastro: true },
  611: { action: 'calendarCreated', objectType: 'calendar', traccarAction: 'create', rastro: true },
  612: { action: 'calendarEdited', objectType: 'calendar', traccarAction: 'edit', rastro: true },
  613: { action: 'calendarDeleted', objectType: 'calendar', traccarAction: 'remove', rastro: true },
  621: { action: 'maintenanceCreated', objectType: 'maintenance', traccarAction: 'create', rastro: true },
  622: { action: 'maintenanceEdited', objectType: 'maintenance', traccarAction: 'edit', rastro: true },
  623: { action: 'maintenanceDeleted', objectType: 'maintenance', traccarAction: 'remove', rastro: true },
  631: { action: 'computedAttributeCreated', objectType: 'computedAttribute', traccarAction: 'create', rastro: true },
  632: { action: 'computedAttributeEdited', objectType: 'computedAttribute', traccarAction: 'edit', rastro: true },
  633: { action: 'computedAttributeDeleted', objectType: 'computedAttribute', traccarAction: 'remove', rastro: true },
  641: { action: 'notificationCreated', objectType: 'notification', traccarAction: 'create', rastro: true },
  642: { action: 'notificationEdited', objectType: 'notification', traccarAction: 'edit', rastro: true },
  643: { action: 'notificationDeleted', objectType: 'notification', traccarAction: 'remove', rastro: true },
  701: { action: 'serverEdited', objectType: 'server', traccarAction: 'edit', rastro: true },
  702: { action: 'serverRestarted', objectType: 'server', traccarAction: 'restart', rastro: true },
  901: { action: 'linked', objectType: 'user', traccarAction: 'link' },
  902: { action: 'unlinked', objectType: 'user', traccarAction: 'unlink' },
} as const satisfies Record<number, AuditCodeInfo>;

export type AuditCode = keyof typeof AUDIT_CODES;

export function isAuditCode(code: number): code is AuditCode {
  return Object.hasOwn(AUDIT_CODES, code);
}

export function auditCodeInfo(code: number): AuditCodeInfo | null {
  return isAuditCode(code) ? AUDIT_CODES[code] : null;
}

/** The `username` of rows the server writes on its own (Tarkan's marker; the viewer translates it). */
export const AUDIT_SYSTEM_USER = '!Sistema!';

/** What replaces a password, token or other secret in `data` / `old`. */
export const AUDIT_MASK = '***';

/** Rows per page of the log routes: `limit` defaults to this ... */
export const AUDIT_LIST_DEFAULT = 500;
/** ... and may not exceed this. */
export const AUDIT_LIST_MAX = 5000;

/** One row as the log routes answer it. */
export interface AuditRow {
  id: number;
  /** When it happened (ISO instant). */
  created_at: string;
  code: number;
  /** Who did it; null for failed logins and the server's own actions. */
  userId: number | null;
  /** The actor's e-mail as it was then (the attempted one for a failed login; AUDIT_SYSTEM_USER for the server). */
  username: string | null;
  userIp: string | null;
  userAgent: string | null;
  objectType: AuditObjectType | null;
  objectId: number | null;
  /** The new values (the object as saved; a link's two keys; a command's type and device). */
  data: Record<string, unknown> | null;
  /** The values before an edit or a delete. */
  old: Record<string, unknown> | null;
  /** HTTP status of the action (null for the server's own actions). */
  status: number | null;
}

/** The row's action name: 101 splits into `login` and `userCreated` (see AUDIT_CODES). */
export function auditActionOf(row: Pick<AuditRow, 'code' | 'data'>): string {
  if (row.code === 101 && row.data && 'name' in row.data) return 'userCreated';
  return auditCodeInfo(row.code)?.action ?? 'unknown';
}

/** Success as the viewer judges it (tarkan-reference §7.6: 200, 202 or 204; system rows always). */
export function auditSucceeded(row: Pick<AuditRow, 'status'>): boolean {
  return row.status === null || (row.status >= 200 && row.status < 300);
}

export interface AuditChange {
  /** Dotted path of the field: `name`, `attributes.speedLimit`. */
  field: string;
  before: unknown;
  after: unknown;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => sameValue(a[k], b[k]));
  }
  return false;
}

/**
 * The field-by-field difference of an edit: one entry per changed leaf, nested objects
 * (`attributes`) walked by key, arrays compared whole. A field missing on one side reads as
 * undefined. Sorted by field so the viewer's list is stable.
 */
export function auditDiff(old: Record<string, unknown> | null, data: Record<string, unknown> | null): AuditChange[] {
  const changes: AuditChange[] = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    if (isPlainObject(a) && isPlainObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[key], b[key], path ? `${path}.${key}` : key);
      return;
    }
    if (!sameValue(a, b)) changes.push({ field: path, before: a, after: b });
  };
  walk(old ?? {}, data ?? {}, '');
  return changes.sort((x, y) => (x.field < y.field ? -1 : x.field > y.field ? 1 : 0));
}
