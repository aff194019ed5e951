// The device list (/devices, spec §2/§4, reference §3.8): search kept in localStorage `query`,
// counts per status as filter chips, a filter menu (category hide-list, state, advanced filters),
// a sort menu (same key toggles the direction), optional grouping by group, and a virtualised
// list of rows. Arrow keys move through the rows, Enter opens one. The same filters hide the
// map's markers (live/visible-devices.ts).
import './devices.css';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactElement } from 'react';
import { ActionIcon, Alert, Button, Checkbox, CloseButton, Drawer, Group as MantineGroup, Loader, Menu, Popover, SegmentedControl, Select, TextInput, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useNavigate } from 'react-router';
import { STATUS_FILTERS, isMoving, type StatusCounts, type StatusFilter } from '@rastro/domain/device-counts';
import { buildDeviceList, categoryOf, hasFilters, type AdvancedFilterType, type DeviceFilters } from '@rastro/domain/device-filters';
import { SORT_KEYS, type SortKey, type SortState } from '@rastro/domain/device-sort';
import type { Device, Group, Position } from '@rastro/domain/entities';
import { canAddDevice, showsAddDevice } from '@rastro/domain/device-limits';
import { hasPermission, PERMISSION_BITS } from '@rastro/domain/permissions';
import { formatSpeed, relativeAge, resolveSpeedUnit, type SpeedUnit } from '@rastro/domain/units';
import { useSession } from '../../app/session-store.ts';
import { useLive } from '../../live/live-store.ts';
import {
  chooseSort, clearFilters, setAdvancedFilter, setGrouped, setQuery, setStateFilter, setStatusFilter, toggleCategory, useDeviceFilters,
} from '../../live/visible-devices.ts';
import { openDeviceEditor } from '../device-editor/index.ts';
import { ICONS, ICON_GRID, categoryOf as iconCategory } from '../map-icons/index.ts';
import { isValidCoordinate } from '@rastro/domain/coordinates';
import { isDeletedDevice } from '@rastro/domain/device-filters';
import { createAnchor, removeAnchor } from '../commands-ui/index.ts';
import { ConfirmDialog } from '../commands-ui/index.ts';
import { useDeviceAbilities } from '../device-detail/index.ts';
import { anchoredGroups, groupAnchors, patchGeofenceCache, useDeviceSessionData, type GeofenceLike } from './session-data.ts';

const ROW_HEIGHT = 62;
const HEADER_HEIGHT = 38;
const REFRESH_MS = 3_000;
const GROUP_PREF_KEY = 'groupPref';

type Item =
  | { kind: 'group'; key: string; id: number; name: string; count: number; collapsed: boolean }
  | { kind: 'device'; key: string; device: Device };

const STATUS_COLOR: Record<string, string> = { online: '#15803d', offline: '#b91c1c', unknown: '#64748b' };

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

