// Dialogs the shell opens over any screen (spec §2 "Other screens": user editor, server
// settings, related objects, advanced logs…), from the user menu, a list row or the device
// detail. One at a time, kept in this store so any feature can ask for one without importing
// another feature: the shell's <ShellDialogs/> host draws the one asked for.
import { create } from 'zustand';

export type LogScope = { kind: 'all' } | { kind: 'user'; userId: number } | { kind: 'device'; deviceId: number };

export type ShellDialog =
  /** The user editor on the signed-in user ("my account"). */
  | { kind: 'account' }
  /** The server settings (administrators). */
  | { kind: 'server' }
  /** The advanced logs of the whole server, one user or one device. */
  | { kind: 'logs'; scope: LogScope }
  /** What a reseller's tree holds against its limits, and its domain. */
  | { kind: 'reseller' }
  /** The calendars manager and its editor (spec §2 has no /calendars route). */
  | { kind: 'calendars' };

export type ShellDialogKind = ShellDialog['kind'];

interface ShellDialogState {
  current: ShellDialog | null;
  open(dialog: ShellDialog): void;
  close(): void;
}

export const useShellDialog = create<ShellDialogState>((set) => ({
  current: null,
  open: (dialog) => set({ current: dialog }),
  close: () => set({ current: null }),
}));
