// Notification sounds on/off (the header's mute toggle). Persisted in localStorage `isMuted` as
// a real JSON boolean (`true`/`false`): the old client stored a string and read it raw, so a
// stored "false" counted as muted (tarkan-reference §5.16). Anything unreadable means not muted.
import { create } from 'zustand';

export const MUTE_KEY = 'isMuted';

export function readMuted(storage: Pick<Storage, 'getItem'> | null = safeStorage()): boolean {
  const raw = storage?.getItem(MUTE_KEY);
  if (raw === null || raw === undefined) return false;
  try {
    return JSON.parse(raw) === true;
  } catch {
    return false;
  }
}

function safeStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

interface MuteState {
  muted: boolean;
  setMuted(muted: boolean): void;
  toggle(): void;
}

export const useMute = create<MuteState>((set, get) => ({
  muted: readMuted(),
  setMuted(muted) {
    try {
      safeStorage()?.setItem(MUTE_KEY, JSON.stringify(muted));
    } catch {
      /* private mode or full storage: the choice lasts for this page only */
    }
    set({ muted });
  },
  toggle() {
    get().setMuted(!get().muted);
  },
}));

/** For code outside React (the sound player): is the user muted right now? */
export const isMuted = () => useMute.getState().muted;
