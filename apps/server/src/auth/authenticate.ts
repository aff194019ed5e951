// Resolves the caller of every /api request, in Traccar's order: Authorization header
// (Basic = password, Bearer = token; stateless), else the JSESSIONID cookie session with its
// Origin check. The user row is re-read on each request so disabled/expired take effect at once.
// How the caller proved it (req.credential) is kept for what is made from it (child tokens,
// "login as" sessions) and for the socket hub.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';
import type { AppContext } from '../context.ts';
import { ApiError, unauthorized } from '../http/errors.ts';
import type { UserRow } from '../users/user-json.ts';
import type { Credential } from './credential.ts';
import { verifyLoginToken } from './login-tokens.ts';
import { sessionOriginAllowed } from './origin-check.ts';
import { verifyPassword } from './passwords.ts';
import { loginThrottle } from './login-throttle.ts';
import type { TokenPayload } from './tokens.ts';
import { verifyTotp } from './totp.ts';

export const SESSION_COOKIE = 'JSESSIONID';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller, or null (set by the authenticate hook). */
    user: UserRow | null;
    /** Id of the cookie session the caller came in with, if any. */
    sessionId: string | null;
    /** How the caller proved who they are (set with `user`). */
    credential: Credential | null;
  }
}

/** Why an account may not be used now, as a first line that derives to a catalogue code. */
export function accountRefusal(user: UserRow, now = Date.now()): string | null {
  if (user.disabled === 1) return SERVER_ERROR_TEXTS.disabled;
  if (user.expirationTime !== null && user.expirationTime <= now) return SERVER_ERROR_TEXTS.expired;
  return null;
}

export interface PasswordLoginOptions {
  /** Client address, for the failed-login throttle. */
  address?: string | null;
  /** One-time code for users with a TOTP key; `undefined` = the channel cannot carry one (Basic). */
  code?: string | null;
}

/**
 * Checks a login name and password; throws the catalogue errors on failure. Failed
 * attempts count against the account and the address (auth/login-throttle.ts), so both the
 * login form and Basic headers are slowed down the same way. Unknown accounts cost the same KDF
 * work and get the same answer as wrong passwords.
 */
export async function passwordLogin(
  ctx: AppContext,
  email: string,
  password: string,
  options: PasswordLoginOptions = {},
): Promise<UserRow> {
  const throttle = loginThrottle(ctx);
  const address = options.address ?? null;
  const delay = throttle.check(email, address);
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
  const user = email.trim() === '' ? undefined : await ctx.users.findByLogin(email);
  const ok = await verifyPassword(password, user ? { hashedPassword: user.hashedPassword ?? '', salt: user.salt ?? '' } : null);
  if (!user || !ok) {
    throttle.failed(email, address);
    throw new ApiError(401, SERVER_ERROR_TEXTS.badCredentials);
  }
  if (user.totpKey) {
    // The password was right; only a wrong code counts as a guess.
    if (!options.code) throw new ApiError(401, SERVER_ERROR_TEXTS.badCredentials, { 'WWW-Authenticate': 'TOTP' });
    if (!verifyTotp(user.totpKey, options.code)) {
      throttle.failed(email, address);
      throw new ApiError(401, SERVER_ERROR_TEXTS.badCredentials, { 'WWW-Authenticate': 'TOTP' });
    }
  }
  throttle.succeeded(email, address);
  const refusal = accountRefusal(user);
  if (refusal) throw new ApiError(401, refusal);
  return user;
}

/** Logs in with a signed token; throws INVALID_LOGIN_DATA or the account refusal. */
export async function tokenLogin(ctx: AppContext, token: string): Promise<{ user: UserRow; payload: TokenPayload; credential: Credential }> {
  const payload = await verifyLoginToken(ctx, token);
  const user = payload ? await ctx.users.findById(payload.userId) : undefined;
  if (!payload || !user) throw new ApiError(401, SERVER_ERROR_TEXTS.invalidLogin);
  const refusal = accountRefusal(user);
  if (refusal) throw new ApiError(401, refusal);
  const credential: Credential = { kind: 'token', token, tokenIds: [payload.id, ...payload.parents], expiration: payload.expiration };
  return { user, payload, credential };
}

// Basic auth runs the slow KDF; remember a successful check briefly so API scripts that send
// Basic on every call do not pay it each time.
// Kept per server context: several servers (tests, a restart) may run in one process.
const basicCaches = new WeakMap<AppContext, Map<string, { userId: number; at: number }>>();
const BASIC_CACHE_MS = 60_000;

function basicCacheOf(ctx: AppContext): Map<string, { userId: number; at: number }> {
  let cache = basicCaches.get(ctx);
  if (!cache) {
    cache = new Map();
    basicCaches.set(ctx, cache);
  }
  return cache;
}

/** Forgets remembered Basic credentials of a user (after a password change or deletion). */
export function forgetBasicCredentials(ctx: AppContext, userId: number): void {
  const basicCache = basicCacheOf(ctx);
  for (const [key, entry] of basicCache) if (entry.userId === userId) basicCache.delete(key);
}

export async function resolveCaller(ctx: AppContext, req: FastifyRequest): Promise<UserRow | null> {
  const header = req.headers.authorization;
  if (header) {
    const space = header.indexOf(' ');
    const scheme = space > 0 ? header.slice(0, space).toLowerCase() : header.toLowerCase();
    const credentials = space > 0 ? header.slice(space + 1).trim() : '';
    if (scheme === 'basic') {
      const basicCache = basicCacheOf(ctx);
      const cached = basicCache.get(credentials);
      if (cached && Date.now() - cached.at < BASIC_CACHE_MS) {
        const user = await ctx.users.findById(cached.userId);
        if (user && !accountRefusal(user)) {
          req.credential = { kind: 'password', hashedPassword: user.hashedPassword };
          return user;
        }
      }
      const decoded = Buffer.from(credentials, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) throw unauthorized();
      const user = await passwordLogin(ctx, decoded.slice(0, colon), decoded.slice(colon + 1), { address: req.ip });
      if (basicCache.size > 1000) basicCache.clear();
      basicCache.set(credentials, { userId: user.id, at: Date.now() });
      req.credential = { kind: 'password', hashedPassword: user.hashedPassword };
      return user;
    }
    if (scheme === 'bearer') {
      const login = await tokenLogin(ctx, credentials);
      req.credential = login.credential;
      return login.user;
    }
    throw unauthorized();
  }
  const sessionId = req.cookies?.[SESSION_COOKIE];
  if (sessionId) {
    const session = await ctx.sessions.get(sessionId);
    if (!session) return null;
    if (!(await sessionOriginAllowed(ctx, req, session.origin))) throw unauthorized('Origin not allowed - the request comes from another site');
    const user = await ctx.users.findById(session.userId);
    if (!user) {
      await ctx.sessions.destroy(sessionId);
      return null;
    }
    const refusal = accountRefusal(user);
    if (refusal) {
      await ctx.sessions.destroy(sessionId);
      throw new ApiError(401, refusal);
    }
    req.sessionId = sessionId;
    req.credential = { kind: 'session', sessionId, tokenIds: session.tokenIds, expiration: session.expiration };
    return user;
  }
  return null;
}

/** Use in routes: the caller, or 401. */
export function requireUser(req: FastifyRequest): UserRow {
  if (!req.user) throw unauthorized();
  return req.user;
}

export function sendUnauthorized(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  if ((req.headers.accept ?? '').includes('text/html')) reply.header('WWW-Authenticate', 'Basic realm="api"');
  return reply.code(401).type('text/plain; charset=utf-8').send(SERVER_ERROR_TEXTS.notAuthed);
}
