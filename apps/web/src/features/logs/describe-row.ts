// A log row as a sentence in the user's language (tarkan-reference §3.13.20): what was done,
// to what (the object's name as saved, else a name the session knows, else its id), whether the
// server refused it, and for edits the field-by-field changes of `old` → `data`.
import {
  AUDIT_SYSTEM_USER, auditActionOf, auditDiff, auditSucceeded, type AuditChange, type AuditObjectType, type AuditRow,
} from '@rastro/domain/audit';
import type { TFunction } from '../../i18n/translator.ts';

/** A name for an object the row only gives by id (the session's devices), or null. */
export type NameOf = (type: AuditObjectType, id: number) => string | null;

export interface Described {
  text: string;
  changes: AuditChange[];
  /** The server refused the action (HTTP status 300 and up). */
  failed: boolean;
}

/** The keys of a link body (POST /api/permissions) and what they name. */
const LINK_KEYS: Record<string, AuditObjectType> = {
  userId: 'user', deviceId: 'device', groupId: 'group', managedUserId: 'user', geofenceId: 'geofence', notificationId: 'notification',
  calendarId: 'calendar', attributeId: 'computedAttribute', driverId: 'driver', commandId: 'command', maintenanceId: 'maintenance',
};
/** The owner side of a link, in Traccar's order of precedence. */
const OWNER_KEYS = ['userId', 'deviceId', 'groupId'];

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

function objectName(row: AuditRow, nameOf: NameOf): string {
  const own = text(row.data?.name) ?? text(row.old?.name) ?? text(row.data?.email) ?? text(row.old?.email) ?? text(row.data?.description) ?? text(row.old?.description);
  if (own) return own;
  if (row.objectType && row.objectId !== null) return nameOf(row.objectType, row.objectId) ?? `#${row.objectId}`;
  return row.objectId !== null ? `#${row.objectId}` : '';
}

function linkSides(row: AuditRow, t: TFunction, nameOf: NameOf): { owner: string; object: string } {
  const keys = Object.keys(row.data ?? {}).filter((k) => k in LINK_KEYS && typeof row.data![k] === 'number');
  const ownerKey = OWNER_KEYS.find((k) => keys.includes(k)) ?? keys[0];
  const objectKey = keys.find((k) => k !== ownerKey);
  const side = (key: string | undefined) => {
    if (!key) return '?';
    const type = LINK_KEYS[key]!;
    const id = row.data![key] as number;
    return `${t(`logs.objects.${type}`)} ${nameOf(type, id) ?? `#${id}`}`;
  };
  return { owner: side(ownerKey), object: side(objectKey) };
}

/** The action's text key: Tarkan's 101 and 301 each cover two cases, a failed login reads differently. */
function actionKey(row: AuditRow): string {
  const action = auditActionOf(row);
  if (action === 'login') return auditSucceeded(row) ? 'login' : 'loginFailed';
  if (action === 'deviceSaved') return row.old ? 'deviceEdited' : 'deviceCreated';
  return action;
}

export function describeRow(row: AuditRow, t: TFunction, nameOf: NameOf): Described {
  const key = actionKey(row);
  const values: Record<string, string | number> = {
    name: objectName(row, nameOf),
    code: row.code,
    email: text(row.data?.email) ?? row.username ?? '',
    command: text(row.data?.description) ?? text(row.data?.['tarkan.changeNative']) ?? text(row.data?.type) ?? '',
  };
  if (key === 'linked' || key === 'unlinked') Object.assign(values, linkSides(row, t, nameOf));
  const sentence = t(`logs.actions.${key}`, { ...values, defaultValue: t('logs.actions.unknown', values) });
  const changes = row.old && row.data ? auditDiff(row.old, row.data) : [];
  return { text: sentence, changes, failed: !auditSucceeded(row) };
}

/** Who did it, as the viewer shows it ("System" for the server's own rows). */
export function actorName(row: AuditRow, t: TFunction): string {
  if (row.username === AUDIT_SYSTEM_USER || row.username === '!!!SYSTEM!!!') return t('logs.system');
  return row.username ?? (row.userId !== null ? `#${row.userId}` : '—');
}

/** A value of the changes list: empty values named, objects as JSON (shortened). */
export function changeValue(value: unknown, t: TFunction): string {
  if (value === undefined || value === null || value === '') return t('logs.diff.empty');
  if (typeof value === 'boolean') return t(value ? 'collection.yes' : 'collection.no');
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  const json = JSON.stringify(value);
  return json.length > 120 ? `${json.slice(0, 117)}…` : json;
}
