// /history (and /reports/history's device view, reference §3.10): pick a device and a period,
// the route is drawn on the session map coloured by speed with start, end, stops and events
// marked; a player moves the vehicle along it (play/pause, speed, scrub, step); a chart shows
// speed or any numeric attribute over time; export saves the server's route spreadsheet.
// The URL keeps the request (?deviceId=&period=&from=&to=), so ?deviceId= alone loads today.
import './history.css';
import { lazy, Suspense, useEffect, useMemo, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ActionIcon, Alert, Button, Group, Loader, Select, Slider, Tabs, Text, TextInput, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useSearchParams } from 'react-router';
import type { Event, Position } from '@rastro/domain/entities';
import { useLive } from '../../live/live-store.ts';
import { setOnlyDevice, useDeviceFilters } from '../../live/visible-devices.ts';
import { useMobileLayout } from '../../app/shell/layout.ts';
import { clearOverlays, fitTo, keepInView, onMarkerClick, setMarkers, setRoutes, setVehicle, type OverlayMarker } from '../map/index.ts';
import { SPEED_BANDS_KMH, SPEED_COLORS } from '../map/index.ts';
import { downloadReport, fetchPositions, fetchReport, type StopItem } from '../reports/index.ts';
import { useFormats } from '../reports/index.ts';
import { panelPadding } from '../reports/index.ts';
import { eventLabel } from '../reports/index.ts';
import { PLAYER_SPEEDS, usePlayer } from './player.ts';
import { fromLocalInput, isPeriod, periodRange, PERIODS, toLocalInput, type PeriodKey } from './time.ts';
import { knownErrorText } from '../../api/error-text.ts';

const HistoryChart = lazy(() => import('./history-chart.tsx'));

const icon = (d: string) => (
  <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d={d} />
  </svg>
);
const PlayIcon = () => icon('M7 5l12 7-12 7z');
const PauseIcon = () => icon('M8 5v14M16 5v14');
const PrevIcon = () => icon('M18 6l-8 6 8 6zM6 6v12');
const NextIcon = () => icon('M6 6l8 6-8 6zM18 6v12');

interface Request {
  deviceId: number;
  from: string;
  to: string;
}

function readRequest(params: URLSearchParams, tz: string | undefined): Request | null {
  const deviceId = Number(params.get('deviceId'));
  if (!Number.isInteger(deviceId) || deviceId <= 0) return null;
  const from = params.get('from');
  const to = params.get('to');
  if (from && to && Number.isFinite(Date.parse(from)) && Number.isFinite(Date.parse(to))) return { deviceId, from, to };
  const range = periodRange('today', Date.now(), tz);
  return { deviceId, from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString() };
}

const valid = (p: Position) => Number.isFinite(p.latitude) && Number.isFinite(p.longitude) && !(p.latitude === 0 && p.longitude === 0);

/** Metres along the route: the odometer difference when the server sends totalDistance, else great-circle legs. */
export function routeDistance(points: readonly Position[]): number {
  if (points.length < 2) return 0;
  const a = points[0]!.attributes?.totalDistance;
  const b = points[points.length - 1]!.attributes?.totalDistance;
  if (typeof a === 'number' && typeof b === 'number' && b >= a) return b - a;
  let sum = 0;
  for (let i = 1; i < points.length; i++) sum += haversine(points[i - 1]!, points[i]!);
  return sum;
}

