// The shell dialog "my account" (user menu): the user editor on the signed-in user.
import type { ShellDialogProps } from '../../app/shell/shell-dialogs-host.tsx';
import { useSession } from '../../app/session-store.ts';
import { UserEditorDialog } from './user-editor-dialog.tsx';

export default function AccountDialog({ onClose }: ShellDialogProps<'account'>) {
  const id = useSession((s) => s.user?.id);
  if (id === undefined) return null;
  return <UserEditorDialog userId={id} onClose={() => onClose()} />;
}
