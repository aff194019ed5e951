// The device's actions, each shown only when the user may use it: lock/unlock, anchor, send a
// command, follow, Google Maps / Street View, edit, delete.
import { useEffect, useState } from 'react';
import { Alert, Button, CloseButton, Group, Menu } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useNavigate, useSearchParams } from 'react-router';
import type { Device, Position } from '@rastro/domain/entities';
import { isValidCoordinate } from '@rastro/domain/coordinates';
import { hasPermission, PERMISSION_BITS } from '@rastro/domain/permissions';
import { api, HttpError } from '../../api/http.ts';
import { useSession } from '../../app/session-store.ts';
import { useLive } from '../../live/live-store.ts';
import { setOnlyDevice, useDeviceFilters } from '../../live/visible-devices.ts';
import {
  anchorOf, createAnchor, lockCommand, removeAnchor, savedCommandsOf, sendCommand, type Geofence, type LockAction, type SendResult,
} from '../commands-ui/index.ts';
import { ConfirmDialog } from '../commands-ui/index.ts';
import { CommandLifecycle } from '../commands-ui/index.ts';
import { showEntry } from '../commands-ui/index.ts';
import { deliveredBy, markDelivered, recordSent, usePending } from '../commands-ui/index.ts';
import { SendCommandDialog } from '../commands-ui/index.ts';
import { openDeviceEditor } from '../device-editor/index.ts';
import { anchorIn, geofencesQuery, updateAnchorCache } from '../devices/index.ts';
import { googleMapsUrl, streetViewUrl } from './format.ts';
import { DeviceLinks } from './device-links.tsx';
import { setFollowing, useFollowing, useSelectOnMap } from './map-follow.ts';

type Dialog =
  | { kind: 'lock'; action: LockAction }
  | { kind: 'anchor'; existing: Geofence | null }
  | { kind: 'command' }
  | { kind: 'delete' };

interface Notice {
  color: 'red' | 'green' | 'yellow' | 'blue';
  text: string;
}

const truthy = (v: unknown) => v === true || v === 'true';

export function useDeviceAbilities() {
  const user = useSession((s) => s.user);
  const info = useSession((s) => s.serverInfo);
  if (!user || !info) return null;
  const server = { plus: info.plus, attributes: info.server.attributes };
  const can = (bit: number) => hasPermission(user, server, bit);
  const admin = user.administrator;
  const restricted = (flag: 'readonly' | 'deviceReadonly' | 'limitCommands') =>
    !admin && (truthy(user[flag]) || truthy(info.server[flag]));
  const lockEnabled = info.server.attributes?.['tarkan.enableLockUnlock'] !== false && info.server.attributes?.['tarkan.enableLockUnlock'] !== 'false';
  // limitCommands: only saved commands may be sent (the server refuses the others).
  const commands = !restricted('readonly');
  const edits = !restricted('readonly') && !restricted('deviceReadonly');
  return {
    lock: lockEnabled && commands && can(PERMISSION_BITS.devicesLock),
    unlock: lockEnabled && commands && can(PERMISSION_BITS.devicesUnlock),
    command: commands && can(PERMISSION_BITS.devicesCommand),
    savedOnly: restricted('limitCommands'),
    anchor: info.plus && !restricted('readonly') && can(PERMISSION_BITS.devicesAnchor),
    edit: edits && can(PERMISSION_BITS.devicesEdit),
    remove: edits && can(PERMISSION_BITS.devicesDelete),
  };
}

