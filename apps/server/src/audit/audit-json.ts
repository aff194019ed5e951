// Audit rows as the API answers them: the log routes' shape (@rastro/domain/audit AuditRow,
// Tarkan's field names) and Traccar's `Action` for `GET /api/audit`.
import { AUDIT_OBJECT_TYPES, auditActionOf, auditCodeInfo, type AuditObjectType, type AuditRow } from '@rastro/domain/audit';
import { toIso } from '../http/json.ts';
import type { AuditLogRow } from './audit-repo.ts';

function parseObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const objectTypeOf = (text: string | null): AuditObjectType | null =>
  (AUDIT_OBJECT_TYPES as readonly string[]).includes(text ?? '') ? (text as AuditObjectType) : null;

export function auditToJson(row: AuditLogRow): AuditRow {
  return {
    id: Number(row.id),
    created_at: toIso(row.time),
    code: row.code,
    userId: row.userId === null ? null : Number(row.userId),
    username: row.userName,
    userIp: row.userIp,
    userAgent: row.userAgent,
    objectType: objectTypeOf(row.objectType),
    objectId: row.objectId === null ? null : Number(row.objectId),
    data: parseObject(row.data),
    old: parseObject(row.old),
    status: row.status,
  };
}

/** Traccar's `Action` (components.schemas.Action of the OpenAPI file). */
export interface TraccarAction {
  id: number;
  actionTime: string;
  address: string | null;
  userId: number;
  userEmail: string | null;
  actionType: string;
  objectType: string | null;
  objectId: number;
  attributes: Record<string, unknown>;
}

/** Traccar names computed attributes `attribute` (its class Attribute); the rest keep their name. */
const traccarObjectType = (type: string | null): string | null => (type === 'computedAttribute' ? 'attribute' : type);

/**
 * One row as Traccar's audit lists it. Traccar writes no row without a user, so actor-less rows
 * (failed logins, the server's own actions) carry userId 0; a failed login is `failedLogin`.
 * Rastro's extras (code, status, user agent, the link's other side) travel in `attributes`.
 */
export function auditToTraccar(row: AuditLogRow): TraccarAction {
  const json = auditToJson(row);
  const info = auditCodeInfo(row.code);
  let actionType = info?.traccarAction ?? 'unknown';
  if (row.code === 101) actionType = auditActionOf(json) === 'userCreated' ? 'create' : json.status === 200 ? 'login' : 'failedLogin';
  // 301 is Tarkan's "created or edited": an edit has the previous values, or (refused) the device's id.
  if (row.code === 301) actionType = json.old || (json.objectId !== null && json.status !== null && json.status >= 300) ? 'edit' : 'create';
  const attributes: Record<string, unknown> = { code: row.code, action: auditActionOf(json), status: row.status };
  if (row.userAgent) attributes.userAgent = row.userAgent;
  if (row.relatedType) {
    attributes.propertyType = traccarObjectType(row.relatedType);
    attributes.propertyId = row.relatedId === null ? null : Number(row.relatedId);
  }
  return {
    id: json.id,
    actionTime: json.created_at,
    address: row.userIp,
    userId: json.userId ?? 0,
    userEmail: row.userName,
    actionType,
    objectType: traccarObjectType(row.objectType),
    objectId: json.objectId ?? 0,
    attributes,
  };
}
