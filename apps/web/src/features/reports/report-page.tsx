// A report page (/reports/resume, travels, stops, events, history; reference §3.11): the
// report-type selector, the common filter (devices, groups, period shortcuts or a custom range),
// load, export (the server's spreadsheet), show-markers, and the result as a virtualised list
// that the keyboard walks (arrows, Home/End, Enter). Choosing a row shows it on the map: a trip
// as a highlighted line, a stop or event at its place, a device's summary as its route.
import './reports.css';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Alert, Button, Collapse, Group, Loader, MultiSelect, Select, Switch, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useNavigate } from 'react-router';
import type { Group as DeviceGroup, Position } from '@rastro/domain/entities';
import { hasPermission } from '@rastro/domain/permissions';
import { api } from '../../api/http.ts';
import { knownErrorText } from '../../api/error-text.ts';
import { useSession } from '../../app/session-store.ts';
import { useMobileLayout } from '../../app/shell/layout.ts';
import { useLive } from '../../live/live-store.ts';
import {
  clearOverlays, fitTo, onMarkerClick, setHighlight, setMarkers, setRoutes, setVehicle, type OverlayMarker, type OverlayPoint,
} from '../map/index.ts';
import { fromLocalInput, isPeriod, periodRange, PERIODS, toLocalInput } from '../history/index.ts';
import { downloadReport, fetchPositions, fetchPositionsById, fetchReport, type ReportItems, type ReportKind, type ReportParams, type SummaryItem, type TripItem } from './report-api.ts';
import { setReportFilter, useReportFilter } from './report-filter.ts';
import { rowsOf, type RowModel } from './report-rows.ts';
import { REPORT_PATHS, REPORTS, type ReportPath } from './report-types.ts';
import { panelPadding } from './panel-padding.ts';
import { useFormats } from './use-formats.ts';

const ROW_HEIGHT = 74;
const TALL_ROW_HEIGHT = 92;

function useGroups() {
  return useQuery({ queryKey: ['groups'], queryFn: () => api.get<DeviceGroup[]>('/groups'), staleTime: Infinity });
}

export function usePermittedReports(): ReportPath[] {
  const user = useSession((s) => s.user);
  const info = useSession((s) => s.serverInfo);
  if (!user || !info) return [];
  return REPORT_PATHS.filter((p) => {
    const bit = REPORTS[p].bit;
    return bit === null || hasPermission(user, { plus: info.plus, attributes: info.server.attributes }, bit);
  });
}

