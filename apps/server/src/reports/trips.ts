// GET /api/reports/trips (and /xlsx): the trips of each device in the period (reference A.4,
// OpenAPI ReportTrips), from the motion feature's segments (motion/motion-report.ts).
import type { ReportTrip } from '@rastro/domain/reports';
import { knotsFromMps } from '@rastro/domain/units';
import { toIso } from '../http/json.ts';
import type { ReportKind } from './report-kind.ts';
import { pathParam } from './report-request.ts';
import { openMotionReport, type MotionItem } from './trips-stops-common.ts';

export function tripToJson(t: MotionItem): ReportTrip {
  const duration = t.endTime - t.startTime;
  return {
    deviceId: t.deviceId,
    deviceName: t.deviceName,
    maxSpeed: t.maxSpeed,
    averageSpeed: duration > 0 ? knotsFromMps(t.distance / (duration / 1000)) : 0,
    distance: t.distance,
    spentFuel: t.spentFuel,
    duration,
    startTime: toIso(t.startTime),
    startAddress: t.startAddress,
    startLat: t.startLat,
    startLon: t.startLon,
    endTime: toIso(t.endTime),
    endAddress: t.endAddress,
    endLat: t.endLat,
    endLon: t.endLon,
    startPositionId: t.startPositionId,
    endPositionId: t.endPositionId,
    startOdometer: t.startOdometer,
    endOdometer: t.endOdometer,
    driverUniqueId: t.driverUniqueId,
    driverName: null,
  };
}

export const tripsReport: ReportKind<MotionItem> = {
  name: 'trips',
  check: (params) => void pathParam(params.query),
  open: (request) => openMotionReport(request, 'trip'),
  toJson: tripToJson,
  sheet: {
    title: 'reportTrips',
    perDevice: true,
    columns: [
      { header: 'startTime', kind: 'time', value: (t, f) => f.time(t.startTime) },
      { header: 'startOdometer', kind: 'distance', value: (t, f) => f.distance(t.startOdometer) },
      { header: 'startAddress', kind: 'text', value: (t) => t.startAddress ?? '', width: 40 },
      { header: 'endTime', kind: 'time', value: (t, f) => f.time(t.endTime) },
      { header: 'endOdometer', kind: 'distance', value: (t, f) => f.distance(t.endOdometer) },
      { header: 'endAddress', kind: 'text', value: (t) => t.endAddress ?? '', width: 40 },
      { header: 'distance', kind: 'distance', value: (t, f) => f.distance(t.distance) },
      {
        header: 'averageSpeed', kind: 'speed',
        value: (t, f) => f.speed(t.endTime > t.startTime ? knotsFromMps(t.distance / ((t.endTime - t.startTime) / 1000)) : 0),
      },
      { header: 'maxSpeed', kind: 'speed', value: (t, f) => f.speed(t.maxSpeed) },
      { header: 'duration', kind: 'duration', value: (t, f) => f.duration(t.endTime - t.startTime) },
      { header: 'spentFuel', kind: 'number', value: (t) => t.spentFuel },
      { header: 'driver', kind: 'text', value: (t) => t.driverUniqueId ?? '' },
    ],
  },
};
