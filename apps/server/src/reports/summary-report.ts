// GET /api/reports/summary: per device (and per local day with daily=true) the summary rows
// of summary.ts (reference A.4, OpenAPI ReportSummary).
import { boolParam } from '../access/list-params.ts';
import { parseAttributes } from '../http/json.ts';
import type { ReportKind } from './report-kind.ts';
import { pathParam } from './report-request.ts';
import type { ReportDevice } from './reports-repo.ts';
import { summaryRows, summaryToJson, type SummaryItem, type SummaryOptions } from './summary.ts';

export const summaryReport: ReportKind<SummaryItem> = {
  name: 'summary',
  // `path` (not a Traccar parameter, as for trips/stops): `slow` scans every position — the
  // oracle the default fast path (edges + motion segments) is compared with.
  check: (params) => void pathParam(params.query),
  async open(request) {
    const daily = boolParam(request.query, 'daily') ? { timeZone: request.prefs.timeZone } : null;
    const path = pathParam(request.query);
    // report.ignoreOdometer as Traccar looks it up: device, its groups, server, configuration.
    const settings = (device: ReportDevice): SummaryOptions => {
      const source = { json: { attributes: parseAttributes(device.attributes), groupId: device.groupId } };
      const capacity = Number(source.json.attributes.fuelCapacity);
      return {
        ignoreOdometer: request.lookup.boolean(source, 'report.ignoreOdometer', { server: true }),
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
