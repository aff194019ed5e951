// /api/session: Traccar's cookie login (form or JSON), token login, logout, API tokens and
// "login as". Failures answer with texts whose first line derives to the catalogue codes.
// Whatever is made from a token (a child token, a session opened with ?token=, a "login as"
// session opened from such a session) carries the token's id and dies with it.
import type { FastifyInstance } from 'fastify';
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';
import type { AppContext } from '../context.ts';
import { accessDenied, ApiError, badRequest, forbidden, notFound } from '../http/errors.ts';
import { parseIsoInstant } from '../http/json.ts';
import { userToJson } from '../users/user-json.ts';
import { canManageUser } from '../users/user-access.ts';
import { accountRefusal, passwordLogin, requireUser, tokenLogin } from './authenticate.ts';
import { credentialExpiration, tokenIdsOf } from './credential.ts';
import { followCredentialChanges, revokeToken } from './credential-changes.ts';
import { DAY_MS, issueLoginToken } from './login-tokens.ts';
import { assertSameSite } from './origin-check.ts';
import { DEFAULT_TOKEN_DAYS } from './tokens.ts';
import { formField } from './form.ts';
import { endCookieSession, startCookieSession } from './session-cookie.ts';

export async function sessionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  ctx.onClose.push(followCredentialChanges(ctx));

  app.post('/api/session', { config: { public: true } }, async (req, reply) => {
    const email = formField(req.body, 'email');
    const password = formField(req.body, 'password');
    if (!email?.trim() || !password) throw badRequest(SERVER_ERROR_TEXTS.fillAllFields);
    const code = formField(req.body, 'code')?.trim() || null;
    const user = await passwordLogin(ctx, email, password, { address: req.ip, code });
    await startCookieSession(ctx, req, reply, user.id, null);
    return userToJson(user);
  });

  app.get<{ Querystring: { token?: unknown } }>('/api/session', { config: { public: true } }, async (req, reply) => {
    const token = req.query.token;
    if (token !== undefined) {
      if (typeof token !== 'string' || token.trim() === '') throw badRequest(SERVER_ERROR_TEXTS.fillAllFields);
      // This GET logs the browser in: a foreign page must not log a visitor into its account.
      await assertSameSite(ctx, req);
      const { user, payload } = await tokenLogin(ctx, token.trim());
      await startCookieSession(ctx, req, reply, user.id, payload.expiration, [payload.id, ...payload.parents]);
      return userToJson(user);
    }
    // Traccar answers 404 (not 401) when there is no session; clients go to the login page.
    if (!req.user) throw notFound('Session not found - sign in');
    return userToJson(req.user);
  });

  app.delete('/api/session', async (req, reply) => {
    await endCookieSession(ctx, req, reply);
    return reply.code(204).send();
  });

  app.post('/api/session/token', async (req, reply) => {
    const user = requireUser(req);
    const now = Date.now();
    let expiration = now + DEFAULT_TOKEN_DAYS * DAY_MS;
    const raw = formField(req.body, 'expiration');
    if (raw !== undefined && raw.trim() !== '') {
      const parsed = parseIsoInstant(raw);
      if (parsed === null) throw badRequest('Invalid expiration - use an ISO 8601 date with an offset, e.g. 2030-01-31T23:59:59Z');
      expiration = parsed;
    }
    // A token never outlives the login it was made from, and dies with the tokens behind it.
    const limit = credentialExpiration(req.credential);
    if (limit !== null && limit < expiration) expiration = limit;
    if (expiration <= now) throw badRequest('Invalid expiration - the date is in the past');
    return reply.type('text/plain; charset=utf-8').send(issueLoginToken(ctx, user.id, expiration, tokenIdsOf(req.credential), now));
  });

  app.post('/api/session/token/revoke', async (req, reply) => {
    const user = requireUser(req);
    const token = formField(req.body, 'token')?.trim();
    if (!token) throw badRequest(SERVER_ERROR_TEXTS.fillToken);
    const payload = ctx.tokens.inspect(token);
    if (!payload) throw badRequest(SERVER_ERROR_TEXTS.invalidLogin);
    if (payload.userId !== user.id && user.administrator !== 1) {
      throw forbidden('Token access denied - the token belongs to another user');
    }
    await revokeToken(ctx, token, payload);
    return reply.code(204).send();
  });

  // "Login as": administrators, or a manager for a user they manage.
  app.get<{ Params: { id: string } }>('/api/session/:id', async (req, reply) => {
    const caller = requireUser(req);
    if (!/^\d{1,15}$/.test(req.params.id)) throw notFound();
    const id = Number(req.params.id);
    if (caller.administrator !== 1 && !(await canManageUser(ctx.storage.db, caller, id))) throw accessDenied.user();
    const target = await ctx.users.findById(id);
    if (!target) throw notFound('User not found');
    if (target.administrator === 1 && caller.administrator !== 1) throw accessDenied.user();
    if (target.administrator === 1 && target.id < caller.id) {
      throw forbidden('Superior administrator - you cannot act as an administrator above you');
    }
    const refusal = accountRefusal(target);
    if (refusal) throw new ApiError(400, refusal);
    // The new session ends when the caller's own login would, token revocations included.
    await startCookieSession(ctx, req, reply, target.id, credentialExpiration(req.credential), tokenIdsOf(req.credential));
    return userToJson(target);
  });
}
