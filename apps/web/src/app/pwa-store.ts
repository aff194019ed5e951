// State of the new-version prompt, set by the worker registration (pwa.ts).
import { create } from 'zustand';

interface PwaState {
  needRefresh: boolean;
  /** Activates the waiting worker and reloads the page once it controls it. */
  update: (() => Promise<void>) | null;
  dismiss(): void;
}

export const usePwa = create<PwaState>((set) => ({
  needRefresh: false,
  update: null,
  dismiss: () => set({ needRefresh: false }),
}));