function haversine(a: Position, b: Position): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The last point at or before the instant. */
export function indexAt(points: readonly Position[], ms: number): number {
  let lo = 0;
  let hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (Date.parse(points[mid]!.fixTime) <= ms) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

/** Numeric attributes the chart can show (speed first). */
export function chartKeys(points: readonly Position[]): string[] {
  const keys = new Set<string>(['speed']);
  if (points.some((p) => p.altitude)) keys.add('altitude');
  for (const p of points) for (const [k, v] of Object.entries(p.attributes ?? {})) if (typeof v === 'number' && Number.isFinite(v)) keys.add(k);
  return [...keys];
}

function HistoryForm({ onSubmit, initial, extra }: {
  onSubmit(r: Request, period: PeriodKey): void; initial: { deviceId: number | null; period: PeriodKey; from: string; to: string }; extra?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const f = useFormats();
  const devices = useLive((s) => s.devices);
  const options = useMemo(
    () => Object.values(devices).sort((a, b) => a.name.localeCompare(b.name)).map((d) => ({ value: String(d.id), label: d.name })),
    [devices],
  );
  const [deviceId, setDeviceId] = useState<string | null>(initial.deviceId ? String(initial.deviceId) : null);
  const [period, setPeriod] = useState<PeriodKey>(initial.period);
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [invalid, setInvalid] = useState<string | null>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!deviceId) return setInvalid(t('history.pickDevice'));
    let range: { from: number; to: number };
    if (period === 'custom') {
      range = { from: fromLocalInput(from, f.tz), to: fromLocalInput(to, f.tz) };
      if (!Number.isFinite(range.from) || !Number.isFinite(range.to) || range.from > range.to) return setInvalid(t('history.badPeriod'));
    } else range = periodRange(period, Date.now(), f.tz);
    setInvalid(null);
    onSubmit({ deviceId: Number(deviceId), from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString() }, period);
  };

  return (
    <form className="history-form" onSubmit={submit} noValidate>
      <Select label={t('history.device')} placeholder={t('history.pickDevice')} data={options} value={deviceId} onChange={setDeviceId}
        searchable nothingFoundMessage={t('history.noDevices')} comboboxProps={{ zIndex: 500 }} data-testid="history-device" />
      <Select label={t('history.period')} data={PERIODS.map((p) => ({ value: p, label: t(`history.periods.${p}`) }))} value={period}
        onChange={(v) => isPeriod(v) && setPeriod(v)} allowDeselect={false} comboboxProps={{ zIndex: 500 }} data-testid="history-period" />
      {period === 'custom' && (
        <div className="history-custom">
          <TextInput type="datetime-local" label={t('history.from')} value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
          <TextInput type="datetime-local" label={t('history.to')} value={to} onChange={(e) => setTo(e.currentTarget.value)} />
        </div>
      )}
      {invalid && <Text size="sm" c="red.8" role="alert">{invalid}</Text>}
      <div className="history-actions">
        <Button type="submit" className="history-show">{t('history.show')}</Button>
        {extra}
      </div>
    </form>
  );
}

function SpeedLegend() {
  const { t } = useTranslation();
  const f = useFormats();
  const bands = [0, ...SPEED_BANDS_KMH];
  const conv = (kmh: number) => Math.round(f.speedValue(kmh / 1.852));
  return (
    <ul className="history-legend" aria-label={t('history.legend')}>
      {SPEED_COLORS.map((color, i) => (
        <li key={color}>
          <span style={{ background: color }} aria-hidden="true" />
          {i < bands.length - 1 ? `${conv(bands[i]!)}–${conv(bands[i + 1]!)}` : `≥ ${conv(bands[i]!)}`}
        </li>
      ))}
      <li className="history-legend-unit">{f.speedLabel}</li>
    </ul>
  );
}

