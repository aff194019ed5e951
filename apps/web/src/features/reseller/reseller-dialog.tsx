// The reseller dialog (user menu "reseller", shell dialog kind 'reseller'): what the signed-in
// reseller's tree holds against its limits, its white-label domain and whether it may create
// sub-resellers. The users come from the users list (a manager's GET /api/users is its whole
// tree, shared with the users manager's cache); the devices are the session's live list (what
// it sees through links: its own and its tree's, as its deviceLimit counts them).
import { useMemo } from 'react';
import { Alert, Button, Group, Loader, Modal, Progress, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { User } from '@rastro/domain/entities';
import { isDeletedDevice } from '@rastro/domain/device-filters';
import { useTexts } from '../../i18n/texts.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useSession } from '../../app/session-store.ts';
import { useLive } from '../../live/live-store.ts';
import { useCollection } from '../../ui/collection/use-collection.ts';
import { saveErrorText } from '../../ui/collection/save-error.ts';
import { resellerSummary, type Figure } from './reseller-figures.ts';
import './reseller.css';

function FigureRow({ label, value, testId }: { label: string; value: Figure; testId: string }) {
  const { t } = useTranslation();
  const amount = value.limit === null ? t('reseller.unlimited', { used: value.used }) : t('reseller.ofLimit', { used: value.used, limit: value.limit });
  return (
    <div data-testid={testId}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="sm" fw={600}>{label}</Text>
        <Text size="sm" data-testid={`${testId}-amount`}>{amount}</Text>
      </Group>
      {value.percent !== null && (
        <>
          <Progress mt={6} value={value.percent} color={value.full ? 'red.8' : 'blue.7'}
            aria-label={t('reseller.usage', { name: label, percent: value.percent })} />
          <Text size="xs" mt={4} c={value.full ? 'red.9' : 'gray.7'}>
            {value.full ? t('reseller.full') : t('reseller.left', { count: value.left ?? 0 })}
          </Text>
        </>
      )}
    </div>
  );
}

function Body({ me }: { me: User }) {
  const { t } = useTranslation();
  const users = useCollection<User>('users');
  const devices = useLive((s) => s.devices);
  const deviceCount = useMemo(() => Object.values(devices).filter((d) => !isDeletedDevice(d)).length, [devices]);
  if (users.state === 'loading') {
    return <div role="status"><Loader size="sm" aria-hidden="true" /> {t('collection.loading')}</div>;
  }
  if (users.state === 'error') {
    return (
      <Alert color="red" role="alert" title={t('reseller.loadFailed')}>
        {saveErrorText(t, users.error)}
        <Button size="xs" variant="light" ml="sm" onClick={users.retry}>{t('collection.retry')}</Button>
      </Alert>
    );
  }
  // The list is the tree; the reseller itself is never one of its own users.
  const treeUsers = users.items.filter((u) => u.id !== me.id).length;
  const summary = resellerSummary(me, treeUsers, deviceCount);
  return (
    <Stack gap="md">
      <Text size="sm" c="gray.8">{t('reseller.intro')}</Text>
      <FigureRow label={t('reseller.users')} value={summary.users} testId="reseller-users" />
      <FigureRow label={t('reseller.devices')} value={summary.devices} testId="reseller-devices" />
      <dl className="reseller-facts">
        <dt>{t('reseller.domain')}</dt>
        <dd data-testid="reseller-domain">{summary.fields.domain ?? t('reseller.noDomain')}</dd>
        <dt>{t('reseller.subResellers')}</dt>
        <dd data-testid="reseller-sub">{t(summary.fields.subReseller || me.administrator ? 'collection.yes' : 'collection.no')}</dd>
      </dl>
    </Stack>
  );
}

export default function ResellerDialog({ onClose }: { onClose(): void }) {
  useTexts('users');
  const { t } = useTranslation();
  const mobile = useMediaQuery('(max-width: 768px)');
  const me = useSession((s) => s.user);
  return (
    <Modal opened onClose={onClose} title={t('reseller.title')} size="md" fullScreen={mobile} zIndex={300}
      closeButtonProps={{ 'aria-label': t('collection.close') }}>
      {me && <Body me={me} />}
    </Modal>
  );
}
