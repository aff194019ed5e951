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
  setServerInfo(info: ServerInfo): void;
  setUser(user: User | null): void;
}

export const useSession = create<SessionState>((set) => ({
  serverInfo: null,
  user: null,
  setServerInfo: (serverInfo) => set({ serverInfo }),
  setUser: (user) => set({ user }),
}));
