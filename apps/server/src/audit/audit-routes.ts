// The log routes (tarkan-reference §3.13.20, §7.2) and Traccar's `GET /api/audit`:
//   GET /api/server/logs           every row (administrators) or the caller's tree (managers)
//   GET /api/users/:id/logs        rows about a user the caller manages
//   GET /api/devices/:id/logs      rows about a device the caller sees
//   the same three under /tarkan (Tarkan's paths), and
//   GET /api/audit?from&to         Traccar's Action list, administrators only, as Traccar.
// The log routes take `from` / `to` (ISO instants), `limit` (default 500, at most 5000) and
// `offset`, and answer newest first. They need the Plus licence, and for non-administrators
// being a manager; a manager's rows are narrowed to its tree (audit-repo.ts) so it never reads
// a row about anyone else.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUDIT_LIST_DEFAULT, AUDIT_LIST_MAX, type AuditRow } from '@rastro/domain/audit';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { isManager } from '../users/user-json.ts';
import { canManageUser } from '../users/user-access.ts';
import { resolveCaller, sendUnauthorized } from '../auth/authenticate.ts';
import { assertAdmin } from '../auth/guards.ts';
import { accessDenied, ApiError, badRequest, unauthorized } from '../http/errors.ts';
import { parseIsoInstant } from '../http/json.ts';
import { isoBound, pathId, single, type Query } from '../access/list-params.ts';
import { AuditRepo, type AuditPage } from './audit-repo.ts';
import { auditToJson, auditToTraccar } from './audit-json.ts';

type WithId = { Params: { id: string }; Querystring: Query };

function instant(query: Query, name: 'from' | 'to'): number | undefined {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') return undefined;
  const ms = parseIsoInstant(raw);
  if (ms === null) throw badRequest(`Invalid ${name} "${raw.slice(0, 40)}" - an ISO date with an offset is expected, like 2024-05-01T10:00:00Z`);
  return ms;
}

function count(query: Query, name: 'limit' | 'offset', fallback: number): number {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d{1,15}$/.test(raw.trim())) throw badRequest(`Invalid ${name} - "${raw.slice(0, 20)}" is not a whole number of 0 or more`);
  return Number(raw);
}

/** Period and page of a log request. */
export function pageParams(query: Query): Pick<AuditPage, 'from' | 'to' | 'limit' | 'offset'> {
  const from = instant(query, 'from');
  const to = instant(query, 'to');
  if (from !== undefined && to !== undefined && from > to) throw badRequest('Invalid period - from is after to');
  const limit = Math.min(count(query, 'limit', AUDIT_LIST_DEFAULT), AUDIT_LIST_MAX);
  if (limit === 0) throw badRequest('Invalid limit - ask for 1 to 5000 rows');
  return { from, to, limit, offset: count(query, 'offset', 0) };
}

/** Plus licence; administrators, or managers (who read their tree only). 403 otherwise. */
function assertMayReadLogs(ctx: AppContext, caller: UserRow): void {
  if (ctx.config.license !== 'plus') throw new ApiError(403, 'Advanced logs unavailable - they need the Plus licence');
  if (!isManager(caller)) throw new ApiError(403, 'Manager access required - only administrators and managers read the logs');
}

export async function auditRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const repo = new AuditRepo(ctx.storage.db);

  /** The caller of a log route: /tarkan is outside the /api authentication hook, so it is resolved here. */
  async function logReader(req: FastifyRequest, reply: FastifyReply): Promise<UserRow | null> {
    req.user ??= await resolveCaller(ctx, req);
    if (!req.user) {
      sendUnauthorized(req, reply);
      return null;
    }
    assertMayReadLogs(ctx, req.user);
    reply.header('Cache-Control', 'private, no-store');
    return req.user;
  }

  const treeOf = (caller: UserRow) => (caller.administrator === 1 ? undefined : caller.id);

  const serverLogs = async (req: FastifyRequest<{ Querystring: Query }>, reply: FastifyReply): Promise<AuditRow[] | FastifyReply> => {
    const caller = await logReader(req, reply);
    if (!caller) return reply;
    const rows = await repo.page({ ...pageParams(req.query), treeOf: treeOf(caller) });
    return rows.map(auditToJson);
  };

  const userLogs = async (req: FastifyRequest<WithId>, reply: FastifyReply): Promise<AuditRow[] | FastifyReply> => {
    const caller = await logReader(req, reply);
    if (!caller) return reply;
    const id = pathId(req.params.id);
    if (!(await canManageUser(ctx.storage.db, caller, id))) throw accessDenied.user();
    const rows = await repo.page({ ...pageParams(req.query), user: id, treeOf: treeOf(caller) });
    return rows.map(auditToJson);
  };

  const deviceLogs = async (req: FastifyRequest<WithId>, reply: FastifyReply): Promise<AuditRow[] | FastifyReply> => {
    const caller = await logReader(req, reply);
    if (!caller) return reply;
    const id = pathId(req.params.id);
    if (!(await ctx.visibility.canSeeDevice(caller, id))) throw accessDenied.device();
    const rows = await repo.page({ ...pageParams(req.query), device: id, treeOf: treeOf(caller) });
    return rows.map(auditToJson);
  };

  for (const prefix of ['/api', '/tarkan']) {
    app.get<{ Querystring: Query }>(`${prefix}/server/logs`, serverLogs);
    app.get<WithId>(`${prefix}/users/:id/logs`, userLogs);
    app.get<WithId>(`${prefix}/devices/:id/logs`, deviceLogs);
  }

  // Traccar's audit: administrators, a required period, its Action shape.
  app.get<{ Querystring: Query }>('/api/audit', async (req) => {
    const caller = req.user;
    if (!caller) throw unauthorized();
    assertAdmin(caller);
    const from = isoBound(req.query, 'from', 'audit logs');
    const to = isoBound(req.query, 'to', 'audit logs');
    return (await repo.period(from, to)).map(auditToTraccar);
  });
}
