// Permissions: what every user who is not an administrator may do (registration, read-only,
// read-only devices, sending commands — shown the right way round, as "send commands") and the
// server-wide device limit, which only the first administrator may move (tarkan-reference §5.2;
// the server refuses it too).
import { NumberInput, SegmentedControl, Stack, Switch, Text } from '@mantine/core';
import type { ServerSettingsForm } from '@rastro/domain/server-settings';
import { ERROR_PROPS, type EditorForm } from '../../ui/collection/editor-dialog.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';

type Flag = 'registration' | 'readonly' | 'deviceReadonly' | 'sendCommands';
const FLAGS: readonly Flag[] = ['registration', 'readonly', 'deviceReadonly', 'sendCommands'];

export function PermissionsTab({ form, mayChangeLimit }: { form: EditorForm<ServerSettingsForm>; mayChangeLimit: boolean }) {
  const { t } = useTranslation();
  const v = form.values;
  return (
    <Stack gap="md">
      {FLAGS.map((flag) => (
        <Switch key={flag} label={t(`server.permissions.${flag}`)} description={t(`server.permissions.${flag}Hint`)}
          checked={v[flag]} onChange={(e) => form.set(flag, e.currentTarget.checked)} data-testid={`server-${flag}`} />
      ))}
      <fieldset className="ss-fieldset" disabled={!mayChangeLimit}>
        <legend className="ss-legend">{t('server.permissions.deviceLimit')}</legend>
        <Text size="xs" c="gray.7" mb={6}>{t('server.permissions.deviceLimitHint')}</Text>
        <SegmentedControl value={v.deviceLimitUnlimited ? 'unlimited' : 'limited'} disabled={!mayChangeLimit}
          aria-label={t('server.permissions.deviceLimit')}
          data={[{ value: 'unlimited', label: t('server.permissions.unlimited') }, { value: 'limited', label: t('server.permissions.limited') }]}
          onChange={(value) => form.set('deviceLimitUnlimited', value === 'unlimited')} data-testid="server-device-limit-mode" />
        {!v.deviceLimitUnlimited && (
          <NumberInput mt="xs" label={t('server.permissions.deviceLimitCount')} value={v.deviceLimit} min={1} allowDecimal={false}
            allowNegative={false} onChange={(value) => form.set('deviceLimit', value)} error={form.error('deviceLimit')}
            errorProps={ERROR_PROPS} disabled={!mayChangeLimit} data-testid="server-device-limit" />
        )}
        {!mayChangeLimit && <Text size="xs" c="gray.7" mt={6} data-testid="server-device-limit-owner">{t('server.permissions.deviceLimitOwner')}</Text>}
      </fieldset>
    </Stack>
  );
}
