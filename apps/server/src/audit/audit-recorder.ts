// Writes the audit rows of requests, driven by the audited-route table, so no feature's route
// has to know about the audit:
// - preHandler (after authentication): for routes whose entry reads `before`, the object as it
//   is, before the handler changes or removes it;
// - onSend: once the answer is decided (handler result or error, with its status), the rows.
// The rows are stored before the answer leaves, so a client that reads the log right after an
// action finds it there, and a restart asked for by that same request loses nothing. A failed
// audit write is logged and never turns a done action into an error.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { AuditRepo, type AuditEntry } from './audit-repo.ts';
import { auditedRoute } from './audited-routes.ts';
import { isAudited, type AnsweredCall, type AuditDraft, type AuditedRoute, type RouteCall } from './audit-route-kit.ts';

/** Methods that change something: each such route needs an entry in the table. */
export const WRITE_METHODS = ['POST', 'PUT', 'DELETE', 'PATCH'] as const;

export interface RegisteredRoute {
  method: string;
  url: string;
}

const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/** Every route registered after the recorder (tests check the write routes against the table). */
export function registeredRoutes(app: FastifyInstance): RegisteredRoute[] {
  return registered.get(app) ?? [];
}

function entryOf(req: FastifyRequest): AuditedRoute | null {
  const url = req.routeOptions.url;
  if (!url) return null;
  const entry = auditedRoute(req.method, url);
  return entry && isAudited(entry) ? entry : null;
}

function callOf(ctx: AppContext, req: FastifyRequest): RouteCall {
  return {
    ctx,
    params: (req.params ?? {}) as Record<string, string>,
    query: (req.query ?? {}) as Record<string, unknown>,
    body: req.body,
    caller: req.user ?? null,
  };
}

/** The JSON body of a 2xx answer, if it is JSON. */
function answerOf(reply: FastifyReply, payload: unknown): unknown {
  if (reply.statusCode >= 300 || typeof payload !== 'string' || payload === '') return null;
  if (!String(reply.getHeader('content-type') ?? '').includes('json')) return null;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return null;
  }
}

export function registerAuditRecorder(app: FastifyInstance, ctx: AppContext): void {
  const repo = new AuditRepo(ctx.storage.db);
  const before = new WeakMap<FastifyRequest, Record<string, unknown> | null>();
  const routes: RegisteredRoute[] = [];
  registered.set(app, routes);

  app.addHook('onRoute', (options) => {
    for (const method of [options.method].flat()) routes.push({ method: String(method).toUpperCase(), url: options.url });
  });

  app.addHook('preHandler', async (req) => {
    const entry = entryOf(req);
    if (!entry?.before) return;
    try {
      before.set(req, await entry.before(callOf(ctx, req)));
    } catch (error) {
      req.log.warn({ err: error }, 'audit: could not read the object before the action');
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const entry = entryOf(req);
    if (!entry) return payload;
    const caller = req.user ?? null;
    // Requests refused before anyone was known (no session) are not an account's action.
    if (!caller && !entry.anonymous) return payload;
    try {
      const status = reply.statusCode;
      const ok = status >= 200 && status < 300;
      const call: AnsweredCall = { ...callOf(ctx, req), status, ok, response: answerOf(reply, payload), before: before.get(req) ?? null };
      const drafts = await entry.rows(call);
      await repo.insert(drafts.map((draft) => entryFor(draft, req, status, ok)));
    } catch (error) {
      req.log.warn({ err: error }, 'audit: row not stored');
    }
    return payload;
  });
}

function entryFor(draft: AuditDraft, req: FastifyRequest, status: number, ok: boolean): AuditEntry {
  const actor = draft.actor ?? { userId: req.user?.id ?? null, userName: req.user?.email ?? null };
  const agent = req.headers['user-agent'];
  return {
    time: Date.now(),
    code: draft.code,
    userId: actor.userId,
    userName: actor.userName,
    userIp: req.ip ?? null,
    userAgent: typeof agent === 'string' && agent !== '' ? agent : null,
    objectType: draft.objectType,
    objectId: draft.objectId,
    relatedType: draft.relatedType ?? null,
    relatedId: draft.relatedId ?? null,
    data: draft.data ?? null,
    // A refused action changed nothing: what it would have replaced is not recorded.
    old: ok ? (draft.old ?? null) : null,
    status,
  };
}
