// The device log: the raw frames a tracker sends, live, for diagnosing it (issue 11, point 8).
// Opening the dialog turns the socket's `{"logs": true}` on (live/device-logs.ts) and closing it
// turns it off again, so the server formats frames only while someone looks. Administrators
// and managers see the entry; the server sends each user only the frames of devices they see.
import { useEffect, useRef, useState } from 'react';
import { Alert, Badge, Button, Group, Modal, Stack, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from '../../i18n/use-translation.ts';
import type { Device } from '@rastro/domain/entities';
import { useSession } from '../../app/session-store.ts';
import { useLive } from '../../live/live-store.ts';
import { subscribeDeviceLogs } from '../../live/device-logs.ts';
import { addRows, frameText, isFrameOf, mayViewDeviceLog, type LogRow } from './device-log-rules.ts';

let rowSeq = 0;

const CopyIcon = () => (
  <svg width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} aria-hidden="true">
    <rect x="9" y="9" width="11" height="11" rx="2" />
    <path d="M5 15V5a2 2 0 0 1 2-2h10" />
  </svg>
);

/** Frames of the device while mounted; `paused` holds them back (still counted and kept). */
function useDeviceFrames(deviceId: number, uniqueId: string, paused: boolean) {
  const [rows, setRows] = useState<LogRow[]>([]);
  const [held, setHeld] = useState<LogRow[]>([]);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  useEffect(() => {
    return subscribeDeviceLogs((frames) => {
      const now = Date.now();
      const mine = frames.filter((f) => isFrameOf(f, { id: deviceId, uniqueId })).map((f) => ({ ...f, key: ++rowSeq, at: typeof f.time === 'number' ? f.time : now }));
      if (mine.length === 0) return;
      if (pausedRef.current) setHeld((h) => addRows(h, mine));
      else setRows((r) => addRows(r, mine));
    });
  }, [deviceId, uniqueId]);
  // Resuming shows what arrived meanwhile.
  useEffect(() => {
    if (paused || held.length === 0) return;
    setRows((r) => addRows(r, [...held].reverse()));
    setHeld([]);
  }, [paused, held]);
  const clear = () => {
    setRows([]);
    setHeld([]);
  };
  return { rows, held: held.length, clear };
}

function DeviceLogBody({ device }: { device: Device }) {
  const { t, i18n } = useTranslation();
  const [paused, setPaused] = useState(false);
  const [copied, setCopied] = useState<number | null>(null);
  const [copyFailed, setCopyFailed] = useState(false);
  const socket = useLive((s) => s.socket);
  const { rows, held, clear } = useDeviceFrames(device.id, device.uniqueId, paused);
  const time = (ms: number) => {
    const d = new Date(ms);
    return `${d.toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit', second: '2-digit' })}.${String(d.getMilliseconds()).padStart(3, '0')}`;
  };

  async function copy(row: LogRow) {
    setCopyFailed(false);
    try {
      await navigator.clipboard.writeText(frameText(row));
      setCopied(row.key);
    } catch {
      setCopyFailed(true);
    }
  }

  return (
    <Stack gap="xs" data-testid="device-log">
      <Group gap="xs" justify="space-between" wrap="wrap">
        <Group gap="xs">
          <Button size="compact-sm" variant={paused ? 'filled' : 'light'} aria-pressed={paused} onClick={() => setPaused((p) => !p)}>
            {paused ? t('device.log.resume') : t('device.log.pause')}
          </Button>
          <Button size="compact-sm" variant="light" onClick={clear} disabled={rows.length === 0 && held === 0}>{t('device.log.clear')}</Button>
        </Group>
        <Text size="xs" c="gray.7" role="status" aria-live="polite" data-testid="device-log-count">
          {paused && held > 0 ? t('device.log.held', { count: held }) : rows.length > 0 ? t('device.log.count', { count: rows.length }) : ''}
        </Text>
      </Group>
      {socket !== 'open' && <Alert color="yellow" role="alert" p="xs" data-testid="device-log-offline">{t('device.log.offline')}</Alert>}
      {copyFailed && <Alert color="red" role="alert" p="xs">{t('device.log.copyFailed')}</Alert>}
      {rows.length === 0 ? (
        <Text size="sm" c="gray.7" data-testid="device-log-empty">{t('device.log.empty')}</Text>
      ) : (
        <ol className="dd-log" aria-label={t('device.log.listLabel', { name: device.name })}>
          {rows.map((row) => (
            <li key={row.key} className="dd-log-row" data-testid="device-log-frame">
              <div className="dd-log-meta">
                <time dateTime={new Date(row.at).toISOString()}>{time(row.at)}</time>
                <Badge size="xs" variant="light" color="gray">{row.protocol}</Badge>
                <span className="dd-log-host">{row.host}</span>
                <UnstyledButton className="dd-log-copy" onClick={() => void copy(row)}
                  aria-label={copied === row.key ? t('device.log.copied') : t('device.log.copy')} title={copied === row.key ? t('device.log.copied') : t('device.log.copy')}>
                  <CopyIcon />
                </UnstyledButton>
              </div>
              <code className="dd-log-data">{row.data}</code>
            </li>
          ))}
        </ol>
      )}
    </Stack>
  );
}

/** The entry in the device detail: a button (administrators and managers) and its dialog. */
export function DeviceLogEntry({ device }: { device: Device }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const mobile = useMediaQuery('(max-width: 768px)');
  const [opened, setOpened] = useState(false);
  if (!mayViewDeviceLog(user)) return null;
  return (
    <section aria-labelledby="dd-log" className="dd-section">
      <h3 id="dd-log" className="dd-h">{t('device.log.title')}</h3>
      <Text size="sm" c="gray.7">{t('device.log.hint')}</Text>
      <Button size="compact-sm" variant="light" mt="xs" aria-haspopup="dialog" onClick={() => setOpened(true)} data-testid="device-log-open">
        {t('device.log.open')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} size="xl" fullScreen={mobile} zIndex={300}
        title={t('device.log.dialogTitle', { name: device.name })} closeButtonProps={{ 'aria-label': t('device.actions.close') }}>
        {opened && <DeviceLogBody device={device} />}
      </Modal>
    </section>
  );
}
