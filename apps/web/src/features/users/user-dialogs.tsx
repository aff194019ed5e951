// The dialogs the users manager opens over its list: the user editor (add / edit), the
// related-objects dialog of one user and one type, and the delete confirmation. Closing the
// related-objects dialog re-reads the device counts (links change them).
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '@rastro/domain/entities';
import { useTranslation } from '../../i18n/use-translation.ts';
import { RelatedPicker } from '../../ui/collection/related-picker.tsx';
import { invalidateCollection } from '../../ui/collection/use-collection.ts';
import type { LinkedType } from '../../ui/collection/link-kinds.ts';
import { ConfirmDialog } from '../commands-ui/index.ts';
import { deviceCountsKey } from './device-counts.ts';
import { UserEditor } from './user-editor-slot.tsx';

export type UsersDialog =
  | { kind: 'editor'; userId: number | null }
  | { kind: 'link'; type: LinkedType; user: User }
  | { kind: 'delete'; user: User };

interface Props {
  dialog: UsersDialog | null;
  onClose(): void;
  onDelete(user: User): Promise<void>;
}

export function UserDialogs({ dialog, onClose, onDelete }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);

  if (dialog?.kind === 'editor') {
    return (
      <UserEditor userId={dialog.userId} onClose={(saved) => {
        if (saved) void invalidateCollection(client, 'users');
        onClose();
      }} />
    );
  }
  if (dialog?.kind === 'link') {
    const { type, user } = dialog;
    return (
      <RelatedPicker opened owner={{ key: 'userId', id: user.id }} type={type}
        title={t('users.linkTitle', { type: t(`users.linkTypes.${type}`), name: user.name })}
        onClose={() => {
          // Devices and groups decide the counts; managed users move devices between trees.
          if (type === 'devices' || type === 'groups' || type === 'users') void client.invalidateQueries({ queryKey: deviceCountsKey });
          if (type === 'users') void invalidateCollection(client, 'users');
          onClose();
        }} />
    );
  }
  const target = dialog?.kind === 'delete' ? dialog.user : null;
  return (
    <ConfirmDialog opened={target !== null} title={t('users.confirmDelete.title')} confirmLabel={t('users.confirmDelete.confirm')} danger busy={busy}
      onCancel={onClose}
      onConfirm={async () => {
        if (!target) return;
        setBusy(true);
        try {
          await onDelete(target);
        } finally {
          setBusy(false);
          onClose();
        }
      }}>
      {target ? t('users.confirmDelete.body', { name: target.name }) : ''}
    </ConfirmDialog>
  );
}
