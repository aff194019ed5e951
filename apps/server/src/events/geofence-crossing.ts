// geofenceCrossed (reference A.5, event.geofence.segmentCrossing, off by default): the
// straight segment from the previous to the current position crosses a geofence of the device
// that contains neither point — a fast vehicle with sparse reports passing through it.
// Circle: the segment comes within the radius of the centre; polygon: the segment cuts an
// edge; line: the segment comes within polylineDistance of it. Distances in a local
// equirectangular projection (metres), fine at geofence scale.
import { EARTH_RADIUS_M, type GeofenceArea, type LatLon } from '@rastro/domain/geofence-area';
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import type { CalendarCheck } from './calendars.ts';
import { positionEvent } from './event.ts';

type XY = [number, number];

const RAD = Math.PI / 180;

function cross(o: XY, a: XY, b: XY): number {
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/** Whether segments ab and cd intersect (touching counts). */
export function segmentsIntersect(a: XY, b: XY, c: XY, d: XY): boolean {
  const d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const on = (p: XY, q: XY, r: XY) => Math.min(p[0], q[0]) <= r[0] && r[0] <= Math.max(p[0], q[0]) && Math.min(p[1], q[1]) <= r[1] && r[1] <= Math.max(p[1], q[1]);
  return (d1 === 0 && on(c, d, a)) || (d2 === 0 && on(c, d, b)) || (d3 === 0 && on(a, b, c)) || (d4 === 0 && on(a, b, d));
}

function pointSegment(p: XY, a: XY, b: XY): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1]);
}

function segmentSegment(a: XY, b: XY, c: XY, d: XY): number {
  if (segmentsIntersect(a, b, c, d)) return 0;
  return Math.min(pointSegment(a, c, d), pointSegment(b, c, d), pointSegment(c, a, b), pointSegment(d, a, b));
}

/** Whether the segment from → to (lat, lon) meets the area. */
export function segmentCrossesArea(area: GeofenceArea, from: LatLon, to: LatLon, polylineDistance: number): boolean {
  const cos = Math.cos(from[0] * RAD);
  const xy = (q: LatLon): XY => [(q[1] - from[1]) * RAD * cos * EARTH_RADIUS_M, (q[0] - from[0]) * RAD * EARTH_RADIUS_M];
  const a = xy(from), b = xy(to);
  switch (area.type) {
    case 'circle':
      return pointSegment(xy([area.latitude, area.longitude]), a, b) <= area.radius;
    case 'polygon': {
      const pts = area.points;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        if (segmentsIntersect(a, b, xy(pts[j]!), xy(pts[i]!))) return true;
      }
      return false;
    }
    case 'linestring': {
      const pts = area.points;
      for (let i = 0; i + 1 < pts.length; i++) {
        if (segmentSegment(a, b, xy(pts[i]!), xy(pts[i + 1]!)) <= polylineDistance) return true;
      }
      return false;
    }
  }
}

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
