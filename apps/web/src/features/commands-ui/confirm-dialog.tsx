// A yes/no confirmation; closing without confirming counts as cancelling.
import type { ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';

export function ConfirmDialog({ opened, title, children, confirmLabel, danger, busy, onConfirm, onCancel }: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  return (
    <Modal closeButtonProps={{ 'aria-label': t('device.actions.close') }} opened={opened} onClose={onCancel} title={title} centered zIndex={400}>
      <Text size="sm" mb="md">{children}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={busy}>{t('device.actions.cancel')}</Button>
        <Button color={danger ? 'red.8' : undefined} onClick={onConfirm} loading={busy}>{confirmLabel}</Button>
      </Group>
    </Modal>
  );
}
