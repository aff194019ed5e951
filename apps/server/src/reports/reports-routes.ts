// /api/reports: route, summary and events (this file); trips and stops come from the motion
// feature's own files, registered through `registerReportKind` (report-endpoint.ts), each
// in its own plugin, so neither file has to change for the other.
//
//   GET /api/reports/route    deviceId*, groupId*, from, to           → Position[] per device by fixTime
//   GET /api/reports/summary  deviceId*, groupId*, from, to, daily, path=fast|slow → ReportSummary[] (per device, or per device per day)
//   GET /api/reports/events   deviceId*, groupId*, from, to, type*, alarm* → Event[] per device by eventTime
// each also as a spreadsheet (Accept: xlsx type, or the /xlsx suffix).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { positionToJson, type PositionRow } from '../positions/position-json.ts';
import { MAX_HISTORY_POSITIONS } from '../positions/positions-repo.ts';
import { boolParam, many, single } from '../access/list-params.ts';
import { badRequest } from '../http/errors.ts';
import { parseAttributes, toIso } from '../http/json.ts';
import { registerReportKind, type ReportKind } from './report-endpoint.ts';
import { eventChunks, geofenceNames, positionChunks, visibleGeofenceIds, type EventRow, type ReportDevice } from './reports-repo.ts';
import { summaryRows, summaryToJson, type SummaryItem, type SummaryOptions } from './summary.ts';
import { attributeLookup } from '../events/attribute-lookup.ts';

export const routeReport: ReportKind<PositionRow> = {
  name: 'route',
  async open(request) {
    const db = request.ctx.storage.db;
    return async function* (device) {
      // Traccar's report.maxPositions per device; read in chunks, never the whole range.
      for await (const chunk of positionChunks(db, device.id, request.from, request.to, { limit: MAX_HISTORY_POSITIONS })) yield* chunk;
    };
  },
  toJson: positionToJson,
  sheet: {
    title: 'reportRoute',
    perDevice: true,
    columns: [
      { header: 'fixTime', kind: 'time', value: (p, f) => f.time(p.fixTime) },
      { header: 'latitude', kind: 'coordinate', value: (p) => p.latitude },
      { header: 'longitude', kind: 'coordinate', value: (p) => p.longitude },
      { header: 'speed', kind: 'speed', value: (p, f) => f.speed(p.speed) },
      { header: 'course', kind: 'number', value: (p) => p.course },
      { header: 'altitude', kind: 'number', value: (p) => p.altitude },
      {
        header: 'totalDistance', kind: 'distance',
        value: (p, f) => {
          const total = parseAttributes(p.attributes).totalDistance;
          return typeof total === 'number' ? f.distance(total) : null;
        },
      },
      { header: 'address', kind: 'text', value: (p) => p.address ?? null, width: 40 },
    ],
  },
};

export const summaryReport: ReportKind<SummaryItem> = {
  name: 'summary',
  async open(request) {
    const daily = boolParam(request.query, 'daily') ? { timeZone: request.prefs.timeZone } : null;
    // `path` (not a Traccar parameter, as for trips/stops): `slow` scans every position — the
    // oracle the default fast path (edges + motion segments) is compared with.
    const path = single(request.query, 'path') ?? 'fast';
    if (path !== 'fast' && path !== 'slow') throw badRequest('Invalid path - fast or slow');
    // report.ignoreOdometer as Traccar looks it up: device, its groups, server, configuration.
    const lookup = attributeLookup(request.ctx);
    const settings = (device: ReportDevice): SummaryOptions => {
      const source = { json: { attributes: parseAttributes(device.attributes), groupId: device.groupId } };
      const capacity = Number(source.json.attributes.fuelCapacity);
      return {
        ignoreOdometer: lookup.boolean(source, 'report.ignoreOdometer', { server: true }),
        fuelCapacity: Number.isFinite(capacity) && capacity > 0 ? capacity : null,
      };
    };
    return (device) => summaryRows(request.ctx.storage.db, [device], request.from, request.to, settings, daily, path === 'slow' ? 'scan' : 'fast');
  },
  toJson: summaryToJson,
  sheet: {
    title: 'reportSummary',
    perDevice: false,
    columns: [
      { header: 'device', kind: 'text', value: (s) => s.deviceName },
      { header: 'startTime', kind: 'time', value: (s, f) => f.time(s.startTime) },
      { header: 'endTime', kind: 'time', value: (s, f) => f.time(s.endTime) },
      { header: 'distance', kind: 'distance', value: (s, f) => f.distance(s.distance) },
      { header: 'startOdometer', kind: 'distance', value: (s, f) => f.distance(s.startOdometer) },
      { header: 'endOdometer', kind: 'distance', value: (s, f) => f.distance(s.endOdometer) },
      { header: 'averageSpeed', kind: 'speed', value: (s, f) => f.speed(s.averageSpeed) },
      { header: 'maxSpeed', kind: 'speed', value: (s, f) => f.speed(s.maxSpeed) },
      { header: 'engineHours', kind: 'duration', value: (s, f) => f.duration(s.engineHours) },
      { header: 'spentFuel', kind: 'number', value: (s) => s.spentFuel },
    ],
  },
};

