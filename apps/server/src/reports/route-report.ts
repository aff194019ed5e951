// GET /api/reports/route: the positions of each device in the period by fixTime, at most
// Traccar's report.maxPositions per device (reference A.4). Position history
// (GET /api/positions?deviceId&from&to) is this report's JSON for one device.
import { positionToJson, type PositionRow } from '../positions/position-json.ts';
import { MAX_HISTORY_POSITIONS } from '../positions/positions-repo.ts';
import { parseAttributes } from '../http/json.ts';
import type { ReportKind } from './report-kind.ts';
import { positionChunks } from './reports-repo.ts';

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