function readGroupPref(): Record<string, boolean> {
  try {
    const v = JSON.parse(localStorage.getItem(GROUP_PREF_KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as Record<string, boolean>) : {};
  } catch {
    return {};
  }
}

// --- Icons ----------------------------------------------------------------------------------

const svg = (d: string) => (
  <svg width={18} height={18} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d={d} />
  </svg>
);
const SearchIcon = () => svg('M11 4a7 7 0 1 0 0 14a7 7 0 0 0 0-14zM21 21l-5-5');
const FilterIcon = () => svg('M4 5h16l-6 8v6l-4-2v-4z');
const SortIcon = () => svg('M7 4v16M4 17l3 3 3-3M17 20V4M14 7l3-3 3 3');
const AddIcon = () => svg('M12 5v14M5 12h14');
const GroupIcon = () => svg('M3 6h7l2 2h9v11H3zM3 6v13');
const KeyIcon = () => svg('M14 10a4 4 0 1 0-3.9 4H11l2 2h2v2h2v2h3v-3l-6-6z');
const LockIcon = () => svg('M6 11h12v9H6zM8 11V8a4 4 0 0 1 8 0v3');
const DriverIcon = () => svg('M12 12a4 4 0 1 0 0-8a4 4 0 0 0 0 8zM5 20c1-4 4-6 7-6s6 2 7 6');
const AlertIcon = () => svg('M12 4l9 16H3zM12 10v4M12 17v.5');
const AnchorIcon = () => svg('M12 8a2 2 0 1 0 0-4a2 2 0 0 0 0 4zM12 8v12M5 13a7 7 0 0 0 14 0M9 11h6');
const NoPositionIcon = () => svg('M12 21s-6-5.3-6-11a6 6 0 0 1 10.2-4.3M18 10c0 2.2-1 4.4-2.3 6.3M3 3l18 18');
const ChevronIcon = ({ open }: { open: boolean }) => svg(open ? 'M6 9l6 6 6-6' : 'M9 6l6 6-6 6');

function CategoryIcon({ category, color }: { category: string | null; color: string }) {
  const shapes = ICONS[iconCategory(category)];
  return (
    <span className="device-avatar" style={{ borderColor: color }} aria-hidden="true">
      <svg width={30} height={30} viewBox={`0 0 ${ICON_GRID} ${ICON_GRID}`}>
        {shapes.map((s, i) => (
          <path key={i} d={s.d} fill={s.role === 'body' || s.role === 'extra' ? color : s.role === 'dark' ? '#1f2937' : s.role === 'glass' ? '#334155' : 'rgba(255,255,255,0.85)'} />
        ))}
      </svg>
    </span>
  );
}

// --- Row --------------------------------------------------------------------------------------

interface RowProps {
  device: Device;
  position: Position | undefined;
  anchored: boolean;
  now: number;
  speedUnit: SpeedUnit;
  locale: string;
}

function DeviceRowContent({ device, position, anchored, now, speedUnit, locale }: RowProps) {
  const { t } = useTranslation();
  const age = relativeAge(device.lastUpdate, now);
  const ageText = 'value' in age ? t(`devices.time.${age.unit}`, { count: age.value }) : t(`devices.time.${age.unit}`);
  const status = device.status in STATUS_COLOR ? device.status : 'unknown';
  const moving = isMoving(position);
  const a = position?.attributes ?? {};
  const plate = typeof device.attributes?.plate === 'string' ? device.attributes.plate : '';
  const driver = a.driverUniqueId !== undefined && a.driverUniqueId !== null && a.driverUniqueId !== '' ? String(a.driverUniqueId) : null;
  const alarm = a.alarm !== undefined && a.alarm !== null && a.alarm !== '' && a.alarm !== false ? String(a.alarm) : null;
  const indicators: Array<{ key: string; label: string; icon: ReactElement; tone: string }> = [];
  if (alarm) indicators.push({ key: 'alert', label: t('devices.indicator.alert', { alarm }), icon: <AlertIcon />, tone: 'is-red' });
  if (a.ignition === true) indicators.push({ key: 'ignition', label: t('devices.indicator.ignition'), icon: <KeyIcon />, tone: 'is-green' });
  if (a.blocked === true) indicators.push({ key: 'locked', label: t('devices.indicator.locked'), icon: <LockIcon />, tone: 'is-red' });
  if (driver) indicators.push({ key: 'driver', label: t('devices.indicator.driver', { driver }), icon: <DriverIcon />, tone: 'is-green' });
  if (anchored) indicators.push({ key: 'anchor', label: t('devices.indicator.anchor'), icon: <AnchorIcon />, tone: 'is-amber' });
  if (!position) indicators.push({ key: 'none', label: t('devices.indicator.noPosition'), icon: <NoPositionIcon />, tone: 'is-grey' });
  return (
    <>
      <CategoryIcon category={device.category} color={STATUS_COLOR[status]!} />
      <span className="device-row-main">
        <span className="device-row-title">
          <span className="device-row-name">{device.name}</span>
          {plate && <span className="device-row-plate">{plate}</span>}
        </span>
        <span className="device-row-meta">
          <span className={`device-status-dot is-${status}`} aria-hidden="true" />
          <span className="device-row-status">{t(`devices.status.${moving ? 'moving' : status}`)}</span>
          <span aria-hidden="true">·</span>
          <span>{ageText}</span>
          {moving && position && (
            <>
              <span aria-hidden="true">·</span>
              <span>{formatSpeed(position.speed, speedUnit, locale)}</span>
            </>
          )}
        </span>
      </span>
      {indicators.length > 0 && (
        <span className="device-row-flags">
          {indicators.map((f) => (
            <Tooltip key={f.key} label={f.label} withinPortal>
              <span className={`device-flag ${f.tone}`} data-flag={f.key}>
                {f.icon}
                <span className="visually-hidden">{f.label}</span>
              </span>
            </Tooltip>
          ))}
        </span>
      )}
    </>
  );
}

// --- Filters ------------------------------------------------------------------------------------

function booleanValue(filters: DeviceFilters, type: AdvancedFilterType): string {
  const f = filters.advanced.find((x) => x.type === type);
  return f ? (f.value ? 'yes' : 'no') : 'any';
}
function textValue(filters: DeviceFilters, type: AdvancedFilterType): string | null {
  const f = filters.advanced.find((x) => x.type === type);
  return f && typeof f.value === 'string' ? f.value : null;
}

function distinct(devices: readonly Device[], read: (d: Device) => unknown): string[] {
  const set = new Set<string>();
  for (const d of devices) {
    const v = read(d);
    if (typeof v === 'string' && v.trim() !== '') set.add(v);
    else if (typeof v === 'number') set.add(String(v));
  }
  return [...set].sort((a, b) => a.localeCompare(b));
}

const activeFilterCount = (f: DeviceFilters) =>
  (f.status !== 'all' ? 1 : 0) + f.hiddenCategories.length + (f.state !== null ? 1 : 0) + f.advanced.length;

function FilterMenu({ devices, filters }: { devices: readonly Device[]; filters: DeviceFilters }) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const mobile = useMediaQuery('(max-width: 768px)');
  const categories = useMemo(() => {
    const set = new Set(devices.map((d) => categoryOf(d)));
    for (const c of filters.hiddenCategories) set.add(c);
    return [...set]
      .map((c) => ({ key: c, label: t(`devices.category.${c}`, { defaultValue: c }) }))
      .sort((a, b) => a.label.localeCompare(b.label));
  }, [devices, filters.hiddenCategories, t]);
  const states = useMemo(() => distinct(devices, (d) => d.attributes?.['device.state']), [devices]);
  const brands = useMemo(() => distinct(devices, (d) => d.attributes?.['device.gpsBrand']), [devices]);
  const models = useMemo(() => distinct(devices, (d) => d.attributes?.['device.model']), [devices]);
  const technologies = useMemo(() => distinct(devices, (d) => d.attributes?.['device.technology']), [devices]);
  const count = activeFilterCount(filters) - (filters.status !== 'all' ? 1 : 0);
  const yesNo = [
    { value: 'any', label: t('devices.advanced.any') },
    { value: 'yes', label: t('devices.advanced.yes') },
    { value: 'no', label: t('devices.advanced.no') },
  ];
  const textSelect = (type: AdvancedFilterType, data: string[]) => (
    <Select key={type} size="xs" label={t(`devices.advanced.${type}`)} data={data} value={textValue(filters, type)} clearable
      placeholder={t('devices.advanced.any')} comboboxProps={{ withinPortal: false }} onChange={(v) => setAdvancedFilter(type, v)} />
  );
  const trigger = (
    <ActionIcon variant={count > 0 ? 'filled' : 'default'} size={36} aria-label={count > 0 ? t('devices.filtersActive', { count }) : t('devices.filters')}
      aria-expanded={opened} onClick={() => setOpened((o) => !o)} className="devices-tool">
      <FilterIcon />
      {count > 0 && <span className="devices-tool-badge" aria-hidden="true">{count}</span>}
    </ActionIcon>
  );
  const content = (
    <>
        <fieldset className="devices-fieldset">
          <legend>{t('devices.categories')}</legend>
          <div className="devices-categories">
            {categories.map((c) => (
              <Checkbox key={c.key} size="xs" label={c.label} checked={!filters.hiddenCategories.includes(c.key)} onChange={() => toggleCategory(c.key)} />
            ))}
          </div>
        </fieldset>
        <Select size="xs" label={t('devices.state')} data={states.map((v) => ({ value: v, label: t(`deviceEditor.states.${v}`, { defaultValue: v }) }))} value={filters.state} clearable placeholder={t('devices.advanced.any')}
          comboboxProps={{ withinPortal: false }} onChange={(v) => setStateFilter(v)} disabled={states.length === 0} />
        <fieldset className="devices-fieldset">
          <legend>{t('devices.advanced.title')}</legend>
          {(['anchor', 'driver', 'ignition', 'locked'] as const).map((type) => (
            <div key={type} className="devices-yesno">
              <span id={`adv-${type}`}>{t(`devices.advanced.${type}`)}</span>
              <SegmentedControl size="xs" data={yesNo} value={booleanValue(filters, type)} aria-labelledby={`adv-${type}`}
                onChange={(v) => setAdvancedFilter(type, v === 'any' ? null : v === 'yes')} />
            </div>
          ))}
          {brands.length > 0 && textSelect('gps_brand', brands)}
          {models.length > 0 && textSelect('gps_model', models)}
          {technologies.length > 0 && textSelect('technology', technologies)}
        </fieldset>
        <Button size="xs" variant="light" fullWidth onClick={() => { clearFilters(); setOpened(false); }} disabled={!hasFilters(filters) && filters.query === ''}>
          {t('devices.clearFilters')}
        </Button>
    </>
  );
  // On a phone the filters open as a sheet from the bottom (a popover would cover the header).
  if (mobile) {
    return (
      <>
        {trigger}
        <Drawer opened={opened} onClose={() => setOpened(false)} position="bottom" size="85%" title={t('devices.filters')} zIndex={400}
          closeButtonProps={{ 'aria-label': t('device.actions.close') }} classNames={{ body: 'devices-filter-menu is-sheet' }}>
          {content}
        </Drawer>
      </>
    );
  }
  return (
    <Popover opened={opened} onChange={setOpened} onClose={() => setOpened(false)} position="bottom-end" width={300} shadow="md" trapFocus withinPortal
      middlewares={{ flip: true, shift: true, size: true }}>
      <Popover.Target>{trigger}</Popover.Target>
      <Popover.Dropdown className="devices-filter-menu" aria-label={t('devices.filters')} role="dialog">
        {content}
      </Popover.Dropdown>
    </Popover>
  );
}

