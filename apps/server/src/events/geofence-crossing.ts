// geofenceCrossed (reference A.5, event.geofence.segmentCrossing, off by default): the
// straight segment from the previous to the current position crosses a geofence of the device
// that contains neither point — a fast vehicle with sparse reports passing through it.
// Circle: the segment comes within the radius of the centre; polygon: the segment cuts an
// edge; line: the segment comes within polylineDistance of it (geometry in
// @rastro/domain/geofence-crossing, shared with the enter/exit pair of the geofence tracker).
import type { GeofenceArea } from '@rastro/domain/geofence-area';
import { segmentCrossesArea, segmentsIntersect } from '@rastro/domain/geofence-crossing';
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import type { CalendarCheck } from './calendars.ts';
import { positionEvent } from './event.ts';

export { segmentCrossesArea, segmentsIntersect };

export interface CrossableGeofence {
  id: number;
  area: GeofenceArea;
  calendarId: number;
  polylineDistance: number;
}

export function geofenceCrossedEvents(
  out: EventDraft[], position: PositionDraft, previous: PositionDraft | null,
  geofences: readonly CrossableGeofence[], inCalendar: CalendarCheck,
): void {
  if (!previous || geofences.length === 0) return;
  if (previous.latitude === position.latitude && previous.longitude === position.longitude) return;
  const before = previous.geofenceIds ?? [];
  const now = position.geofenceIds ?? [];
  for (const g of geofences) {
    if (before.includes(g.id) || now.includes(g.id)) continue;
    if (g.calendarId !== 0 && !inCalendar(g.calendarId, position.fixTime)) continue;
    if (segmentCrossesArea(g.area, [previous.latitude, previous.longitude], [position.latitude, position.longitude], g.polylineDistance)) {
      out.push(positionEvent('geofenceCrossed', position, {}, g.id));
    }
  }
}