function Filter({ path, onLoad, loading }: { path: ReportPath; onLoad(p: ReportParams): void; loading: boolean }) {
  const { t } = useTranslation();
  const f = useFormats();
  const navigate = useNavigate();
  const filter = useReportFilter();
  const permitted = usePermittedReports();
  const devices = useLive((s) => s.devices);
  const groups = useGroups();
  const [invalid, setInvalid] = useState<string | null>(null);
  const deviceOptions = useMemo(
    () => Object.values(devices).sort((a, b) => a.name.localeCompare(b.name)).map((d) => ({ value: String(d.id), label: d.name })),
    [devices],
  );
  const groupOptions = useMemo(
    () => (groups.data ?? []).slice().sort((a, b) => a.name.localeCompare(b.name)).map((g) => ({ value: String(g.id), label: g.name })),
    [groups.data],
  );

  const load = () => {
    let range: { from: number; to: number };
    if (filter.period === 'custom') {
      range = { from: fromLocalInput(filter.from, f.tz), to: fromLocalInput(filter.to, f.tz) };
      if (!Number.isFinite(range.from) || !Number.isFinite(range.to) || range.from > range.to) return setInvalid(t('history.badPeriod'));
    } else range = periodRange(filter.period, Date.now(), f.tz);
    setInvalid(null);
    onLoad({
      deviceIds: filter.deviceIds.map(Number), groupIds: filter.groupIds.map(Number),
      from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString(),
    });
  };

  const choosePeriod = (v: string | null) => {
    if (!isPeriod(v)) return;
    if (v === 'custom' && (!filter.from || !filter.to)) {
      const r = periodRange('today', Date.now(), f.tz);
      setReportFilter({ period: v, from: toLocalInput(r.from, f.tz), to: toLocalInput(r.to, f.tz) });
    } else setReportFilter({ period: v });
  };

  return (
    <form className="report-filter" onSubmit={(e) => { e.preventDefault(); load(); }} noValidate>
      <Select className="report-type" label={t('reports.type')} value={path} allowDeselect={false} comboboxProps={{ zIndex: 500 }}
        data={permitted.map((p) => ({ value: p, label: t(`reports.types.${REPORTS[p].kind}`) }))}
        onChange={(v) => v && v !== path && navigate(`/reports/${v}`)} data-testid="report-type" />
      <Select label={t('history.period')} data={PERIODS.map((p) => ({ value: p, label: t(`history.periods.${p}`) }))} value={filter.period}
        onChange={choosePeriod} allowDeselect={false} comboboxProps={{ zIndex: 500 }} data-testid="report-period" />
      {filter.period === 'custom' && (
        <div className="report-custom">
          <TextInput type="datetime-local" label={t('history.from')} value={filter.from} onChange={(e) => setReportFilter({ from: e.currentTarget.value })} />
          <TextInput type="datetime-local" label={t('history.to')} value={filter.to} onChange={(e) => setReportFilter({ to: e.currentTarget.value })} />
        </div>
      )}
      <MultiSelect className="report-wide" label={t('reports.devices')} placeholder={filter.deviceIds.length ? undefined : t('reports.allDevices')}
        data={deviceOptions} value={filter.deviceIds} onChange={(v) => setReportFilter({ deviceIds: v })} searchable clearable
        nothingFoundMessage={t('history.noDevices')} comboboxProps={{ zIndex: 500 }} maxDropdownHeight={260} data-testid="report-devices" />
      {groupOptions.length > 0 && (
        <MultiSelect className="report-wide" label={t('reports.groups')} data={groupOptions} value={filter.groupIds}
          onChange={(v) => setReportFilter({ groupIds: v })} searchable clearable comboboxProps={{ zIndex: 500 }} data-testid="report-groups" />
      )}
      {invalid && <Text className="report-wide" size="sm" c="red.8" role="alert">{invalid}</Text>}
      <Button type="submit" className="report-wide" loading={loading} data-testid="report-load">{t('reports.load')}</Button>
    </form>
  );
}

type AnyItems = ReadonlyArray<ReportItems[ReportKind]>;

