// GET /api/reports/combined: what the web client's combined report draws, one item per covered
// device (with or without data): `route`, the [longitude, latitude] of every position in the
// period by fixTime; `events`, the events in the period that have a position, except
// deviceMoving (as Traccar); `positions`, the positions in the period those events point at
// (reference A.4, Traccar's CombinedReportProvider).
//
// As in the events report, events about a geofence the caller cannot see are left out, and so
// is their position. Traccar loads a device's whole period into memory; here the route and
// the events each stop at report.maxPositions per device, as the route report does, so one
// item stays bounded however long the period (the item is written as one JSON value).
import { eventToJson } from '../events/event-json.ts';
import { positionToJson, type PositionRow } from '../positions/position-json.ts';
import { MAX_HISTORY_POSITIONS } from '../positions/positions-repo.ts';
import type { ReportKind } from './report-kind.ts';
import { coordinateChunks, eventChunks, positionsByIdsIn, visibleGeofenceIds, type EventRow } from './reports-repo.ts';

/** Event types Traccar leaves out of the combined report. */
const LEFT_OUT = new Set(['deviceMoving']);

export interface CombinedItem {
  deviceId: number;
  route: Array<[number, number]>;
  events: EventRow[];
  positions: PositionRow[];
}

export const combinedReport: ReportKind<CombinedItem> = {
  name: 'combined',
  async open(request) {
    const db = request.ctx.storage.db;
    const { from, to } = request;
    // Administrators see every geofence.
    const geofences = request.user.administrator === 1 ? null : await visibleGeofenceIds(db, request.user.id);
    return async function* (device) {
      const route: Array<[number, number]> = [];
      for await (const chunk of coordinateChunks(db, device.id, from, to, MAX_HISTORY_POSITIONS)) {
        for (const point of chunk) route.push(point);
      }
      const events: EventRow[] = [];
      // As Traccar: the positions of every event in the period, deviceMoving's included.
      const pointedAt = new Set<number>();
      let read = 0;
      for await (const chunk of eventChunks(db, device.id, from, to, null)) {
        for (const event of chunk.slice(0, MAX_HISTORY_POSITIONS - read)) {
          if (event.positionId <= 0 || (geofences && event.geofenceId !== 0 && !geofences.has(event.geofenceId))) continue;
          pointedAt.add(event.positionId);
          if (!LEFT_OUT.has(event.type)) events.push(event);
        }
        read += chunk.length;
        if (read >= MAX_HISTORY_POSITIONS) break;
      }
      const positions = await positionsByIdsIn(db, device.id, [...pointedAt], from, to);
      yield { deviceId: device.id, route, events, positions };
    };
  },
  toJson: (item) => ({
    deviceId: item.deviceId,
    route: item.route,
    events: item.events.map(eventToJson),
    positions: item.positions.map(positionToJson),
  }),
};
