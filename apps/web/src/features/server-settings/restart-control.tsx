// "Restart server" in the settings dialog's footer: a confirmation that says it may take
// minutes, then POST /api/server/restart, then a wait (wait-for-server.ts) that tells the
// administrator when the server answers again and refreshes the session's server info.
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';
import { saveErrorText } from '../../ui/collection/save-error.ts';
import { probeInstance, refreshServerInfo, requestRestart } from './server-api.ts';
import { waitForServer } from './wait-for-server.ts';

/** How long the dialog waits before saying the server is late (the server may take minutes). */
export const RESTART_PATIENCE_MS = 5 * 60_000;

type Phase =
  | { kind: 'idle' }
  | { kind: 'confirm' }
  | { kind: 'asking' }
  | { kind: 'waiting'; previous: string | null }
  | { kind: 'back' }
  | { kind: 'late'; previous: string | null }
  | { kind: 'failed'; message: string };

export function RestartControl({ disabled }: { disabled?: boolean }) {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  async function wait(previous: string | null) {
    setPhase({ kind: 'waiting', previous });
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    const result = await waitForServer({ previous, probe: probeInstance, timeoutMs: RESTART_PATIENCE_MS, signal: controller.signal });
    if (result === 'cancelled') return;
    if (result === 'late') return setPhase({ kind: 'late', previous });
    await refreshServerInfo().catch(() => undefined);
    setPhase({ kind: 'back' });
  }

  async function restart() {
    setPhase({ kind: 'asking' });
    let previous: string | null;
    try {
      previous = await requestRestart();
    } catch (error) {
      return setPhase({ kind: 'failed', message: t('server.restart.failed', { error: saveErrorText(t, error) }) });
    }
    await wait(previous);
  }

  const close = () => {
    abort.current?.abort();
    setPhase({ kind: 'idle' });
  };
  // While the request is out or the server is away there is nothing to close to.
  const busy = phase.kind === 'asking' || phase.kind === 'waiting';

  return (
    <>
      <Button variant="outline" color="red.9" onClick={() => setPhase({ kind: 'confirm' })} disabled={disabled} data-testid="server-restart">
        {t('server.restart.button')}
      </Button>
      <Modal opened={phase.kind !== 'idle'} onClose={busy ? () => undefined : close} zIndex={400} title={t('server.restart.title')}
        withCloseButton={!busy} closeOnEscape={!busy} closeOnClickOutside={!busy} closeButtonProps={{ 'aria-label': t('server.restart.close') }}>
        <Stack gap="sm" data-testid="server-restart-dialog" data-phase={phase.kind}>
          {(phase.kind === 'confirm' || phase.kind === 'asking') && (
            <>
              <Text size="sm">{t('server.restart.body')}</Text>
              <Group justify="flex-end" gap="xs">
                <Button variant="default" onClick={close} disabled={busy}>{t('server.restart.cancel')}</Button>
                <Button color="red.8" onClick={restart} loading={busy}>{t('server.restart.confirm')}</Button>
              </Group>
            </>
          )}
          {phase.kind === 'waiting' && (
            <Group gap="sm" wrap="nowrap" role="status">
              <Loader size="sm" aria-hidden="true" />
              <Text size="sm">{t('server.restart.restarting')}</Text>
            </Group>
          )}
          {phase.kind === 'back' && (
            <>
              <Alert color="green" role="status">{t('server.restart.back')}</Alert>
              <Group justify="flex-end"><Button onClick={close}>{t('server.restart.close')}</Button></Group>
            </>
          )}
          {phase.kind === 'late' && (
            <>
              <Alert color="yellow" role="alert">{t('server.restart.late', { minutes: RESTART_PATIENCE_MS / 60_000 })}</Alert>
              <Group justify="flex-end" gap="xs">
                <Button variant="default" onClick={close}>{t('server.restart.close')}</Button>
                <Button onClick={() => void wait(phase.previous)}>{t('server.restart.keepWaiting')}</Button>
              </Group>
            </>
          )}
          {phase.kind === 'failed' && (
            <>
              <Alert color="red" role="alert">{phase.message}</Alert>
              <Group justify="flex-end"><Button onClick={close}>{t('server.restart.close')}</Button></Group>
            </>
          )}
        </Stack>
      </Modal>
    </>
  );
}
