// Rows for what the server does on its own (tarkan-reference §7.6: 202 engine stop by a
// geofence rule, 211 / 212 lock and unlock by the driver rules, 201 an anchor's exit lock):
// no actor, address or agent; the username is Tarkan's system marker so the viewer says
// "system". Callers (the rules engines, later) await it: the row is stored when it resolves.
import { AUDIT_SYSTEM_USER, type AuditCode, type AuditObjectType } from '@rastro/domain/audit';
import type { AppContext } from '../context.ts';
import { AuditRepo } from './audit-repo.ts';

export interface SystemAction {
  code: AuditCode;
  objectType: AuditObjectType;
  objectId: number;
  /** The other object involved (the geofence of a geofence rule). */
  relatedType?: AuditObjectType;
  relatedId?: number;
  data?: Record<string, unknown>;
  old?: Record<string, unknown>;
  /** When it happened (default: now). */
  time?: number;
}

export async function recordSystem(ctx: Pick<AppContext, 'storage'>, action: SystemAction): Promise<void> {
  await new AuditRepo(ctx.storage.db).insert([{
    time: action.time ?? Date.now(),
    code: action.code,
    userId: null,
    userName: AUDIT_SYSTEM_USER,
    userIp: null,
    userAgent: null,
    objectType: action.objectType,
    objectId: action.objectId,
    relatedType: action.relatedType ?? null,
    relatedId: action.relatedId ?? null,
    data: action.data ?? null,
    old: action.old ?? null,
    status: null,
  }]);
}
