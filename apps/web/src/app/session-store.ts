// Who is signed in and what the server allows: loaded by the navigation guard, read by the
// shell, menus and screens.
import { create } from 'zustand';
import type { Server, User } from '@rastro/domain/entities';

export interface ServerInfo {
  server: Server;
  /** `licensemode` header: "plus" unlocks the extra features (any value but basic counts). */
  plus: boolean;
  /** `devicelimit` header: devices still allowed server-wide; null when there is no limit. */
  allowedDevices: number | null;
}

interface SessionState {
  serverInfo: ServerInfo | null;
  user: User | null;
  /**
   * A shared (visitor) session passed its expirationTime: the server session is gone and the
   * "session expired" dialog is up. The socket client and screens should stop when it is set.
   */
  expired: boolean;
  setServerInfo(info: ServerInfo): void;
  setUser(user: User | null): void;
  setExpired(expired: boolean): void;
}

export const useSession = create<SessionState>((set) => ({
  serverInfo: null,
  user: null,
  expired: false,
  setServerInfo: (serverInfo) => set({ serverInfo }),
  setUser: (user) => set({ user }),
  setExpired: (expired) => set({ expired }),
}));