function Player({ points, player, dispatch }: { points: Position[]; player: ReturnType<typeof usePlayer>[0]; dispatch: ReturnType<typeof usePlayer>[1] }) {
  const { t } = useTranslation();
  const f = useFormats();
  const p = points[player.index];
  const onKey = (e: KeyboardEvent) => {
    if (e.key === ' ' && !(e.target instanceof HTMLInputElement) && (e.target as HTMLElement).getAttribute('role') !== 'slider') {
      e.preventDefault();
      dispatch({ type: 'toggle' });
    }
  };
  return (
    <section className="history-player" aria-label={t('history.player')} onKeyDown={onKey} data-testid="history-player">
      <div className="history-player-row">
        <Tooltip label={t('history.stepBack')}>
          <ActionIcon variant="default" size={36} aria-label={t('history.stepBack')} onClick={() => dispatch({ type: 'step', by: -1 })} disabled={player.index === 0}>
            <PrevIcon />
          </ActionIcon>
        </Tooltip>
        <ActionIcon variant="filled" size={40} radius="xl" aria-label={player.playing ? t('history.pause') : t('history.play')}
          onClick={() => dispatch({ type: 'toggle' })} disabled={points.length < 2} data-testid="history-play">
          {player.playing ? <PauseIcon /> : <PlayIcon />}
        </ActionIcon>
        <Tooltip label={t('history.stepForward')}>
          <ActionIcon variant="default" size={36} aria-label={t('history.stepForward')} onClick={() => dispatch({ type: 'step', by: 1 })}
            disabled={player.index >= points.length - 1}>
            <NextIcon />
          </ActionIcon>
        </Tooltip>
        <Select className="history-speed" aria-label={t('history.playSpeed')} data={PLAYER_SPEEDS.map((s) => ({ value: String(s), label: `${s}×` }))}
          value={String(player.speed)} onChange={(v) => v && dispatch({ type: 'speed', speed: Number(v) })} allowDeselect={false}
          comboboxProps={{ zIndex: 500 }} w={84} size="sm" />
        <div className="history-readout" aria-live="off" data-testid="history-readout">
          <strong>{p ? f.timeSeconds(p.fixTime) : '—'}</strong>
          <span>{p ? f.speed(p.speed) : ''}</span>
        </div>
      </div>
      <Slider min={0} max={Math.max(0, points.length - 1)} step={1} value={player.index} label={null}
        onChange={(v) => dispatch({ type: 'seek', index: v })} thumbLabel={t('history.position')}
        thumbProps={{ 'aria-valuetext': p ? `${f.timeSeconds(p.fixTime)}, ${f.speed(p.speed)}` : undefined } as never}
        data-testid="history-scrub" />
    </section>
  );
}

function ChartPanel({ points, index, onSeek }: { points: Position[]; index: number; onSeek(i: number): void }) {
  const { t } = useTranslation();
  const f = useFormats();
  const keys = useMemo(() => chartKeys(points), [points]);
  const [key, setKey] = useState('speed');
  const name = (k: string) => t(`device.attributeNames.${k}`, { defaultValue: k });
  const series = useMemo(() => {
    const times = points.map((p) => Date.parse(p.fixTime) / 1000);
    const values = points.map((p) => {
      if (key === 'speed') return Math.round(f.speedValue(p.speed) * 10) / 10;
      if (key === 'altitude') return p.altitude;
      const v = p.attributes?.[key];
      return typeof v === 'number' && Number.isFinite(v) ? v : null;
    });
    return { times, values };
  }, [points, key, f]);
  const label = key === 'speed' ? `${name('speed')} (${f.speedLabel})` : name(key);
  return (
    <div className="history-chart-panel">
      <Select label={t('history.chartAttribute')} data={keys.map((k) => ({ value: k, label: name(k) }))} value={key}
        onChange={(v) => v && setKey(v)} allowDeselect={false} comboboxProps={{ zIndex: 500 }} size="sm" data-testid="history-chart-key" />
      <Suspense fallback={<Loader size="sm" m="md" />}>
        <HistoryChart times={series.times} values={series.values} label={label} index={index} tz={f.tz} language={f.language} onSeek={onSeek}
          ariaLabel={t('history.chartLabel', { name: label })} />
      </Suspense>
    </div>
  );
}

function PartList<T>({ items, loading, error, empty, render, onPick, label, testId }: {
  items: T[] | undefined; loading: boolean; error: boolean; empty: string; label: string; testId: string;
  render(item: T): React.ReactNode; onPick(item: T): void;
}) {
  const { t } = useTranslation();
  if (loading) return <Group p="md" role="status"><Loader size="sm" /><Text size="sm">{t('reports.loading')}</Text></Group>;
  if (error) return <Alert color="red" role="alert" m="sm">{t('reports.loadError')}</Alert>;
  if (!items || items.length === 0) return <Text size="sm" c="gray.7" p="md" role="status">{empty}</Text>;
  return (
    <ul className="history-parts" aria-label={label} data-testid={testId}>
      {items.map((item, i) => (
        <li key={i}>
          <button type="button" className="history-part" onClick={() => onPick(item)}>{render(item)}</button>
        </li>
      ))}
    </ul>
  );
}

