// The report calls (spec §7, traccar-reference A.4): route, summary, trips, stops and events
// with repeated deviceId/groupId, from and to as ISO instants; the same URL asked with the
// spreadsheet Accept header is the export, saved as a file.
import type { Event, Position } from '@rastro/domain/entities';
import type { ReportStop, ReportSummary, ReportTrip } from '@rastro/domain/reports';
import { api, buildQuery, HttpError, TRACCAR_TIMEOUT_MS, type Query } from '../../api/http.ts';
import { fetchPositionsByIds } from '../../api/positions.ts';
import { deriveErrorCode } from '@rastro/domain/errors';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export type ReportKind = 'route' | 'summary' | 'trips' | 'stops' | 'events';

export type { ReportStop as StopItem, ReportSummary as SummaryItem, ReportTrip as TripItem } from '@rastro/domain/reports';

export interface ReportItems {
  route: Position;
  summary: ReportSummary;
  trips: ReportTrip;
  stops: ReportStop;
  events: Event;
}

export interface ReportParams {
  deviceIds: number[];
  groupIds: number[];
  from: string;
  to: string;
}

export function reportQuery(kind: ReportKind, p: ReportParams): Query {
  const query: Query = { deviceId: p.deviceIds, groupId: p.groupIds, from: p.from, to: p.to };
  if (kind === 'events') query.type = 'allEvents';
  if (kind === 'summary' || kind === 'route') query.daily = false;
  return query;
}

export function fetchReport<K extends ReportKind>(kind: K, p: ReportParams, signal?: AbortSignal): Promise<Array<ReportItems[K]>> {
  return api.raw<Array<ReportItems[K]>>(`/reports/${kind}`, { query: reportQuery(kind, p), signal }).then((r) => (Array.isArray(r.data) ? r.data : []));
}

/** A device's positions in a period (GET /api/positions?deviceId&from&to). */
export function fetchPositions(deviceId: number, from: string, to: string, signal?: AbortSignal): Promise<Position[]> {
  return api.raw<Position[]>('/positions', { query: { deviceId, from, to }, signal }).then((r) => (Array.isArray(r.data) ? r.data : []));
}

/** Positions by id, asked in batches of 500 ids (spec §7/§9; the shared api/positions helper). */
export const fetchPositionsById = (ids: readonly number[]): Promise<Position[]> => fetchPositionsByIds(ids);

/** Asks the server for the report as a spreadsheet and saves it under `filename`. */
export async function downloadReport(kind: ReportKind, p: ReportParams, filename: string): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TRACCAR_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(`/api/reports/${kind}${buildQuery(reportQuery(kind, p))}`, {
      headers: { Accept: XLSX_TYPE },
      credentials: 'include',
      signal: controller.signal,
    });
  } catch {
    throw new HttpError(0, 'CONNECTION_ERROR', '');
  } finally {
    clearTimeout(timer);
  }
  if (response.status >= 400) {
    const text = await response.text().catch(() => '');
    throw new HttpError(response.status, text ? deriveErrorCode(text) : `HTTP_${response.status}`, text);
  }
  const blob = await response.blob();
  const pdf = (response.headers.get('content-type') ?? '').includes('pdf');
  const name = pdf ? filename.replace(/\.xlsx$/, '.pdf') : filename;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
