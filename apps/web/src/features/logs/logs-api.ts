// Reading the audit log: GET /api/server/logs, /api/users/:id/logs or /api/devices/:id/logs
// (tarkan-reference §3.13.20) for a period, a page at a time, newest first.
import { AUDIT_LIST_DEFAULT, type AuditRow } from '@rastro/domain/audit';
import { api } from '../../api/http.ts';
import type { LogScope } from '../../app/shell/shell-dialogs.ts';

export const LOG_PAGE = AUDIT_LIST_DEFAULT;

export function logsPath(scope: LogScope): string {
  if (scope.kind === 'user') return `/users/${scope.userId}/logs`;
  if (scope.kind === 'device') return `/devices/${scope.deviceId}/logs`;
  return '/server/logs';
}

export interface LogPeriod {
  from: Date;
  to: Date;
}

export function fetchLogPage(scope: LogScope, period: LogPeriod, offset: number, signal?: AbortSignal): Promise<AuditRow[]> {
  return api
    .raw<AuditRow[]>(logsPath(scope), { query: { from: period.from.toISOString(), to: period.to.toISOString(), limit: LOG_PAGE, offset }, signal })
    .then((res) => (Array.isArray(res.data) ? res.data : []));
}