export function eventToJson(row: EventRow) {
  return {
    id: row.id,
    type: row.type,
    eventTime: toIso(row.eventTime),
    deviceId: row.deviceId,
    positionId: row.positionId,
    geofenceId: row.geofenceId,
    maintenanceId: row.maintenanceId,
    attributes: parseAttributes(row.attributes),
  };
}

/** Values of a repeatable parameter that may also be comma-separated (`type=a&type=b` or `type=a,b`). */
function listParam(query: Record<string, string | string[] | undefined>, name: string): string[] {
  return many(query, name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

/** `type` absent, `allEvents` or `%` → every type. */
export function eventTypesFilter(types: string[]): Set<string> | null {
  if (types.length === 0 || types.some((t) => t === 'allEvents' || t === '%')) return null;
  return new Set(types);
}

/** An event with the name of its geofence (for the spreadsheet). */
export type EventItem = EventRow & { geofenceName?: string };

export const eventsReport: ReportKind<EventItem> = {
  name: 'events',
  async open(request) {
    const db = request.ctx.storage.db;
    const types = eventTypesFilter(listParam(request.query, 'type'));
    const alarmList = listParam(request.query, 'alarm');
    const alarms = alarmList.length > 0 ? new Set(alarmList) : null;
    // Events about a geofence the caller cannot see are dropped (administrators see all).
    const geofences = request.user.administrator === 1 ? null : await visibleGeofenceIds(db, request.user.id);
    const names = new Map<number, string>();
    return async function* (device) {
      for await (const chunk of eventChunks(db, device.id, request.from, request.to, types)) {
        const kept = chunk.filter((e) => {
          if (geofences && e.geofenceId !== 0 && !geofences.has(e.geofenceId)) return false;
          return !(alarms && e.type === 'alarm' && !alarms.has(String(parseAttributes(e.attributes).alarm)));
        });
        const unknown = [...new Set(kept.map((e) => e.geofenceId).filter((id) => id !== 0 && !names.has(id)))];
        if (unknown.length > 0) for (const g of await geofenceNames(db, unknown)) names.set(g.id, g.name);
        for (const e of kept) yield e.geofenceId !== 0 ? { ...e, geofenceName: names.get(e.geofenceId) ?? String(e.geofenceId) } : e;
      }
    };
  },
  toJson: eventToJson,
  sheet: {
    title: 'reportEvents',
    perDevice: true,
    columns: [
      { header: 'time', kind: 'time', value: (e, f) => f.time(e.eventTime) },
      { header: 'eventType', kind: 'text', value: (e, f) => f.eventType(e.type) },
      {
        header: 'alarm', kind: 'text',
        value: (e) => {
          const alarm = parseAttributes(e.attributes).alarm;
          return typeof alarm === 'string' ? alarm : null;
        },
      },
      { header: 'geofence', kind: 'text', value: (e) => e.geofenceName ?? null },
    ],
  },
};

export async function reportsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerReportKind(app, ctx, routeReport);
  registerReportKind(app, ctx, summaryReport);
  registerReportKind(app, ctx, eventsReport);
}
