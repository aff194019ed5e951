// /devices/:deviceId — the device's fields, latest position, pinned and all attributes, and its
// actions (a side panel on desktop, a bottom sheet on mobile; the shell provides the chrome).
import { useEffect, useMemo, useState } from 'react';
import { Alert, Badge, Button, Collapse, Group, Loader, Menu, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useParams } from 'react-router';
import type { Position } from '@rastro/domain/entities';
import { api } from '../../api/http.ts';
import { useSession } from '../../app/session-store.ts';
import { useLive } from '../../live/live-store.ts';
import { DeviceActions } from './device-actions.tsx';
import { formatDistance } from '@rastro/domain/units';
import { ageParts, allAttributes, boolAttr, convertSpeed, distanceUnitOf, hoursMinutes, joinList, parseList, pinnedOf, speedUnitOf, valueOf } from './format.ts';
import { RecentEvents, RecentMotion, useRecentOptions } from './recent.tsx';
import { ClockWarning } from './clock-warning.tsx';
import { DeviceLogEntry } from './device-log.tsx';
import { LogsButton } from '../logs/index.ts';
import './device-detail.css';

function useNow(intervalMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(id);
  }, [intervalMs]);
  return now;
}

function Age({ iso }: { iso: string | null | undefined }) {
  const { i18n, t } = useTranslation();
  const now = useNow();
  const ms = iso ? Date.parse(iso) : NaN;
  if (!Number.isFinite(ms)) return <>{t('device.never')}</>;
  const { value, unit } = ageParts(ms, now);
  const rtf = new Intl.RelativeTimeFormat(i18n.language, { numeric: 'auto' });
  return <time dateTime={iso!} title={new Date(ms).toLocaleString(i18n.language)}>{rtf.format(-value, unit)}</time>;
}

