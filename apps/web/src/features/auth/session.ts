// The session life cycle the guard and the auth screens share: server info (loaded once),
// signing in (user + language), restoring a session, signing out.
import type { User } from '@rastro/domain/entities';
import { useSession, type ServerInfo } from '../../app/session-store.ts';
import type { GuardDeps } from '../../app/guard.ts';
import { applyAccountLanguage } from '../../i18n/i18n.ts';
import { loadServerInfo, logout, restoreSession } from './auth-api.ts';

let pendingServerInfo: Promise<ServerInfo> | null = null;

/** Server info from the store, or GET /api/server once (concurrent callers share the call). */
export function ensureServerInfo(): Promise<ServerInfo> {
  const cached = useSession.getState().serverInfo;
  if (cached) return Promise.resolve(cached);
  pendingServerInfo ??= loadServerInfo()
    .then(async (info) => {
      useSession.getState().setServerInfo(info);
      await applyAccountLanguage(info.server.attributes).catch(() => undefined);
      return info;
    })
    .finally(() => {
      pendingServerInfo = null;
    });
  return pendingServerInfo;
}

/** Makes `user` the signed-in user; their (or the server's) `tarkan.lang` takes over. */
export async function signIn(user: User): Promise<void> {
  useSession.getState().setUser(user);
  const server = useSession.getState().serverInfo?.server;
  await applyAccountLanguage(server?.attributes ?? {}, user.attributes ?? {}).catch(() => undefined);
}

/** Revokes the remembered token, ends the session and starts over on the login screen. */
export async function signOut(to = '/login'): Promise<void> {
  await logout();
  // A full load drops every cache, the live store and the socket at once.
  window.location.assign(to);
}

let restored: User | null = null;

/** What the navigation guard needs, wired to the real calls. */
export const guardDeps: GuardDeps = {
  hasSession: () => useSession.getState().user !== null,
  loadServerInfo: async () => {
    await ensureServerInfo();
  },
  restoreSession: async () => {
    restored = await restoreSession();
  },
  loadUserData: async () => {
    if (!restored) throw new Error('no session');
    const user = restored;
    restored = null;
    await signIn(user);
  },
};