const sortLabelKey = (key: SortKey) => `devices.sort.${key.startsWith('state-') ? key.slice(6) : key}`;

function SortMenu({ sort }: { sort: SortState }) {
  const { t } = useTranslation();
  const direction = t(sort.direction === 'asc' ? 'devices.sort.asc' : 'devices.sort.desc');
  return (
    <Menu position="bottom-end" shadow="md" width={220} withinPortal>
      <Menu.Target>
        <ActionIcon variant="default" size={36} aria-label={t('devices.sort.button', { key: t(sortLabelKey(sort.key)), direction })} className="devices-tool">
          <SortIcon />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('devices.sort.title')}</Menu.Label>
        {SORT_KEYS.map((key) => {
          const current = sort.key === key;
          return (
            <Menu.Item key={key} onClick={() => chooseSort(key)} aria-current={current ? 'true' : undefined}
              className={current ? 'is-current-sort' : undefined}
              rightSection={current ? <span aria-label={direction}>{sort.direction === 'asc' ? '↑' : '↓'}</span> : null}>
              {t(sortLabelKey(key))}
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}

function StatusChips({ counts, status }: { counts: StatusCounts; status: StatusFilter }) {
  const { t } = useTranslation();
  return (
    <div className="devices-chips" role="group" aria-label={t('devices.statusFilter')}>
      {STATUS_FILTERS.map((s) => (
        <button key={s} type="button" className={`devices-chip is-${s}`} aria-pressed={status === s} onClick={() => setStatusFilter(s)} data-status={s}>
          <span>{t(`devices.status.${s}`)}</span>
          <span className="devices-chip-count">{counts[s]}</span>
        </button>
      ))}
    </div>
  );
}

// --- Page ---------------------------------------------------------------------------------------

function buildItems(devices: Device[], grouped: boolean, groups: Group[], collapsed: Record<string, boolean>, noGroup: string): Item[] {
  if (!grouped) return devices.map((device) => ({ kind: 'device', key: `d${device.id}`, device }));
  const byGroup = new Map<number, Device[]>();
  const known = new Set(groups.map((g) => g.id));
  for (const d of devices) {
    const gid = d.groupId && known.has(d.groupId) ? d.groupId : 0;
    let list = byGroup.get(gid);
    if (!list) byGroup.set(gid, (list = []));
    list.push(d);
  }
  const sections = [{ id: 0, name: noGroup }, ...[...groups].sort((a, b) => a.name.localeCompare(b.name))];
  const items: Item[] = [];
  for (const g of sections) {
    const list = byGroup.get(g.id);
    if (!list) continue;
    const isCollapsed = collapsed[g.id] ?? false;
    items.push({ kind: 'group', key: `g${g.id}`, id: g.id, name: g.name, count: list.length, collapsed: isCollapsed });
    if (!isCollapsed) for (const device of list) items.push({ kind: 'device', key: `d${device.id}`, device });
  }
  return items;
}

export function DevicesPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const devicesById = useLive((s) => s.devices);
  const positions = useLive((s) => s.positions);
  // The record is updated in place (live-store.ts): its version says when positions changed.
  const positionsVersion = useLive((s) => s.positionsVersion);
  const loadStatus = useLive((s) => s.status);
  const { filters, sort, grouped, groupNames, anchored } = useDeviceFilters();
  const user = useSession((s) => s.user);
  const serverInfo = useSession((s) => s.serverInfo);
  const server = serverInfo?.server;
  const { groups: groupList, geofences } = useDeviceSessionData();
  const groups = useMemo(() => groupList ?? [], [groupList]);
  const abilities = useDeviceAbilities();
  const anchoredGroupIds = useMemo(() => anchoredGroups(geofences), [geofences]);
  const groupAnchor = useGroupAnchor(geofences);
  const now = useNow(REFRESH_MS);
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>(readGroupPref);
  const [active, setActive] = useState(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [text, setText] = useState(filters.query);

  // The text field updates at once; the filtering follows in a transition-free debounce of 120 ms
  // (reference §5.3), so fast typing never waits for the list.
  useEffect(() => {
    if (text === useDeviceFilters.getState().filters.query) return;
    const timer = setTimeout(() => setQuery(text), 120);
    return () => clearTimeout(timer);
  }, [text]);
  useEffect(() => {
    if (filters.query !== text && filters.query === '') setText('');
    // Only an external clear (clear-filters button) resets the field.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filters.query]);

  const allDevices = useMemo(() => Object.values(devicesById), [devicesById]);
  const result = useMemo(
    () => buildDeviceList(devicesById, filters, sort, { positions, groupNames, anchored }),
    // positionsVersion: the record is the same object after in-place updates.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [devicesById, filters, sort, positions, positionsVersion, groupNames, anchored],
  );
  const items = useMemo(() => buildItems(result.devices, grouped, groups, collapsed, t('devices.noGroup')),
    [result.devices, grouped, groups, collapsed, t]);
  const speedUnit = resolveSpeedUnit(user?.attributes, server?.attributes, i18n.language);

  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (items[i]?.kind === 'group' ? HEADER_HEIGHT : ROW_HEIGHT),
    getItemKey: (i) => items[i]!.key,
    overscan: 6,
  });

  const activeIndex = Math.min(active, Math.max(0, items.length - 1));

  const toggleGroup = useCallback((id: number) => {
    setCollapsed((c) => {
      const next = { ...c, [id]: !(c[id] ?? false) };
      try {
        localStorage.setItem(GROUP_PREF_KEY, JSON.stringify(next));
      } catch {
        /* page-only */
      }
      return next;
    });
  }, []);

  const focusItem = (index: number) => {
    const i = Math.max(0, Math.min(items.length - 1, index));
    setActive(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
    requestAnimationFrame(() => scrollRef.current?.querySelector<HTMLElement>(`[data-index="${i}"]`)?.focus());
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    if (e.key in moves) focusItem(activeIndex + moves[e.key]!);
    else if (e.key === 'Home') focusItem(0);
    else if (e.key === 'End') focusItem(items.length - 1);
    else return;
    e.preventDefault();
  };

  // "Add device" (reference §3.8/§5.8): bit 13, not read-only, a user deviceLimit of -1 or above 0;
  // disabled once a limit is reached.
  const truthy = (v: unknown) => v === true || v === 'true';
  const mayAdd = !!user && !!serverInfo && showsAddDevice(user.deviceLimit) &&
    (user.administrator || (!truthy(user.readonly) && !truthy(user.deviceReadonly) && !truthy(serverInfo.server.readonly) && !truthy(serverInfo.server.deviceReadonly))) &&
    hasPermission(user, { plus: serverInfo.plus, attributes: serverInfo.server.attributes }, PERMISSION_BITS.devicesCreate);
  const addAllowed = mayAdd && canAddDevice({
    allowedLimit: serverInfo?.allowedDevices, serverAttributes: server?.attributes, userDeviceLimit: user?.deviceLimit ?? 0, deviceCount: result.total,
  });

  const loading = loadStatus === 'idle' || loadStatus === 'loading';
  const filtered = hasFilters(filters) || filters.query.trim() !== '';
  const locale = i18n.language;

  let body: ReactElement;
  if (loading && result.total === 0) {
    body = (
      <div className="devices-empty" role="status">
        <Loader size="sm" />
        <p>{t('devices.loading')}</p>
      </div>
    );
  } else if (loadStatus === 'error' && result.total === 0) {
    body = <div className="devices-empty" role="alert"><p>{t('devices.loadError')}</p></div>;
  } else if (result.total === 0) {
    body = <div className="devices-empty" data-testid="devices-empty"><p>{t('devices.empty.none')}</p></div>;
  } else if (items.length === 0) {
    body = (
      <div className="devices-empty" data-testid="devices-empty">
        <p>{t('devices.empty.noMatch')}</p>
        <Button size="xs" variant="light" onClick={() => { clearFilters(); setText(''); }}>{t('devices.clearFilters')}</Button>
      </div>
    );
  } else {
    body = (
      <div ref={scrollRef} className="devices-scroll" onKeyDown={onKeyDown} data-testid="devices-list">
        <ul className="devices-list" aria-label={t('devices.listLabel')} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((v) => {
            const item = items[v.index]!;
            const style = { transform: `translateY(${v.start}px)`, height: v.size };
            const tabIndex = v.index === activeIndex ? 0 : -1;
            if (item.kind === 'group') {
              return (
                <li key={item.key} className="devices-item devices-group-row" style={style}>
                  <button type="button" className="devices-group" data-index={v.index} tabIndex={tabIndex} aria-expanded={!item.collapsed}
                    onFocus={() => setActive(v.index)} onClick={() => toggleGroup(item.id)}>
                    <ChevronIcon open={!item.collapsed} />
                    <span className="devices-group-name">{item.name}</span>
                    <span className="devices-group-count">{item.count}</span>
                  </button>
                  {abilities?.anchor && item.id !== 0 && (() => {
                    const on = anchoredGroupIds.has(item.id);
                    const label = t(on ? 'devices.groupAnchor.disable' : 'devices.groupAnchor.enable', { name: item.name });
                    return (
                      <Tooltip label={label} withinPortal>
                        <button type="button" className={`devices-group-anchor${on ? ' is-on' : ''}`} aria-pressed={on} aria-label={label}
                          onClick={() => groupAnchor.ask(item.id, item.name, Object.values(devicesById))}>
                          <AnchorIcon />
                        </button>
                      </Tooltip>
                    );
                  })()}
                </li>
              );
            }
            const d = item.device;
            return (
              <li key={item.key} className="devices-item" style={style}>
                <button type="button" className={`device-row${d.disabled ? ' is-disabled' : ''}`} data-index={v.index} data-device-id={d.id}
                  tabIndex={tabIndex} onFocus={() => setActive(v.index)} onClick={() => navigate(`/devices/${d.id}`)}>
                  <DeviceRowContent device={d} position={positions[d.id]} anchored={anchored?.has(d.id) ?? false} now={now}
                    speedUnit={speedUnit} locale={locale} />
                </button>
              </li>
            );
          })}
        </ul>
      </div>
    );
  }

  return (
    <div className="devices-screen" data-testid="devices-screen">
      <div className="devices-toolbar">
        <TextInput className="devices-search" size="sm" value={text} onChange={(e) => setText(e.currentTarget.value)}
          placeholder={t('devices.search')} aria-label={t('devices.search')} leftSection={<SearchIcon />} type="search" />
        <FilterMenu devices={allDevices} filters={filters} />
        <SortMenu sort={sort} />
        <ActionIcon variant={grouped ? 'filled' : 'default'} size={36} aria-pressed={grouped} aria-label={t('devices.groupBy')}
          onClick={() => setGrouped(!grouped)} className="devices-tool">
          <GroupIcon />
        </ActionIcon>
        {mayAdd && (
          <Tooltip label={addAllowed ? t('devices.add') : t('devices.addLimit')}>
            <ActionIcon variant="filled" size={36} aria-label={addAllowed ? t('devices.add') : t('devices.addLimit')} disabled={!addAllowed}
              data-disabled={!addAllowed || undefined} onClick={() => openDeviceEditor(null, (id) => navigate(`/devices/${id}`))} className="devices-tool">
              <AddIcon />
            </ActionIcon>
          </Tooltip>
        )}
      </div>
      <StatusChips counts={result.counts} status={filters.status} />
      <div className="devices-summary">
        <p aria-live="polite" data-testid="devices-summary">
          {filtered ? t('devices.shownOf', { shown: result.devices.length, total: result.total }) : t('devices.total', { total: result.total })}
        </p>
        <button type="button" className="devices-sort-now" data-testid="devices-sort-now" onClick={() => chooseSort(sort.key)}>
          {t(sortLabelKey(sort.key))} <span aria-hidden="true">{sort.direction === 'asc' ? '↑' : '↓'}</span>
          <span className="visually-hidden">
            {` — ${t('devices.sort.toggle', { key: t(sortLabelKey(sort.key)), direction: t(sort.direction === 'asc' ? 'devices.sort.asc' : 'devices.sort.desc') })}`}
          </span>
        </button>
      </div>
      {groupAnchor.notice && (
        <Alert color={groupAnchor.notice.error ? 'red' : 'green'} role={groupAnchor.notice.error ? 'alert' : 'status'} p="xs" mx="sm" mb={6}
          data-testid="group-anchor-notice">
          <MantineGroup justify="space-between" wrap="nowrap" gap="xs">
            <span>{groupAnchor.notice.text}</span>
            <CloseButton size="sm" aria-label={t('device.actions.dismiss')} onClick={groupAnchor.dismiss} />
          </MantineGroup>
        </Alert>
      )}
      {body}
      <ConfirmDialog opened={groupAnchor.pending !== null} busy={groupAnchor.busy} onConfirm={() => void groupAnchor.confirm()} onCancel={groupAnchor.cancel}
        title={groupAnchor.pending ? t(groupAnchor.pending.existing.length ? 'devices.groupAnchor.disableTitle' : 'devices.groupAnchor.enableTitle') : ''}
        confirmLabel={groupAnchor.pending ? t(groupAnchor.pending.existing.length ? 'devices.groupAnchor.disableTitle' : 'devices.groupAnchor.enableTitle') : ''}>
        {groupAnchor.pending ? t(groupAnchor.pending.existing.length ? 'devices.groupAnchor.confirmOff' : 'devices.groupAnchor.confirmOn',
          { name: groupAnchor.pending.name, count: groupAnchor.pending.devices.length }) : ''}
      </ConfirmDialog>
    </div>
  );
}

interface GroupAnchorRequest {
  id: number;
  name: string;
  /** The group's anchors (non-empty: confirming removes them). */
  existing: GeofenceLike[];
  /** Devices of the group that can be anchored (a valid position, no anchor of their own). */
  devices: Array<{ device: Device; position: Position }>;
  /** Devices of the group without a position. */
  withoutPosition: number;
}

/**
 * A group anchor (tarkan-reference §5.7): one 150 m anchor per device of the group, each naming
 * the group; the group shows as anchored while any anchor names it; removing deletes them all.
 */
function useGroupAnchor(geofences: GeofenceLike[] | undefined) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<GroupAnchorRequest | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ text: string; error?: boolean } | null>(null);
  const ask = (id: number, name: string, devices: Device[]) => {
    const positions = useLive.getState().positions;
    const anchoredDevices = new Set((geofences ?? []).filter((g) => g.attributes?.isAnchor === true || g.attributes?.isAnchor === 'true')
      .map((g) => Number(g.attributes?.deviceId)));
    const members = devices.filter((d) => d.groupId === id && !isDeletedDevice(d));
    const usable: GroupAnchorRequest['devices'] = [];
    let withoutPosition = 0;
    for (const device of members) {
      const position = positions[device.id];
      if (!position || !isValidCoordinate(position.latitude, position.longitude)) withoutPosition += 1;
      else if (!anchoredDevices.has(device.id)) usable.push({ device, position });
    }
    const existing = groupAnchors(geofences, id);
    setNotice(null);
    if (existing.length === 0 && usable.length === 0) {
      setNotice({ text: t('devices.groupAnchor.nothing', { name }), error: true });
      return;
    }
    setPending({ id, name, existing, devices: usable, withoutPosition });
  };
  const cancel = () => {
    setPending(null);
    setNotice({ text: t('device.actions.cancelled') });
  };
  async function confirm() {
    if (!pending) return;
    setBusy(true);
    const created: GeofenceLike[] = [];
    const removed: number[] = [];
    try {
      if (pending.existing.length) {
        for (const g of pending.existing) {
          await removeAnchor(g.id);
          removed.push(g.id);
        }
        setNotice({ text: t('devices.groupAnchor.removed', { name: pending.name }) });
      } else {
        for (const { device, position } of pending.devices) created.push(await createAnchor(device.id, device.name, position, pending.id));
        setNotice({ text: t('devices.groupAnchor.created', { name: pending.name, count: created.length })
          + (pending.withoutPosition ? ` ${t('devices.groupAnchor.withoutPosition', { count: pending.withoutPosition })}` : '') });
      }
    } catch {
      setNotice({ text: t('device.errors.anchorFailed'), error: true });
    } finally {
      patchGeofenceCache(queryClient, created, removed);
      setPending(null);
      setBusy(false);
    }
  }
  return { pending, busy, notice, ask, cancel, confirm, dismiss: () => setNotice(null) };
}

export const Component = DevicesPage;
