// What makes a login token valid beyond its signature and expiry (auth/tokens.ts), and how new
// ones are issued:
//  - a lifetime of at most RASTRO_TOKEN_MAX_DAYS: longer requests are cut to it, and a token
//    that runs longer (signed under a longer limit, or by a version that recorded no issue
//    time, then measured from now) is refused;
//  - none of its chain revoked (checked by TokenService.verify);
//  - issued after the user's last password change or reset (`tokensNotBefore`).
import type { AppContext } from '../context.ts';
import { badRequest } from '../http/errors.ts';
import { AuthStateRepo } from './auth-state-repo.ts';
import { MAX_TOKEN_PARENTS, type TokenPayload } from './tokens.ts';

export const DAY_MS = 86_400_000;

type Ctx = Pick<AppContext, 'config' | 'tokens' | 'storage'>;

/** The longest a login token may live, in milliseconds. */
export const tokenMaxMs = (ctx: Pick<AppContext, 'config'>): number => ctx.config.tokenMaxDays * DAY_MS;

/** The payload of a login token that may be used now, else null. */
export async function verifyLoginToken(ctx: Ctx, token: string, now = Date.now()): Promise<TokenPayload | null> {
  const payload = await ctx.tokens.verify(token, 'login', now);
  if (!payload) return null;
  if (payload.expiration - (payload.issuedAt ?? now) > tokenMaxMs(ctx)) return null;
  const notBefore = await new AuthStateRepo(ctx.storage.db).tokensNotBefore(payload.userId);
  if (notBefore !== null && (payload.issuedAt ?? 0) < notBefore) return null;
  return payload;
}

/**
 * Issues a login token expiring at `expiration`, cut to the maximum lifetime. `parents` are the
 * ids of the tokens the caller logged in with (nearest first): the new token dies with them. A
 * chain already at its longest is refused with 400.
 */
export function issueLoginToken(ctx: Ctx, userId: number, expiration: number, parents: readonly string[], now = Date.now()): string {
  if (parents.length > MAX_TOKEN_PARENTS) {
    throw badRequest(`Token chain too long - tokens made from tokens nest at most ${MAX_TOKEN_PARENTS} deep; log in with a password to make a new one`);
  }
  return ctx.tokens.issue(userId, Math.min(expiration, now + tokenMaxMs(ctx)), 'login', { parents, now });
}