function Row({ label, children, testId }: { label: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="dd-row" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function useFormatValue() {
  const { t, i18n } = useTranslation();
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.serverInfo?.server);
  const unit = speedUnitOf(user?.attributes, server?.attributes, i18n.language);
  const distanceUnit = distanceUnitOf(user?.attributes, server?.attributes, i18n.language);
  return (name: string, value: unknown): string => {
    if (value === null || value === undefined || value === '') return '—';
    if (typeof value === 'boolean') return value ? t('device.yes') : t('device.no');
    if (name === 'speed' && typeof value === 'number') return `${convertSpeed(value, unit)} ${t(`device.units.${unit}`)}`;
    if ((name === 'totalDistance' || name === 'distance' || name === 'odometer') && typeof value === 'number') {
      return formatDistance(value, distanceUnit, i18n.language);
    }
    // Engine hours are a counter in ms (reported, or counted from ignition by the server).
    if (name === 'hours' && typeof value === 'number') {
      const { h, m } = hoursMinutes(value);
      return t('device.recent.hours', { h, m });
    }
    if ((name === 'fixTime' || name === 'deviceTime' || name === 'serverTime') && typeof value === 'string') {
      const ms = Date.parse(value);
      return Number.isFinite(ms) ? new Date(ms).toLocaleString(i18n.language) : value;
    }
    return String(value);
  };
}

const PinIcon = ({ filled }: { filled: boolean }) => (
  <svg width={16} height={16} viewBox="0 0 24 24" fill={filled ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth={2} aria-hidden="true">
    <path d="M9 4h6l-1 6 3 3H7l3-3-1-6zM12 13v7" />
  </svg>
);

function Attributes({ position }: { position: Position | undefined }) {
  const { t } = useTranslation();
  const user = useSession((s) => s.user);
  const info = useSession((s) => s.serverInfo);
  const format = useFormatValue();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const pinned = pinnedOf(info?.server.attributes, user?.attributes);
  const isAdmin = user?.administrator === true;

  async function save(scope: 'server' | 'user', name: string, pin: boolean) {
    setError(null);
    try {
      if (scope === 'server' && info) {
        const current = await api.get<Record<string, unknown>>('/server');
        const attrs = { ...(current.attributes as Record<string, unknown>) };
        const list = parseList(attrs['tarkan.deviceAttributes']).filter((n) => n !== name);
        attrs['tarkan.deviceAttributes'] = joinList(pin ? [...list, name] : list);
        const saved = await api.put<typeof info.server>('/server', { ...current, attributes: attrs });
        useSession.getState().setServerInfo({ ...info, server: saved && typeof saved === 'object' ? saved : { ...info.server, attributes: attrs } });
      } else if (user) {
        const attrs = { ...user.attributes };
        const list = parseList(attrs['tarkan.deviceAttributes']).filter((n) => n !== name);
        attrs['tarkan.deviceAttributes'] = joinList(pin ? [...list, name] : list);
        const saved = await api.put<typeof user>(`/users/${user.id}`, { ...user, attributes: attrs });
        useSession.getState().setUser(saved && typeof saved === 'object' ? saved : { ...user, attributes: attrs });
      }
    } catch {
      setError(t('device.errors.pinFailed'));
    }
  }

  const all = allAttributes(position);
  return (
    <section aria-labelledby="dd-attrs" className="dd-section">
      <h3 id="dd-attrs" className="dd-h">{t('device.attributes.pinned')}</h3>
      {pinned.length === 0 ? <Text size="sm" c="gray.7">{t('device.attributes.nonePinned')}</Text> : (
        <dl className="dd-list" data-testid="pinned-attributes">
          {pinned.map((p) => (
            <Row key={p.name} label={t(`device.attributeNames.${p.name}`, { defaultValue: p.name })}>
              {format(p.name, valueOf(position, p.name))}
              {(p.scope === 'user' || isAdmin) && (
                <UnstyledButton className="dd-pin is-pinned" onClick={() => save(p.scope, p.name, false)}
                  aria-label={t('device.attributes.unpin', { name: p.name })} title={t('device.attributes.unpin', { name: p.name })}>
                  <PinIcon filled />
                </UnstyledButton>
              )}
            </Row>
          ))}
        </dl>
      )}
      {position && <Button variant="subtle" size="compact-sm" mt="xs" onClick={() => setOpen((v) => !v)} aria-expanded={open} aria-controls="dd-all">
        {open ? t('device.attributes.hideAll') : t('device.attributes.showAll')}
      </Button>}
      {error && <Alert color="red" role="alert" mt="xs">{error}</Alert>}
      {/* No height animation: the pin buttons must not move under the pointer while the
          list unfolds (a click landing mid-animation missed its menu). */}
      <Collapse expanded={open} id="dd-all" transitionDuration={0}>
        {all.length === 0 ? <Text size="sm" c="gray.7">{t('device.noPosition')}</Text> : (
          <Table striped withRowBorders={false} fz="sm" data-testid="all-attributes">
            <Table.Tbody>
              {all.map(([k, v]) => {
                const isPinned = pinned.some((p) => p.name === k);
                return (
                  <Table.Tr key={k}>
                    <Table.Td>{t(`device.attributeNames.${k}`, { defaultValue: k })}</Table.Td>
                    <Table.Td>{format(k, v)}</Table.Td>
                    <Table.Td w={40}>
                      {!isPinned && (isAdmin ? (
                        <Menu withinPortal zIndex={500}>
                          <Menu.Target>
                            <UnstyledButton className="dd-pin" aria-label={t('device.attributes.pin', { name: k })} title={t('device.attributes.pin', { name: k })}>
                              <PinIcon filled={false} />
                            </UnstyledButton>
                          </Menu.Target>
                          <Menu.Dropdown>
                            <Menu.Item onClick={() => save('server', k, true)}>{t('device.attributes.pinServer')}</Menu.Item>
                            <Menu.Item onClick={() => save('user', k, true)}>{t('device.attributes.pinUser')}</Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      ) : (
                        <UnstyledButton className="dd-pin" onClick={() => save('user', k, true)}
                          aria-label={t('device.attributes.pin', { name: k })} title={t('device.attributes.pin', { name: k })}>
                          <PinIcon filled={false} />
                        </UnstyledButton>
                      ))}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </Collapse>
    </section>
  );
}

function YesNo({ value }: { value: boolean | null }) {
  const { t } = useTranslation();
  return <>{value === null ? '—' : value ? t('device.yes') : t('device.no')}</>;
}

export function DeviceDetail() {
  const { t, i18n } = useTranslation();
  const recent = useRecentOptions();
  const params = useParams();
  const deviceId = Number(params.deviceId);
  const device = useLive((s) => s.devices[deviceId]);
  const position = useLive((s) => s.positions[deviceId]);
  const status = useLive((s) => s.status);
  const format = useFormatValue();
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.serverInfo?.server);
  const unit = useMemo(() => speedUnitOf(user?.attributes, server?.attributes, i18n.language), [user, server, i18n.language]);

  if (!device) {
    if (status === 'error') return <Alert color="red" role="alert" m="md" data-testid="device-error">{t('device.errors.load')}</Alert>;
    if (status === 'ready' || !Number.isInteger(deviceId)) {
      return <Alert color="yellow" role="alert" m="md" data-testid="device-not-found">{t('device.notFound')}</Alert>;
    }
    return <Group m="md" role="status"><Loader size="sm" /><Text size="sm">{t('device.loading')}</Text></Group>;
  }

  const a = position?.attributes ?? {};
  const power = typeof a.power === 'number' ? `${a.power.toFixed(1)} V` : null;
  const battery = typeof a.batteryLevel === 'number' ? `${a.batteryLevel} %` : typeof a.battery === 'number' ? `${a.battery.toFixed(2)} V` : null;
  const plate = (device.attributes?.plate ?? device.attributes?.placa) as string | undefined;
  // Dark enough for white text (WCAG AA), the map's status colours.
  const statusColor = device.status === 'online' ? '#15803d' : device.status === 'offline' ? '#b42318' : '#526071';

  return (
    <Stack gap="sm" p="md" className="device-detail" data-testid="device-detail">
      <Group justify="space-between" wrap="nowrap">
        <h3 className="dd-name">{device.name}</h3>
        <Badge color={statusColor} variant="filled" data-testid="device-status">{t(`device.status.${device.status ?? 'unknown'}`)}</Badge>
      </Group>
      <DeviceActions device={device} position={position} />
      <ClockWarning deviceId={device.id} reported={device.lastUpdate !== null} />
      <dl className="dd-list">
        <Row label={t('device.fields.uniqueId')}>{device.uniqueId}</Row>
        {plate && <Row label={t('device.fields.plate')}>{plate}</Row>}
        {device.model && <Row label={t('device.fields.model')}>{device.model}</Row>}
        {device.phone && <Row label={t('device.fields.phone')}>{device.phone}</Row>}
        <Row label={t('device.fields.lastUpdate')} testId="device-age"><Age iso={device.lastUpdate} /></Row>
      </dl>
      <section aria-labelledby="dd-pos" className="dd-section">
        <h3 id="dd-pos" className="dd-h">{t('device.position.title')}</h3>
        {!position ? <Text size="sm" c="gray.7" data-testid="device-no-position">{t('device.noPosition')}</Text> : (
          <dl className="dd-list" data-testid="device-position">
            <Row label={position.address ? t('device.position.address') : t('device.position.coordinates')}>
              {position.address || `${position.latitude.toFixed(6)}, ${position.longitude.toFixed(6)}`}
            </Row>
            <Row label={t('device.position.speed')} testId="device-speed">{`${convertSpeed(position.speed ?? 0, unit)} ${t(`device.units.${unit}`)}`}</Row>
            <Row label={t('device.position.ignition')}><YesNo value={boolAttr(position, 'ignition')} /></Row>
            <Row label={t('device.position.motion')}><YesNo value={boolAttr(position, 'motion')} /></Row>
            <Row label={t('device.position.blocked')}><YesNo value={boolAttr(position, 'blocked')} /></Row>
            {power && <Row label={t('device.position.power')}>{power}</Row>}
            {battery && <Row label={t('device.position.battery')}>{battery}</Row>}
            {a.sat !== undefined && <Row label={t('device.position.satellites')}>{String(a.sat)}</Row>}
            {a.driverUniqueId !== undefined && <Row label={t('device.position.driver')}>{String(a.driverUniqueId)}</Row>}
            {typeof a.totalDistance === 'number' && <Row label={t('device.position.totalDistance')}>{format('totalDistance', a.totalDistance)}</Row>}
            <Row label={t('device.position.fixTime')}><Age iso={position.fixTime} /></Row>
          </dl>
        )}
      </section>
      {recent.stops && <RecentMotion deviceId={device.id} />}
      {recent.events && <RecentEvents deviceId={device.id} />}
      <Attributes position={position} />
      <DeviceLogEntry device={device} />
      {/* Who changed or commanded this device (administrators and managers, Plus). */}
      <LogsButton scope={{ kind: 'device', deviceId: device.id }} />
    </Stack>
  );
}

export function Component() {
  return <DeviceDetail />;
}
