// Draws the dialog asked for in shell-dialogs.ts. Each dialog's code (and its texts, through
// useTexts inside it) loads on first use, so the shell chunk does not grow with every editor.
// A feature adds its dialog here: one lazy import and one line in DIALOGS.
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { useShellDialog, type ShellDialog, type ShellDialogKind } from './shell-dialogs.ts';

export interface ShellDialogProps<K extends ShellDialogKind = ShellDialogKind> {
  dialog: Extract<ShellDialog, { kind: K }>;
  onClose(): void;
}

type DialogComponent = LazyExoticComponent<ComponentType<ShellDialogProps>>;

/** kind → the lazily loaded component that draws it (missing kinds are never offered in menus). */
export const DIALOGS: Partial<Record<ShellDialogKind, DialogComponent>> = {
  account: dialog<'account'>(() => import('../../features/user-editor/account-dialog.tsx')),
  reseller: dialog<'reseller'>(() => import('../../features/reseller/reseller-dialog.tsx')),
  server: dialog<'server'>(() => import('../../features/server-settings/server-settings-dialog.tsx')),
  logs: dialog<'logs'>(() => import('../../features/logs/logs-dialog.tsx')),
  calendars: dialog<'calendars'>(() => import('../../features/calendars/calendars-dialog.tsx')),
};

/** Registers a dialog component for a kind (called from this file's list below). */
function dialog<K extends ShellDialogKind>(load: () => Promise<{ default: ComponentType<ShellDialogProps<K>> }>): DialogComponent {
  return lazy(load as unknown as () => Promise<{ default: ComponentType<ShellDialogProps> }>);
}

export function ShellDialogs() {
  const current = useShellDialog((s) => s.current);
  const close = useShellDialog((s) => s.close);
  if (!current) return null;
  const Dialog = DIALOGS[current.kind];
  if (!Dialog) return null;
  return (
    <Suspense fallback={null}>
      <Dialog dialog={current} onClose={close} />
    </Suspense>
  );
}
