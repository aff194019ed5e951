// How a request proved who it is, remembered beside the user (req.credential) and by each open
// socket, so what was made from it (child tokens, "login as" sessions) dies with it and sockets
// can be closed when it ends.
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { verifyLoginToken } from './login-tokens.ts';

export type Credential =
  /** The JSESSIONID cookie; `tokenIds` when the session was opened with `?token=`. */
  | { kind: 'session'; sessionId: string; tokenIds: string[]; expiration: number | null }
  /** A login token (Bearer header, or `?token=` on the socket). */
  | { kind: 'token'; token: string; tokenIds: string[]; expiration: number }
  /** A password (Basic header); the hash it matched, to notice a change. */
  | { kind: 'password'; hashedPassword: string | null };

/** Ids of the login tokens the credential descends from, nearest first (empty for passwords). */
export function tokenIdsOf(credential: Credential | null): string[] {
  return credential && credential.kind !== 'password' ? credential.tokenIds : [];
}

/** When the credential stops working by itself; null = no fixed end. */
export function credentialExpiration(credential: Credential | null): number | null {
  return credential && credential.kind !== 'password' ? credential.expiration : null;
}

/**
 * Whether the credential still works, read afresh (no caches): the session still exists, the
 * token still verifies, the password is still the one it matched.
 */
export async function credentialStillValid(ctx: AppContext, credential: Credential, user: UserRow): Promise<boolean> {
  switch (credential.kind) {
    case 'session':
      return ctx.sessions.exists(credential.sessionId);
    case 'token':
      return (await verifyLoginToken(ctx, credential.token))?.userId === user.id;
    case 'password':
      return credential.hashedPassword === user.hashedPassword;
  }
}
