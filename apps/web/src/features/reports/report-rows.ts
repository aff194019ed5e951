// What each report row shows (three short lines, so rows fit a 390 px sheet and the 440 px
// panel without a wide table) and where it is on the map. Units and times come from Formats
// (the user's units and time zone).
import type { TFunction } from '../../i18n/translator.ts';
import type { Event, Position } from '@rastro/domain/entities';
import type { ReportItems, ReportKind, StopItem, SummaryItem, TripItem } from './report-api.ts';
import type { Formats } from './use-formats.ts';
import { eventLabel } from './event-label.ts';

export interface RowModel {
  key: string;
  title: string;
  line1: string;
  line2: string;
  line3?: string;
  /** Where the row is on the map, when it has a place of its own. */
  point: { latitude: number; longitude: number } | null;
  /** Extra point (a trip's end). */
  endPoint?: { latitude: number; longitude: number } | null;
}

const coord = (lat: unknown, lon: unknown) =>
  typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon) && (lat !== 0 || lon !== 0)
    ? { latitude: lat, longitude: lon } : null;

const place = (address: string | null | undefined, p: { latitude: number; longitude: number } | null) =>
  address || (p ? `${p.latitude.toFixed(5)}, ${p.longitude.toFixed(5)}` : '—');

type Ctx = { f: Formats; t: TFunction; deviceName(id: number, given?: string): string; positions?: Map<number, Position> };

function summaryRow(s: SummaryItem, i: number, { f, t, deviceName }: Ctx): RowModel {
  return {
    key: `s${i}`,
    title: deviceName(s.deviceId, s.deviceName),
    line1: `${f.distance(s.distance)} · ${t('reports.short.max')} ${f.speed(s.maxSpeed)} · ${t('reports.short.avg')} ${f.speed(s.averageSpeed)}`,
    line2: `${f.time(s.startTime)} – ${f.time(s.endTime)} · ${t('reports.short.engine')} ${f.duration(s.engineHours)}`,
    point: null,
  };
}

function tripRow(r: TripItem, i: number, { f, t, deviceName }: Ctx): RowModel {
  const start = coord(r.startLat, r.startLon);
  const end = coord(r.endLat, r.endLon);
  return {
    key: `t${i}`,
    title: deviceName(r.deviceId, r.deviceName),
    line1: `${f.time(r.startTime)} – ${f.time(r.endTime)} · ${f.duration(r.duration)}`,
    line2: `${f.distance(r.distance)} · ${t('reports.short.max')} ${f.speed(r.maxSpeed)} · ${t('reports.short.avg')} ${f.speed(r.averageSpeed)}`,
    line3: `${place(r.startAddress, start)} → ${place(r.endAddress, end)}`,
    point: start,
    endPoint: end,
  };
}

function stopRow(s: StopItem, i: number, { f, t, deviceName }: Ctx): RowModel {
  const p = coord(s.latitude ?? s.lat, s.longitude ?? s.lon);
  return {
    key: `p${i}`,
    title: deviceName(s.deviceId, s.deviceName),
    line1: `${f.time(s.startTime)} – ${f.time(s.endTime)} · ${f.duration(s.duration)}${s.engineHours ? ` · ${t('reports.short.engine')} ${f.duration(s.engineHours)}` : ''}`,
    line2: place(s.address, p),
    point: p,
  };
}

function eventRow(e: Event, i: number, { f, t, deviceName, positions }: Ctx): RowModel {
  const pos = positions?.get(e.positionId);
  const p = pos ? coord(pos.latitude, pos.longitude) : null;
  return {
    key: `e${i}`,
    title: eventLabel(t, e),
    line1: `${deviceName(e.deviceId)} · ${f.timeSeconds(e.eventTime)}`,
    line2: pos ? `${place(pos.address, p)} · ${f.speed(pos.speed)}` : '',
    point: p,
  };
}

function routeRow(p: Position, i: number, { f, deviceName }: Ctx): RowModel {
  const c = coord(p.latitude, p.longitude);
  return {
    key: `r${i}`,
    title: `${deviceName(p.deviceId)} · ${f.timeSeconds(p.fixTime)}`,
    line1: f.speed(p.speed),
    line2: place(p.address, c),
    point: c,
  };
}

export function rowsOf<K extends ReportKind>(kind: K, items: ReadonlyArray<ReportItems[K]>, ctx: Ctx): RowModel[] {
  switch (kind) {
    case 'summary': return (items as readonly SummaryItem[]).map((x, i) => summaryRow(x, i, ctx));
    case 'trips': return (items as readonly TripItem[]).map((x, i) => tripRow(x, i, ctx));
    case 'stops': return (items as readonly StopItem[]).map((x, i) => stopRow(x, i, ctx));
    case 'events': return (items as readonly Event[]).map((x, i) => eventRow(x, i, ctx));
    default: return (items as readonly Position[]).map((x, i) => routeRow(x, i, ctx));
  }
}
