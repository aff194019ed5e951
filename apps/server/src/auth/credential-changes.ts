// Everything that ends credentials goes through here, so each path ends all of them: the
// database rows, this instance's caches, and - through a `user` change on the bus - the cached
// sessions and the open sockets of every instance (the socket hub re-checks each socket's
// credential on that change, realtime/socket-hub.ts).
import type { AppContext } from '../context.ts';
import { AuthStateRepo } from './auth-state-repo.ts';
import { forgetBasicCredentials } from './authenticate.ts';
import type { TokenPayload } from './tokens.ts';

/**
 * The user's password changed or was reset: login tokens issued until now and any pending reset
 * token die, and every session ends but `keepSessionId` (the caller's own, when they changed it).
 */
export async function passwordChanged(ctx: AppContext, userId: number, keepSessionId: string | null, now = Date.now()): Promise<void> {
  await new AuthStateRepo(ctx.storage.db).passwordChanged(userId, now);
  await ctx.sessions.destroyUser(userId, keepSessionId);
  forgetBasicCredentials(ctx, userId);
  credentialsEnded(ctx, userId);
}

/** Revokes a login token: it, the tokens made from it and the sessions opened with any of them end. */
export async function revokeToken(ctx: AppContext, token: string, payload: TokenPayload): Promise<void> {
  await ctx.tokens.revoke(token);
  await ctx.sessions.destroyByToken(payload.id);
  credentialsEnded(ctx, payload.userId);
}

/** Tells every instance that some credential of the user ended (call after the database write). */
export function credentialsEnded(ctx: AppContext, userId: number): void {
  ctx.changes.publish({ kind: 'user', id: userId });
}

/**
 * Keeps this instance's caches (sessions, remembered Basic credentials) in step with credentials
 * ended anywhere: the next request of that user is checked against the database. Returns the
 * unsubscribe.
 */
export function followCredentialChanges(ctx: AppContext): () => void {
  return ctx.changes.on((change) => {
    if (change.kind !== 'user' && change.kind !== 'userRemoved') return;
    ctx.sessions.forgetUser(change.id);
    forgetBasicCredentials(ctx, change.id);
  });
}