/** Pending notice for a Traccar server, which keeps no command lifecycle. */
function PendingNotice({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation();
  const pending = usePending((s) => s.byDevice[deviceId]);
  const events = useLive((s) => s.events);
  const position = useLive((s) => s.positions[deviceId]);
  useEffect(() => {
    if (pending?.state !== 'pending') return;
    const at = deliveredBy(pending, events, position);
    if (at !== null) markDelivered(deviceId, at);
  }, [pending, events, position, deviceId]);
  if (!pending) return null;
  const time = new Date(pending.at).toLocaleTimeString(i18n.language);
  const text = pending.state === 'pending'
    ? t('device.command.pending', { command: pending.label, time })
    : pending.state === 'delivered'
      ? t('device.command.delivered', { command: pending.label, time: new Date(pending.deliveredAt ?? Date.now()).toLocaleTimeString(i18n.language) })
      : t('device.command.sent', { command: pending.label, time });
  return (
    <Alert color={pending.state === 'pending' ? 'yellow' : 'green'} role="status" data-testid="command-state" data-state={pending.state} p="xs">
      {text}
    </Alert>
  );
}

export function DeviceActions({ device, position }: { device: Device; position: Position | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const can = useDeviceAbilities();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const following = useFollowing(device.id);
  const queryClient = useQueryClient();
  // The session's geofence list (loaded once with the shell) says whether this device is anchored.
  const geofences = useQuery({ ...geofencesQuery, enabled: can?.anchor === true });
  const anchor = { data: geofences.data ? anchorIn(geofences.data, device.id) : undefined };
  // ?edit=1 opens the editor on load (tarkan-reference §3.9).
  const [search, setSearch] = useSearchParams();
  const editOnLoad = search.get('edit') === '1' && can?.edit === true;
  useEffect(() => {
    if (!editOnLoad) return;
    openDeviceEditor(device.id);
    setSearch((p) => { p.delete('edit'); return p; }, { replace: true });
  }, [editOnLoad, device.id, setSearch]);
  const hasPosition = position !== undefined;
  const onlyThis = useDeviceFilters((s) => s.filters.onlyDeviceId === device.id);
  useSelectOnMap(device.id, hasPosition);

  if (!can) return null;
  // Following, external links and anchors need a usable fix (spec §5: non-zero, in range).
  const hasFix = position !== undefined && isValidCoordinate(position.latitude, position.longitude);
  const fail = (e: unknown, fallback: string) =>
    setNotice({ color: 'red', text: e instanceof HttpError && e.code !== 'UNKNOWN_ERROR' ? t([`device.errors.${e.code}`, `errors.${e.code}`, fallback]) : t(fallback) });

  /** The system share sheet where there is one, else the clipboard. */
  async function share(url: string) {
    setNotice(null);
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: t('device.share.text', { name: device.name }), url });
        return;
      } catch (e) {
        if (e instanceof DOMException && e.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setNotice({ color: 'green', text: t('device.share.copied') });
    } catch {
      setNotice({ color: 'red', text: t('device.share.failed', { url }) });
    }
  }

  const cancel = () => {
    setDialog(null);
    setNotice({ color: 'blue', text: t('device.actions.cancelled') });
  };

  /** A sent command shows in the lifecycle list (Rastro), or as the pending notice (Traccar). */
  const sent = (result: SendResult, label: string) => {
    if (result.commandLog) showEntry(queryClient, result.commandLog);
    else recordSent(device.id, label, result.queued, result.at);
  };

  async function startAnchor() {
    setNotice(null);
    setBusy(true);
    try {
      const existing = await anchorOf(device.id);
      updateAnchorCache(queryClient, device.id, existing);
      if (!existing && !hasFix) {
        setNotice({ color: 'yellow', text: t('device.anchor.needsPosition') });
        return;
      }
      setDialog({ kind: 'anchor', existing });
    } catch (e) {
      fail(e, 'device.errors.anchorFailed');
    } finally {
      setBusy(false);
    }
  }

  async function confirm() {
    if (!dialog) return;
    setBusy(true);
    try {
      if (dialog.kind === 'lock') {
        const saved = await savedCommandsOf(device.id).catch(() => []);
        const result = await sendCommand(lockCommand(dialog.action, device.id, saved));
        sent(result, t(`device.actions.${dialog.action}`));
        setNotice(null);
      } else if (dialog.kind === 'anchor') {
        if (dialog.existing) {
          await removeAnchor(dialog.existing.id);
          updateAnchorCache(queryClient, device.id, null);
          setNotice({ color: 'green', text: t('device.anchor.removed') });
        } else if (position) {
          updateAnchorCache(queryClient, device.id, await createAnchor(device.id, device.name, position));
          setNotice({ color: 'green', text: t('device.anchor.created') });
        }
      } else if (dialog.kind === 'delete') {
        await api.delete(`/devices/${device.id}`);
        useLive.setState((s) => {
          const devices = { ...s.devices };
          delete devices[device.id];
          // Positions live in one record updated in place (live-store): remove there, bump its version.
          delete s.positions[device.id];
          return { devices, positionsVersion: s.positionsVersion + 1 };
        });
        setDialog(null);
        navigate('/devices');
        return;
      }
      setDialog(null);
    } catch (e) {
      setDialog(null);
      fail(e, dialog.kind === 'delete' ? 'device.errors.deleteFailed' : dialog.kind === 'anchor' ? 'device.errors.anchorFailed' : 'device.errors.commandFailed');
    } finally {
      setBusy(false);
    }
  }

  const dialogText = () => {
    if (!dialog) return { title: '', body: '', confirm: '' };
    if (dialog.kind === 'lock') {
      return { title: t(`device.actions.${dialog.action}`), body: t(`device.confirm.${dialog.action}`, { name: device.name }), confirm: t(`device.actions.${dialog.action}`) };
    }
    if (dialog.kind === 'anchor') {
      return dialog.existing
        ? { title: t('device.anchor.disable'), body: t('device.confirm.anchorOff', { name: device.name }), confirm: t('device.anchor.disable') }
        : { title: t('device.anchor.enable'), body: t('device.confirm.anchorOn', { name: device.name }), confirm: t('device.anchor.enable') };
    }
    return { title: t('device.actions.delete'), body: t('device.confirm.delete', { name: device.name }), confirm: t('device.actions.delete') };
  };
  const texts = dialogText();

  return (
    <>
      <Group gap={6} className="dd-actions" role="toolbar" aria-label={t('device.actions.label')}>
        {can.lock && <Button size="compact-sm" variant="outline" color="#b42318" onClick={() => { setNotice(null); setDialog({ kind: 'lock', action: 'lock' }); }}>{t('device.actions.lock')}</Button>}
        {can.unlock && <Button size="compact-sm" variant="outline" color="#15803d" onClick={() => { setNotice(null); setDialog({ kind: 'lock', action: 'unlock' }); }}>{t('device.actions.unlock')}</Button>}
        {can.anchor && <Button size="compact-sm" variant={anchor.data ? 'filled' : 'light'} aria-pressed={anchor.data ? true : anchor.data === null ? false : undefined}
          title={anchor.data ? t('device.anchor.disable') : t('device.anchor.enable')} onClick={startAnchor} loading={busy && !dialog}>{t('device.actions.anchor')}</Button>}
        {can.command && <Button size="compact-sm" variant="light" onClick={() => { setNotice(null); setDialog({ kind: 'command' }); }}>{t('device.actions.command')}</Button>}
        {hasFix && (
          <Button size="compact-sm" variant={following ? 'filled' : 'light'} aria-pressed={following} onClick={() => setFollowing(device.id, !following)}>
            {following ? t('device.actions.unfollow') : t('device.actions.follow')}
          </Button>
        )}
        {hasFix && (
          <Menu withinPortal zIndex={500}>
            <Menu.Target><Button size="compact-sm" variant="light">{t('device.actions.openExternal')}</Button></Menu.Target>
            <Menu.Dropdown>
              <Menu.Item component="a" href={googleMapsUrl(position.latitude, position.longitude)} target="_blank" rel="noopener noreferrer">
                {t('device.actions.googleMaps')}
              </Menu.Item>
              <Menu.Item component="a" href={streetViewUrl(position.latitude, position.longitude, position.course)} target="_blank" rel="noopener noreferrer">
                {t('device.actions.streetView')}
              </Menu.Item>
              <Menu.Divider />
              <Menu.Label>{t('device.share.title')}</Menu.Label>
              <Menu.Item onClick={() => void share(googleMapsUrl(position.latitude, position.longitude))}>{t('device.share.googleMaps')}</Menu.Item>
              <Menu.Item onClick={() => void share(streetViewUrl(position.latitude, position.longitude, position.course))}>{t('device.share.streetView')}</Menu.Item>
            </Menu.Dropdown>
          </Menu>
        )}
        {hasPosition && (
          <Button size="compact-sm" variant={onlyThis ? 'filled' : 'light'} aria-pressed={onlyThis} title={t('device.actions.onlyThisHint')}
            onClick={() => setOnlyDevice(onlyThis ? null : device.id)}>
            {t('device.actions.onlyThis')}
          </Button>
        )}
        {can.edit && <Button size="compact-sm" variant="light" onClick={() => openDeviceEditor(device.id)}>{t('device.actions.edit')}</Button>}
        {can.edit && <DeviceLinks device={device} />}
        {can.remove && <Button size="compact-sm" variant="outline" color="#b42318" onClick={() => { setNotice(null); setDialog({ kind: 'delete' }); }}>{t('device.actions.delete')}</Button>}
      </Group>
      <PendingNotice deviceId={device.id} />
      <CommandLifecycle deviceId={device.id} canCancel={can.command || can.lock || can.unlock} />
      {notice && (
        <Alert color={notice.color} role={notice.color === 'red' ? 'alert' : 'status'} p="xs" data-testid="device-notice"
          withCloseButton={false}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <span>{notice.text}</span>
            <CloseButton size="sm" aria-label={t('device.actions.dismiss')} onClick={() => setNotice(null)} />
          </Group>
        </Alert>
      )}
      <ConfirmDialog opened={!!dialog && dialog.kind !== 'command'} title={texts.title} confirmLabel={texts.confirm}
        danger={dialog?.kind === 'delete' || (dialog?.kind === 'lock' && dialog.action === 'lock')} busy={busy}
        onConfirm={confirm} onCancel={cancel}>
        {texts.body}
      </ConfirmDialog>
      <SendCommandDialog deviceId={device.id} savedOnly={can.savedOnly} opened={dialog?.kind === 'command'}
        onClose={(cancelled) => (cancelled ? cancel() : setDialog(null))}
        onSent={(result, label) => { setDialog(null); sent(result, label); }} />
    </>
  );
}