export function HistoryPage() {
  const { t } = useTranslation();
  const f = useFormats();
  const mobile = useMobileLayout();
  const [params, setParams] = useSearchParams();
  const request = useMemo(() => readRequest(params, f.tz), [params, f.tz]);
  const periodParam = params.get('period');
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);

  const route = useQuery({
    queryKey: ['history', 'route', request],
    queryFn: ({ signal }) => fetchPositions(request!.deviceId, request!.from, request!.to, signal),
    enabled: request !== null,
    staleTime: 60_000,
  });
  const reportParams = request ? { deviceIds: [request.deviceId], groupIds: [], from: request.from, to: request.to } : null;
  const stops = useQuery({
    queryKey: ['history', 'stops', request],
    queryFn: ({ signal }) => fetchReport('stops', reportParams!, signal),
    enabled: request !== null,
    staleTime: 60_000,
  });
  const events = useQuery({
    queryKey: ['history', 'events', request],
    queryFn: ({ signal }) => fetchReport('events', reportParams!, signal),
    enabled: request !== null,
    staleTime: 60_000,
  });

  const points = useMemo(
    () => (route.data ?? []).filter(valid).sort((a, b) => Date.parse(a.fixTime) - Date.parse(b.fixTime)),
    [route.data],
  );
  const [player, dispatch] = usePlayer(points.length);
  const byId = useMemo(() => new Map(points.map((p) => [p.id, p])), [points]);

  // The route and its markers on the map; everything goes when the screen closes.
  useEffect(() => () => clearOverlays(), []);
  // While a route is shown the map shows only its device (reference §3.10); the previous
  // show-only choice comes back when the screen closes.
  const shownDevice = points.length > 0 ? request?.deviceId ?? null : null;
  useEffect(() => {
    if (shownDevice === null) return;
    const before = useDeviceFilters.getState().filters.onlyDeviceId;
    setOnlyDevice(shownDevice);
    return () => setOnlyDevice(before);
  }, [shownDevice]);
  useEffect(() => {
    setRoutes(points.length > 1 ? [points] : []);
    if (points.length > 0) fitTo(points, panelPadding(mobile));
    // Fit once per loaded route, not when the layout flips.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [points]);
  useEffect(() => {
    const markers: OverlayMarker[] = [];
    (stops.data ?? []).forEach((s, i) => {
      const lat = s.latitude ?? s.lat;
      const lon = s.longitude ?? s.lon;
      if (typeof lat === 'number' && typeof lon === 'number') markers.push({ id: `stop:${i}`, kind: 'stop', latitude: lat, longitude: lon });
    });
    (events.data ?? []).forEach((e, i) => {
      const p = byId.get(e.positionId);
      if (p) markers.push({ id: `event:${i}`, kind: 'event', latitude: p.latitude, longitude: p.longitude });
    });
    // Start and end last, so they are drawn over a stop or event at the same place.
    if (points.length > 0) {
      markers.push({ id: 'start', kind: 'start', longitude: points[0]!.longitude, latitude: points[0]!.latitude });
      const last = points[points.length - 1]!;
      markers.push({ id: 'end', kind: 'end', longitude: last.longitude, latitude: last.latitude });
    }
    setMarkers(markers);
  }, [points, stops.data, events.data, byId]);

  const current = points[player.index];
  useEffect(() => {
    setVehicle(current ? { longitude: current.longitude, latitude: current.latitude, course: current.course } : null);
    if (current && player.playing) keepInView(current);
  }, [current, player.playing]);

  const seekTime = (iso: string) => {
    const ms = Date.parse(iso);
    if (Number.isFinite(ms) && points.length > 0) dispatch({ type: 'seek', index: indexAt(points, ms) });
  };
  useEffect(() => {
    onMarkerClick((id) => {
      const [kind, n] = id.split(':');
      if (kind === 'start') dispatch({ type: 'seek', index: 0 });
      else if (kind === 'end') dispatch({ type: 'seek', index: points.length - 1 });
      else if (kind === 'stop') { const s = stops.data?.[Number(n)]; if (s) seekTime(s.startTime); }
      else if (kind === 'event') { const e = events.data?.[Number(n)]; if (e) seekTime(e.eventTime); }
    });
    return () => onMarkerClick(null);
  });

  const submit = (r: Request, period: PeriodKey) => {
    setParams({ deviceId: String(r.deviceId), period, from: r.from, to: r.to });
  };

  const exportFile = async () => {
    if (!reportParams) return;
    setExporting(true);
    setExportError(null);
    try {
      await downloadReport('route', reportParams, 'route.xlsx');
    } catch {
      setExportError(t('reports.exportError'));
    } finally {
      setExporting(false);
    }
  };

  const initial = {
    deviceId: request?.deviceId ?? null,
    period: isPeriod(periodParam) ? periodParam : request && params.get('from') ? 'custom' as const : 'today' as const,
    from: toLocalInput(request ? Date.parse(request.from) : Date.now() - 3_600_000, f.tz),
    to: toLocalInput(request ? Date.parse(request.to) : Date.now(), f.tz),
  };

  let body: React.ReactNode;
  if (!request) body = <Text size="sm" c="gray.7" role="status" px="md" py="xs">{t('history.hint')}</Text>;
  else if (route.isPending) body = <Group p="md" role="status"><Loader size="sm" /><Text size="sm">{t('reports.loading')}</Text></Group>;
  else if (route.isError) {
    body = (
      <Alert color="red" role="alert" m="sm" data-testid="history-error">
        {knownErrorText(t, route.error) ?? t('history.loadError')}{' '}
        <Button variant="subtle" size="compact-sm" onClick={() => void route.refetch()}>{t('reports.retry')}</Button>
      </Alert>
    );
  } else if (points.length === 0) body = <Text size="sm" c="gray.7" role="status" px="md" py="xs" data-testid="history-empty">{t('history.empty')}</Text>;
  else {
    const first = points[0]!;
    const last = points[points.length - 1]!;
    const max = points.reduce((m, p) => Math.max(m, p.speed), 0);
    body = (
      <>
        <dl className="history-summary" data-testid="history-summary">
          <div><dt>{t('reports.columns.distance')}</dt><dd>{f.distance(routeDistance(points))}</dd></div>
          <div><dt>{t('reports.columns.maxSpeed')}</dt><dd>{f.speed(max)}</dd></div>
          <div><dt>{t('reports.columns.duration')}</dt><dd>{f.duration(Date.parse(last.fixTime) - Date.parse(first.fixTime))}</dd></div>
          <div><dt>{t('history.points')}</dt><dd>{points.length}</dd></div>
        </dl>
        <Player points={points} player={player} dispatch={dispatch} />
        <SpeedLegend />
        <Tabs defaultValue="chart" keepMounted={false} className="history-tabs">
          <Tabs.List grow>
            <Tabs.Tab value="chart">{t('history.chart')}</Tabs.Tab>
            <Tabs.Tab value="stops">{t('history.stops', { count: stops.data?.length ?? 0 })}</Tabs.Tab>
            <Tabs.Tab value="events">{t('history.events', { count: events.data?.length ?? 0 })}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="chart">
            <ChartPanel points={points} index={player.index} onSeek={(i) => dispatch({ type: 'seek', index: i })} />
          </Tabs.Panel>
          <Tabs.Panel value="stops">
            <PartList<StopItem> items={stops.data} loading={stops.isPending} error={stops.isError} empty={t('history.noStops')}
              label={t('history.stopsList')} testId="history-stops" onPick={(s) => seekTime(s.startTime)}
              render={(s) => (
                <>
                  <strong>{f.time(s.startTime)} – {f.time(s.endTime)}</strong>
                  <span>{f.duration(s.duration)}{s.address ? ` · ${s.address}` : ''}</span>
                </>
              )} />
          </Tabs.Panel>
          <Tabs.Panel value="events">
            <PartList<Event> items={events.data} loading={events.isPending} error={events.isError} empty={t('history.noEvents')}
              label={t('history.eventsList')} testId="history-events" onPick={(e) => seekTime(e.eventTime)}
              render={(e) => (
                <>
                  <strong>{eventLabel(t, e)}</strong>
                  <span>{f.timeSeconds(e.eventTime)}</span>
                </>
              )} />
          </Tabs.Panel>
        </Tabs>
      </>
    );
  }

  return (
    <div className="history-screen" data-testid="history-screen">
      <HistoryForm key={params.toString()} initial={initial} onSubmit={submit} extra={request && (
        <Button variant="default" onClick={() => void exportFile()} loading={exporting} disabled={points.length === 0} data-testid="history-export">
          {t('reports.export')}
        </Button>
      )} />
      {exportError && <Text size="sm" c="red.8" role="alert" px="md">{exportError}</Text>}
      {body}
    </div>
  );
}

export const Component = HistoryPage;
