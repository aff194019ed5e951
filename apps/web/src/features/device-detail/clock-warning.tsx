// The device detail's clock warning (issue 11, point 7): a tracker whose clock is off — often
// set to local time instead of UTC — dates its positions hours ahead (they are stored but never
// shown as its position) or behind (they look old). GET /api/devices/{id}/clock says so; this
// warns and says how to fix it. It also flags a decoder.timezone the server does not understand.
import { Alert, Button, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation.ts';
import { offsetParts, type DeviceClock } from '@rastro/domain/device-clock';
import { api } from '../../api/http.ts';
import { openDeviceEditor } from '../device-editor/index.ts';
import { useDeviceAbilities } from './device-actions.tsx';

const REFRESH_MS = 60_000;

export function useOffsetText() {
  const { t } = useTranslation();
  return (offsetMs: number) => {
    const { hours, minutes } = offsetParts(offsetMs);
    if (hours === 0) return t('device.clock.minutes', { minutes });
    return minutes === 0 ? t('device.clock.hours', { hours }) : t('device.clock.hoursMinutes', { hours, minutes });
  };
}

/** Nothing while the clock is fine (or unknown); a warning with the fix otherwise. */
export function ClockWarning({ deviceId, reported }: { deviceId: number; reported: boolean }) {
  const { t, i18n } = useTranslation();
  const canEdit = useDeviceAbilities()?.edit === true;
  const offsetText = useOffsetText();
  const clock = useQuery({
    queryKey: ['device-clock', deviceId],
    queryFn: () => api.get<DeviceClock>(`/devices/${deviceId}/clock`),
    enabled: reported,
    refetchInterval: REFRESH_MS,
    staleTime: REFRESH_MS / 2,
  });
  const c = clock.data;
  if (!c) return null;
  const off = (c.state === 'ahead' || c.state === 'behind') && c.offset !== null;
  if (!off && c.timezoneValid) return null;
  const received = c.serverTime ? new Date(c.serverTime).toLocaleString(i18n.language) : '';
  return (
    <Alert color="yellow" role="alert" p="xs" data-testid="device-clock-warning" data-state={c.state}>
      {/* A title of its own: Mantine's yellow alert title is too pale to read (contrast). */}
      <Text size="sm" fw={700}>{off ? t(c.state === 'ahead' ? 'device.clock.aheadTitle' : 'device.clock.behindTitle') : t('device.clock.timezoneTitle')}</Text>
      {off && <Text size="sm">{t(c.state === 'ahead' ? 'device.clock.ahead' : 'device.clock.behind', { offset: offsetText(c.offset!), time: received })}</Text>}
      {!c.timezoneValid && <Text size="sm">{t('device.clock.timezoneInvalid', { value: c.timezone ?? '' })}</Text>}
      <Text size="sm" mt={4}>{t('device.clock.fix')}</Text>
      {canEdit && <Button size="compact-sm" variant="light" mt="xs" onClick={() => openDeviceEditor(deviceId)}>{t('device.clock.edit')}</Button>}
    </Alert>
  );
}
