// The QR driver rules (spec §6): unlock on check-in, log the driver out some minutes after the
// ignition turns off, lock a vehicle running without a driver after some minutes. A timeout is
// asked for only while its rule is on. QR driver check-in is a Plus feature.
import { Alert, NumberInput, Stack, Switch, Text } from '@mantine/core';
import { QR_MINUTES, type ServerSettingsForm } from '@rastro/domain/server-settings';
import { ERROR_PROPS, type EditorForm } from '../../ui/collection/editor-dialog.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';

type Rule = 'logoutOnIgnitionOff' | 'lockWithoutDriver';
const TIMEOUT: Record<Rule, 'logoutAfterMinutes' | 'lockAfterMinutes'> = { logoutOnIgnitionOff: 'logoutAfterMinutes', lockWithoutDriver: 'lockAfterMinutes' };

export function QrDriverTab({ form, plus }: { form: EditorForm<ServerSettingsForm>; plus: boolean }) {
  const { t } = useTranslation();
  const v = form.values;
  const rule = (name: Rule) => {
    const timeout = TIMEOUT[name];
    return (
      <div key={name}>
        <Switch label={t(`server.qr.${name}`)} description={t(`server.qr.${name}Hint`)} checked={v[name]} disabled={!plus}
          onChange={(e) => form.set(name, e.currentTarget.checked)} data-testid={`server-qr-${name}`} />
        <NumberInput ml={54} mt={6} maw={260} label={t(`server.qr.${timeout}`)} value={v[timeout]} min={QR_MINUTES.min} max={QR_MINUTES.max}
          allowDecimal={false} allowNegative={false} disabled={!plus || !v[name]} onChange={(value) => form.set(timeout, value)}
          error={form.error(timeout)} errorProps={ERROR_PROPS} data-testid={`server-qr-${timeout}`} />
      </div>
    );
  };
  return (
    <Stack gap="md">
      <Text size="sm" c="gray.8">{t('server.qr.intro', { min: QR_MINUTES.min, max: QR_MINUTES.max })}</Text>
      {!plus && <Alert color="gray" p="xs">{t('server.options.plusOnly')}</Alert>}
      {plus && !v.options.qrDriver && <Alert color="yellow" p="xs" data-testid="server-qr-off">{t('server.qr.needsCheckIn')}</Alert>}
      <Switch label={t('server.qr.unlockOnCheckIn')} description={t('server.qr.unlockOnCheckInHint')} checked={v.unlockOnCheckIn} disabled={!plus}
        onChange={(e) => form.set('unlockOnCheckIn', e.currentTarget.checked)} data-testid="server-qr-unlockOnCheckIn" />
      {rule('logoutOnIgnitionOff')}
      {rule('lockWithoutDriver')}
    </Stack>
  );
}
