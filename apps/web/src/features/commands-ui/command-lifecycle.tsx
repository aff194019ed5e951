// The device's recent commands with their lifecycle (device detail): pending and why (device
// offline, waiting for its next report, waiting for the vehicle to slow down), sent, acknowledged
// with the device's reply, confirmed by a position, or failed — each step with its time — and a
// cancel button for a pending one.
//
// Changes arrive by polling GET /api/commands/log while a command is in flight (every few
// seconds, and at once when a position of the device arrives, since it may carry the reply or
// the effect); nothing is polled once every command has ended. Against a Traccar server the
// list is simply absent (the route does not exist there).
import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation.ts';
import { isInFlight, type CommandLogEntry, type CommandStatus } from '@rastro/domain/command-log';
import { HttpError } from '../../api/http.ts';
import { useLive } from '../../live/live-store.ts';
import { cancelCommand, commandLogKey, commandLogOf, showEntry } from './command-log-api.ts';
import { commandDetailKey, commandLabel, commandSteps, stepTime } from './command-log-text.ts';
import './command-lifecycle.css';

/** Polling period while a command is in flight. */
export const COMMAND_POLL_MS = 3_000;

/** Badge colours, dark enough for white text (WCAG AA), in the detail's status palette. */
const STATUS_COLORS: Record<CommandStatus, string> = {
  queued: '#8a5a00',
  sent: '#1c5fb8',
  acknowledged: '#0b6e7f',
  confirmed: '#15803d',
  failed: '#b42318',
};

export function useCommandLog(deviceId: number) {
  const log = useQuery({
    queryKey: commandLogKey(deviceId),
    queryFn: () => commandLogOf(deviceId),
    retry: false,
    refetchInterval: (query) => (query.state.data?.some(isInFlight) ? COMMAND_POLL_MS : false),
  });
  const inFlight = log.data?.some(isInFlight) === true;
  // A new position of the device may carry the reply or show the effect.
  const positionTime = useLive((s) => s.positions[deviceId]?.serverTime);
  const { refetch } = log;
  useEffect(() => {
    if (inFlight && positionTime) void refetch();
  }, [positionTime, inFlight, refetch]);
  return log;
}

function Entry({ entry, latest, canCancel, busy, onCancel }: {
  entry: CommandLogEntry;
  latest: boolean;
  canCancel: boolean;
  busy: boolean;
  onCancel(entry: CommandLogEntry): void;
}) {
  const { t, i18n } = useTranslation();
  const label = commandLabel(entry, t);
  const detail = commandDetailKey(entry);
  return (
    <li className="cl-entry" data-testid={latest ? 'command-state' : 'command-entry'} data-state={entry.status} data-reason={entry.reason ?? undefined}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <span className="cl-label">{label}</span>
        <Badge color={STATUS_COLORS[entry.status]} variant="filled" size="sm" className="cl-status">{t(`device.commandLog.status.${entry.status}`)}</Badge>
      </Group>
      <p className="cl-steps">
        {commandSteps(entry).map((s, i) => (
          <span key={s.step}>
            {i > 0 && <span aria-hidden="true"> · </span>}
            {t(`device.commandLog.steps.${s.step}`)} <time dateTime={s.at}>{stepTime(s.at, i18n.language)}</time>
          </span>
        ))}
      </p>
      {detail && <p className="cl-detail">{t(`device.commandLog.${detail}`)}</p>}
      {entry.result !== null && <p className="cl-reply">{t('device.commandLog.reply', { text: entry.result })}</p>}
      {entry.status === 'queued' && canCancel && (
        <Button size="compact-xs" variant="outline" color="#b42318" mt={4} loading={busy}
          aria-label={t('device.commandLog.cancelLabel', { command: label })} onClick={() => onCancel(entry)}>
          {t('device.commandLog.cancel')}
        </Button>
      )}
    </li>
  );
}

export function CommandLifecycle({ deviceId, canCancel }: { deviceId: number; canCancel: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const log = useCommandLog(deviceId);
  const [cancelling, setCancelling] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const entries = log.data ?? [];
  if (entries.length === 0) return null;

  async function cancel(entry: CommandLogEntry) {
    setError(null);
    setCancelling(entry.id);
    try {
      showEntry(queryClient, await cancelCommand(entry.id));
    } catch (e) {
      setError(t(e instanceof HttpError && e.status === 400 ? 'device.commandLog.cancelTooLate' : 'device.commandLog.cancelFailed'));
      void log.refetch();
    } finally {
      setCancelling(null);
    }
  }

  return (
    <section className="dd-section cl-section" aria-labelledby={`cl-title-${deviceId}`} data-testid="command-log">
      <h3 id={`cl-title-${deviceId}`} className="dd-h">{t('device.commandLog.title')}</h3>
      <ol className="cl-list" aria-live="polite">
        {entries.map((entry, i) => (
          <Entry key={entry.id} entry={entry} latest={i === 0} canCancel={canCancel} busy={cancelling === entry.id} onCancel={cancel} />
        ))}
      </ol>
      {error && <Alert color="red" role="alert" p="xs" mt="xs">{error}</Alert>}
    </section>
  );
}
