// Starting and ending the `JSESSIONID` cookie session, shared by password login, token login,
// "login as" and logout. A login always creates a new session id (never reuses the one the
// browser brought), so a planted cookie cannot be promoted to a logged-in session. Ending a
// session tells the socket hub, which closes the sockets opened with it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { SESSION_COOKIE } from './authenticate.ts';
import { credentialsEnded } from './credential-changes.ts';

export async function startCookieSession(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  expiration: number | null,
  /** Opened with a token: its id and its parents' (the session ends when any is revoked). */
  tokenIds: readonly string[] = [],
): Promise<void> {
  const previous = req.cookies?.[SESSION_COOKIE];
  if (previous) {
    await ctx.sessions.destroy(previous).catch(() => undefined);
    if (req.sessionId === previous && req.user) credentialsEnded(ctx, req.user.id);
  }
  const origin = typeof req.headers.origin === 'string' && req.headers.origin !== 'null' ? req.headers.origin : null;
  const session = await ctx.sessions.create(userId, origin, expiration, tokenIds);
  reply.setCookie(SESSION_COOKIE, session.id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: req.protocol === 'https',
    // A token login's session ends with the token; a password login lasts the browser session.
    ...(expiration !== null ? { expires: new Date(expiration) } : {}),
  });
  req.sessionId = session.id;
}

export async function endCookieSession(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const id = req.sessionId ?? req.cookies?.[SESSION_COOKIE];
  if (id) await ctx.sessions.destroy(id);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  req.sessionId = null;
  if (id && req.user) credentialsEnded(ctx, req.user.id);
}
