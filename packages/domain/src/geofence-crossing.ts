// Geofence crossings people can trust (issue 14 item 3), pure rules shared by the server's
// geofence step and the dry run:
//  - segment crossing: the straight segment between two fixes meets an area (a polygon edge
//    is cut, a circle's centre comes within the radius, a line's corridor of
//    `polylineDistance` metres is touched) — a vehicle passing a zone between sparse fixes;
//  - distance outside an area, for the exit buffer;
//  - hysteresis: a dwell time before "inside" counts and an exit buffer in metres, so GPS
//    drift at a fence line does not fire enter/exit storms.
// Distances use a local equirectangular projection around the segment's start (metres),
// accurate at geofence scale (well under 1 % over tens of kilometres).
import { areaContains, distanceMeters, EARTH_RADIUS_M, type GeofenceArea, type LatLon } from './geofence-area.ts';

type XY = readonly [number, number];

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

/** Distance from point p to segment ab (plane). */
export function pointSegmentDistance(p: XY, a: XY, b: XY): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1]);
}

function segmentSegmentDistance(a: XY, b: XY, c: XY, d: XY): number {
  if (segmentsIntersect(a, b, c, d)) return 0;
  return Math.min(pointSegmentDistance(a, c, d), pointSegmentDistance(b, c, d), pointSegmentDistance(c, a, b), pointSegmentDistance(d, a, b));
}

/** Metres east / north of `origin`; longitudes unwrapped so a zone across the antimeridian stays whole. */
function projector(origin: LatLon): (q: LatLon) => XY {
  const cos = Math.cos(origin[0] * RAD);
  return (q) => {
    let dLon = q[1] - origin[1];
    if (dLon > 180) dLon -= 360;
    else if (dLon < -180) dLon += 360;
    return [dLon * RAD * cos * EARTH_RADIUS_M, (q[0] - origin[0]) * RAD * EARTH_RADIUS_M];
  };
}

/** Whether the segment from → to (lat, lon) meets the area (a line: its corridor of `polylineDistance` m). */
export function segmentCrossesArea(area: GeofenceArea, from: LatLon, to: LatLon, polylineDistance: number): boolean {
  const xy = projector(from);
  const a = xy(from), b = xy(to);
  switch (area.type) {
    case 'circle':
      return pointSegmentDistance(xy([area.latitude, area.longitude]), a, b) <= area.radius;
    case 'polygon': {
      const pts = area.points;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
        if (segmentsIntersect(a, b, xy(pts[j]!), xy(pts[i]!))) return true;
      }
      // A segment wholly inside cuts no edge.
      return areaContains(area, from[0], from[1]);
    }
    case 'linestring': {
      const pts = area.points;
      for (let i = 0; i + 1 < pts.length; i++) {
        if (segmentSegmentDistance(a, b, xy(pts[i]!), xy(pts[i + 1]!)) <= polylineDistance) return true;
      }
      return false;
    }
  }
}

/** Metres from the point to the area (0 inside); a line's area is its corridor. */
export function distanceOutside(area: GeofenceArea, latitude: number, longitude: number, polylineDistance: number): number {
  switch (area.type) {
    case 'circle':
      return Math.max(0, distanceMeters(area.latitude, area.longitude, latitude, longitude) - area.radius);
    case 'polygon': {
      if (areaContains(area, latitude, longitude)) return 0;
      const xy = projector([latitude, longitude]);
      const p: XY = [0, 0];
      const pts = area.points;
      let best = Infinity;
      for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) best = Math.min(best, pointSegmentDistance(p, xy(pts[j]!), xy(pts[i]!)));
      return best;
    }
    case 'linestring': {
      const xy = projector([latitude, longitude]);
      const p: XY = [0, 0];
      const pts = area.points;
      let best = Infinity;
      for (let i = 0; i + 1 < pts.length; i++) best = Math.min(best, pointSegmentDistance(p, xy(pts[i]!), xy(pts[i + 1]!)));
      return Math.max(0, best - polylineDistance);
    }
  }
}

/**
 * Hysteresis of one geofence. Attribute names (on the geofence, docs/geofences.md):
 * `dwellTime` seconds a fix must stay inside before "inside" counts (default 0: at once),
 * `exitBuffer` metres a fix must go beyond the edge before "outside" counts (default 10 m,
 * above the 2–5 m drift of a parked GPS receiver and well below a lane's width).
 */
export interface Hysteresis {
  dwellMs: number;
  exitBufferM: number;
}

export const DEFAULT_DWELL_S = 0;
export const DEFAULT_EXIT_BUFFER_M = 10;

export function hysteresisFrom(attributes: Record<string, unknown>): Hysteresis {
  const num = (v: unknown, fallback: number) => {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    return Number.isFinite(n) && n >= 0 ? n : fallback;
  };
  return { dwellMs: num(attributes.dwellTime, DEFAULT_DWELL_S) * 1000, exitBufferM: num(attributes.exitBuffer, DEFAULT_EXIT_BUFFER_M) };
}

/** What the hysteresis remembers of one geofence between fixes. */
export interface Membership {
  inside: boolean;
  /** fixTime (ms) of the first fix of the current run inside, while the dwell is not over. */
  pendingSince: number | null;
}

/**
 * The next membership from the previous one and the new fix. `rawInside` is the exact area
 * test; `outsideBy` the fix's distance outside (asked only when it matters).
 *  - inside: stays inside while the fix is inside or within the exit buffer;
 *  - outside: becomes inside once fixes have been inside for `dwellMs` (a fix outside resets it).
 */
export function nextMembership(before: Membership, rawInside: boolean, outsideBy: () => number, fixTime: number, h: Hysteresis): Membership {
  if (before.inside) return { inside: rawInside || outsideBy() <= h.exitBufferM, pendingSince: null };
  if (!rawInside) return { inside: false, pendingSince: null };
  const since = before.pendingSince ?? fixTime;
  // A fix dated before the run started (should not happen: out-of-order fixes are not fed) restarts it.
  if (fixTime < since) return { inside: h.dwellMs === 0, pendingSince: h.dwellMs === 0 ? null : fixTime };
  return fixTime - since >= h.dwellMs ? { inside: true, pendingSince: null } : { inside: false, pendingSince: since };
}
