// Send a saved command of the device or a type the device supports (GET /api/commands/types),
// with its parameters (custom: the text payload `data`).
import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation.ts';
import { HttpError } from '../../api/http.ts';
import { commandTypesOf, savedCommandsOf, sendCommand, type SendResult } from './commands-api.ts';

/** Parameters a type needs (traccar-reference A.7 attribute keys). */
export const TYPE_PARAMS: Record<string, string[]> = {
  custom: ['data'],
  positionPeriodic: ['frequency'],
  setTimezone: ['timezone'],
  sendSms: ['phone', 'message'],
  sendUssd: ['phone'],
  sosNumber: ['index', 'phone'],
  silenceTime: ['data'],
  message: ['message'],
  outputControl: ['index', 'data'],
  setIndicator: ['data'],
  configuration: ['data'],
  setConnection: ['server', 'port'],
  setOdometer: ['data'],
  setSpeedLimit: ['data'],
  alarmSpeed: ['data'],
  voiceMonitoring: ['enable'],
  modePowerSaving: ['enable'],
  modeDeepSleep: ['enable'],
  alarmGeofence: ['radius'],
};

export function SendCommandDialog({ deviceId, savedOnly = false, opened, onClose, onSent }: {
  deviceId: number;
  /** The account may only send saved commands (limitCommands). */
  savedOnly?: boolean;
  opened: boolean;
  onClose(cancelled: boolean): void;
  onSent(result: SendResult, label: string): void;
}) {
  const { t } = useTranslation();
  const saved = useQuery({ queryKey: ['commands/send', deviceId], queryFn: () => savedCommandsOf(deviceId), enabled: opened });
  const types = useQuery({ queryKey: ['commands/types', deviceId], queryFn: () => commandTypesOf(deviceId), enabled: opened && !savedOnly });
  const [choice, setChoice] = useState<string | null>(null);
  const [params, setParams] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const typeLabel = (type: string) => t(`device.commandTypes.${type}`, { defaultValue: type });
  const options = [
    ...(saved.data?.length ? [{ group: t('device.command.saved'), items: saved.data.map((c) => ({ value: `saved:${c.id}`, label: c.description || typeLabel(c.type) })) }] : []),
    ...(!savedOnly && types.data?.length ? [{ group: t('device.command.types'), items: types.data.map((c) => ({ value: `type:${c.type}`, label: typeLabel(c.type) })) }] : []),
  ];
  const type = choice?.startsWith('type:') ? choice.slice(5) : null;
  const needed = type ? TYPE_PARAMS[type] ?? [] : [];
  const missing = needed.some((k) => k !== 'enable' && !(params[k] ?? '').trim());

  async function send() {
    if (!choice) return;
    setBusy(true);
    setError(null);
    try {
      let body: Record<string, unknown>;
      let label: string;
      if (choice.startsWith('saved:')) {
        const cmd = saved.data!.find((c) => `saved:${c.id}` === choice)!;
        body = { ...cmd, deviceId };
        label = cmd.description || typeLabel(cmd.type);
      } else {
        const attributes: Record<string, unknown> = {};
        for (const k of needed) attributes[k] = k === 'enable' ? params[k] === 'true' : params[k]!.trim();
        body = { deviceId, type, attributes };
        label = typeLabel(type!);
      }
      const result = await sendCommand(body);
      setChoice(null);
      setParams({});
      onSent(result, label);
    } catch (e) {
      setError(e instanceof HttpError ? t([`device.errors.${e.code}`, `errors.${e.code}`, 'device.errors.commandFailed']) : t('device.errors.commandFailed'));
    } finally {
      setBusy(false);
    }
  }

  const loading = saved.isLoading || types.isLoading;
  return (
    <Modal closeButtonProps={{ 'aria-label': t('device.actions.close') }} opened={opened} onClose={() => onClose(true)} title={t('device.command.title')} centered zIndex={400}>
      <Stack>
        {loading && <Group><Loader size="sm" /><Text size="sm">{t('device.loading')}</Text></Group>}
        {(saved.isError || types.isError) && <Alert color="red" role="alert">{t('device.errors.commandsLoad')}</Alert>}
        {!loading && (
          <Select label={t('device.command.choose')} data={options} value={choice} onChange={(v) => { setChoice(v); setParams({}); }}
            searchable comboboxProps={{ zIndex: 500 }} nothingFoundMessage={t('device.command.none')} />
        )}
        {needed.map((k) => k === 'enable'
          ? <Switch key={k} label={t(`device.command.params.${k}`)} checked={params[k] === 'true'}
              onChange={(e) => setParams((p) => ({ ...p, [k]: String(e.currentTarget.checked) }))} />
          : <TextInput key={k} label={t(`device.command.params.${k}`)} value={params[k] ?? ''} required
              onChange={(e) => { const v = e.currentTarget.value; setParams((p) => ({ ...p, [k]: v })); }} />)}
        {choice && <Text size="xs" c="gray.7">{t('device.command.warning')}</Text>}
        {error && <Alert color="red" role="alert">{error}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => onClose(true)} disabled={busy}>{t('device.actions.cancel')}</Button>
          <Button onClick={send} disabled={!choice || missing} loading={busy}>{t('device.command.send')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