function ReportScreen({ path }: { path: ReportPath }) {
  const { t } = useTranslation();
  const f = useFormats();
  const mobile = useMobileLayout();
  const { kind, file } = REPORTS[path];
  const permitted = usePermittedReports().includes(path);
  const devices = useLive((s) => s.devices);
  const showMarkers = useReportFilter((s) => s.showMarkers);
  const [request, setRequest] = useState<(ReportParams & { n: number }) | null>(null);
  const [filtersOpen, setFiltersOpen] = useState(true);
  const [selected, setSelected] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const scrollRef = useRef<HTMLDivElement>(null);

  const report = useQuery({
    queryKey: ['report', kind, request],
    queryFn: ({ signal }) => fetchReport(kind, request!, signal) as Promise<AnyItems>,
    enabled: request !== null,
    staleTime: 0,
    gcTime: 60_000,
  });
  const items: AnyItems = useMemo(() => report.data ?? [], [report.data]);
  const eventPositionIds = useMemo(
    () => (kind === 'events' ? (items as ReportItems['events'][]).map((e) => e.positionId).filter((id) => id > 0) : []),
    [items, kind],
  );
  const eventPositions = useQuery({
    queryKey: ['report', 'eventPositions', eventPositionIds],
    queryFn: () => fetchPositionsById(eventPositionIds),
    enabled: eventPositionIds.length > 0,
    staleTime: Infinity,
  });
  const positions = useMemo(() => new Map((eventPositions.data ?? []).map((p) => [p.id, p])), [eventPositions.data]);
  const rows = useMemo(
    () => rowsOf(kind, items, { f, t, positions, deviceName: (id, given) => given || devices[id]?.name || `#${id}` }),
    [kind, items, f, t, positions, devices],
  );

  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scrollRef.current, estimateSize: () => (kind === 'trips' ? TALL_ROW_HEIGHT : ROW_HEIGHT), overscan: 8 });

  // The map: markers (when switched on), the route report's lines; cleared when the page closes.
  useEffect(() => () => clearOverlays(), []);
  useEffect(() => {
    setSelected(null);
    setActive(0);
    setHighlight(null);
    setVehicle(null);
    if (kind === 'route') {
      const byDevice = new Map<number, Position[]>();
      for (const p of items as Position[]) {
        if (!byDevice.has(p.deviceId)) byDevice.set(p.deviceId, []);
        byDevice.get(p.deviceId)!.push(p);
      }
      setRoutes([...byDevice.values()]);
    } else setRoutes([]);
    // The route report and other kinds that hold no lines clear them.
  }, [items, kind]);
  // Fit the view once per result, as soon as its places are known (events wait for their positions).
  const fitted = useRef<unknown>(null);
  useEffect(() => {
    if (fitted.current === items) return;
    const pts: OverlayPoint[] = rows.flatMap((r) => [r.point, r.endPoint].filter((p): p is OverlayPoint => !!p));
    if (pts.length === 0) return;
    fitted.current = items;
    fitTo(pts, panelPadding(mobile));
  }, [rows, items, mobile]);
  useEffect(() => {
    const markers: OverlayMarker[] = [];
    if (showMarkers) {
      rows.forEach((r, i) => {
        if (kind === 'trips') {
          if (r.point) markers.push({ id: `row:${i}`, kind: 'start', ...r.point });
          if (r.endPoint) markers.push({ id: `row:${i}`, kind: 'end', ...r.endPoint });
        } else if (r.point) markers.push({ id: `row:${i}`, kind: kind === 'stops' ? 'stop' : kind === 'events' ? 'event' : 'point', ...r.point });
      });
    }
    setMarkers(markers);
  }, [rows, showMarkers, kind]);

  const select = async (i: number) => {
    const row = rows[i];
    if (!row || !request) return;
    setSelected(i);
    setActive(i);
    const pad = panelPadding(mobile);
    if (kind === 'trips' || kind === 'summary') {
      const item = items[i] as TripItem | SummaryItem;
      const from = item.startTime ?? request.from;
      const to = item.endTime ?? request.to;
      try {
        const points = (await fetchPositions(item.deviceId, from, to)).filter((p) => p.latitude !== 0 || p.longitude !== 0);
        if (kind === 'trips') setHighlight(points);
        else setRoutes([points]);
        if (points.length > 0) fitTo(points, pad);
        else if (row.point) fitTo([row.point, ...(row.endPoint ? [row.endPoint] : [])], pad);
      } catch {
        if (row.point) fitTo([row.point], pad);
      }
    } else if (row.point) {
      if (kind === 'route') {
        const p = items[i] as Position;
        setVehicle({ ...row.point, course: p.course });
      }
      fitTo([row.point], pad, 16);
    }
  };

  const focusRow = (i: number) => {
    if (rows.length === 0) return;
    const n = Math.max(0, Math.min(rows.length - 1, i));
    setActive(n);
    virtualizer.scrollToIndex(n, { align: 'auto' });
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLElement>(`[data-index="${n}"]`)?.focus());
  };

  useEffect(() => {
    onMarkerClick((id) => {
      const i = Number(id.split(':')[1]);
      if (Number.isInteger(i)) {
        void select(i);
        focusRow(i);
      }
    });
    return () => onMarkerClick(null);
  });

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / (kind === 'trips' ? TALL_ROW_HEIGHT : ROW_HEIGHT)) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (e.key in moves) focusRow(active + moves[e.key]!);
    else if (e.key === 'Home') focusRow(0);
    else if (e.key === 'End') focusRow(rows.length - 1);
    else return;
    e.preventDefault();
  };

  const exportFile = async () => {
    if (!request) return;
    setExporting(true);
    setExportError(null);
    try {
      await downloadReport(kind, request, file);
    } catch (error) {
      // A refusal the server explains (period too long, too many reports) says so; else the general text.
      setExportError(knownErrorText(t, error) ?? t('reports.exportError'));
    } finally {
      setExporting(false);
    }
  };

  if (!permitted) return <Alert color="yellow" role="alert" m="md" data-testid="report-denied">{t('reports.denied')}</Alert>;

  let body: React.ReactNode;
  if (!request) body = <Text size="sm" c="gray.7" px="md" py="xs" role="status">{t('reports.notLoaded')}</Text>;
  else if (report.isPending) body = <Group px="md" py="xs" role="status"><Loader size="sm" /><Text size="sm">{t('reports.loading')}</Text></Group>;
  else if (report.isError) {
    body = (
      <Alert color="red" role="alert" m="sm" data-testid="report-error">
        {knownErrorText(t, report.error) ?? t('reports.loadError')}{' '}
        <Button variant="subtle" size="compact-sm" onClick={() => void report.refetch()}>{t('reports.retry')}</Button>
      </Alert>
    );
  } else if (rows.length === 0) body = <Text size="sm" c="gray.7" px="md" py="xs" role="status" data-testid="report-empty">{t('reports.empty')}</Text>;
  else {
    body = (
      <div ref={scrollRef} className="report-scroll" onKeyDown={onKeyDown} data-testid="report-list">
        <ul className="report-list" aria-label={t('reports.list')} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const row: RowModel = rows[v.index]!;
            return (
              <li key={row.key} className="report-item" style={{ transform: `translateY(${v.start}px)`, height: v.size }}>
                <button type="button" className="report-row" data-index={v.index} tabIndex={v.index === active ? 0 : -1}
                  aria-current={selected === v.index ? 'true' : undefined} onFocus={() => setActive(v.index)} onClick={() => void select(v.index)}>
                  <strong>{row.title}</strong>
                  <span>{row.line1}</span>
                  {row.line2 && <span>{row.line2}</span>}
                  {row.line3 && <span>{row.line3}</span>}
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    );
  }

  return (
    <div className="report-screen" data-testid="report-screen" data-kind={kind}>
      <Collapse expanded={filtersOpen}>
        <Filter path={path} loading={report.isFetching} onLoad={(p) => {
          setRequest((r) => ({ ...p, n: (r?.n ?? 0) + 1 }));
          if (mobile) setFiltersOpen(false);
        }} />
      </Collapse>
      <div className="report-tools">
        {!filtersOpen && (
          <Button variant="subtle" size="compact-sm" onClick={() => setFiltersOpen(true)} aria-expanded={false}>{t('reports.editFilter')}</Button>
        )}
        <Switch size="sm" label={t('reports.showMarkers')} checked={showMarkers} onChange={(e) => setReportFilter({ showMarkers: e.currentTarget.checked })}
          disabled={kind === 'summary'} />
        <Button variant="default" size="compact-sm" onClick={() => void exportFile()} loading={exporting} disabled={!request || report.isPending}
          data-testid="report-export">
          {t('reports.export')}
        </Button>
      </div>
      {exportError && <Text size="sm" c="red.8" role="alert" px="md">{exportError}</Text>}
      {request && report.isSuccess && rows.length > 0 && (
        <p className="report-count" aria-live="polite" data-testid="report-count">{t('reports.rows', { count: rows.length })}</p>
      )}
      {body}
    </div>
  );
}

const screens = new Map<ReportPath, () => React.ReactElement>();

/** The route component of one report page. */
export function reportScreen(path: ReportPath): () => React.ReactElement {
  let screen = screens.get(path);
  if (!screen) {
    screen = function Report() {
      return <ReportScreen key={path} path={path} />;
    };
    screens.set(path, screen);
  }
  return screen;
}
