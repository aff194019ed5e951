// GET /api/reports/stops (and /xlsx): the stops of each device in the period (reference A.4,
// OpenAPI ReportStops), from the motion feature's segments (motion/motion-report.ts).
import type { ReportStop } from '@rastro/domain/reports';
import { toIso } from '../http/json.ts';
import type { ReportKind } from './report-kind.ts';
import { pathParam } from './report-request.ts';
import { openMotionReport, type MotionItem } from './trips-stops-common.ts';

/** Engine hours of a stop: the `hours` delta when both ends have it (ms). */
export const stopEngineHours = (s: MotionItem) => (s.startHours !== null && s.endHours !== null ? Math.round(s.endHours - s.startHours) : 0);

export function stopToJson(s: MotionItem): ReportStop {
  return {
    deviceId: s.deviceId,
    deviceName: s.deviceName,
    positionId: s.startPositionId,
    latitude: s.startLat,
    longitude: s.startLon,
    address: s.startAddress,
    startTime: toIso(s.startTime),
    endTime: toIso(s.endTime),
    duration: s.endTime - s.startTime,
    engineHours: stopEngineHours(s),
    spentFuel: s.spentFuel,
    startOdometer: s.startOdometer,
    endOdometer: s.endOdometer,
    distance: 0,
    averageSpeed: 0,
    maxSpeed: 0,
  };
}

export const stopsReport: ReportKind<MotionItem> = {
  name: 'stops',
  check: (params) => void pathParam(params.query),
  open: (request) => openMotionReport(request, 'stop'),
  toJson: stopToJson,
  sheet: {
    title: 'reportStops',
    perDevice: true,
    columns: [
      { header: 'startTime', kind: 'time', value: (s, f) => f.time(s.startTime) },
      { header: 'endTime', kind: 'time', value: (s, f) => f.time(s.endTime) },
      { header: 'duration', kind: 'duration', value: (s, f) => f.duration(s.endTime - s.startTime) },
      { header: 'latitude', kind: 'coordinate', value: (s) => s.startLat },
      { header: 'longitude', kind: 'coordinate', value: (s) => s.startLon },
      { header: 'address', kind: 'text', value: (s) => s.startAddress ?? '', width: 40 },
      { header: 'startOdometer', kind: 'distance', value: (s, f) => f.distance(s.startOdometer) },
      { header: 'engineHours', kind: 'duration', value: (s, f) => f.duration(stopEngineHours(s)) },
      { header: 'spentFuel', kind: 'number', value: (s) => s.spentFuel },
    ],
  },
};
