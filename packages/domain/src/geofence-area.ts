// Geofence areas in Traccar's WKT-like text, LATITUDE FIRST (not standard WKT order):
//   CIRCLE (lat lon, radiusMeters)
//   POLYGON ((lat lon, lat lon, lat lon, ...))   at least 3 points, closing point optional
//   LINESTRING (lat lon, lat lon, ...)           at least 2 points
// Parse (with a readable error), format, containment (circle: haversine, polygon: ray casting
// on degrees with antimeridian support, line: within `polylineDistance` metres of a segment)
// and the area summary the client shows.

export type LatLon = readonly [latitude: number, longitude: number];

export type GeofenceArea =
  | { type: 'circle'; latitude: number; longitude: number; radius: number }
  | { type: 'polygon'; points: LatLon[] }
  | { type: 'linestring'; points: LatLon[] };

export type AreaParseResult = { ok: true; area: GeofenceArea } | { ok: false; error: string };

/** Earth radius Traccar uses everywhere (equatorial, metres). */
export const EARTH_RADIUS_M = 6_378_137;

/** Default corridor half-width of a LINESTRING geofence (attribute `polylineDistance`). */
export const DEFAULT_POLYLINE_DISTANCE_M = 25;

const NUMBER = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;
const POINT_RE = new RegExp(String.raw`^(${NUMBER})\s+(${NUMBER})$`);
const CIRCLE_RE = new RegExp(String.raw`^CIRCLE\s*\(\s*(${NUMBER})\s+(${NUMBER})\s*,\s*(${NUMBER})\s*\)$`, 'i');
const POLYGON_RE = /^POLYGON\s*\(\s*\((.*)\)\s*\)$/is;
const LINESTRING_RE = /^LINESTRING\s*\((.*)\)$/is;

function checkPoint(latitude: number, longitude: number): string | null {
  if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90) {
    return `Invalid area - latitude ${latitude} is out of range (-90 to 90)`;
  }
  if (!Number.isFinite(longitude) || longitude < -180 || longitude > 180) {
    return `Invalid area - longitude ${longitude} is out of range (-180 to 180)`;
  }
  return null;
}

function parsePoints(text: string): { points: LatLon[] } | { error: string } {
  const points: LatLon[] = [];
  for (const part of text.split(',')) {
    const match = POINT_RE.exec(part.trim());
    if (!match) return { error: `Invalid area - "${part.trim().slice(0, 40)}" is not a "latitude longitude" point` };
    const latitude = Number(match[1]);
    const longitude = Number(match[2]);
    const problem = checkPoint(latitude, longitude);
    if (problem) return { error: problem };
    points.push([latitude, longitude]);
  }
  return { points };
}

const samePoint = (a: LatLon, b: LatLon) => a[0] === b[0] && a[1] === b[1];

/** Reads an area; the error is a client-facing message ("Invalid area - ..."). */
export function parseArea(input: string): AreaParseResult {
  const text = input.trim();
  if (text === '') return { ok: false, error: 'Invalid area - the area is empty' };
  if (text.length > 1_000_000) return { ok: false, error: 'Invalid area - too many points' };
  const keyword = /^[A-Za-z]+/.exec(text)?.[0].toUpperCase();
  if (keyword === 'CIRCLE') {
    const match = CIRCLE_RE.exec(text);
    if (!match) return { ok: false, error: 'Invalid area - a circle is written CIRCLE (latitude longitude, radius)' };
    const latitude = Number(match[1]);
    const longitude = Number(match[2]);
    const radius = Number(match[3]);
    const problem = checkPoint(latitude, longitude);
    if (problem) return { ok: false, error: problem };
    if (!Number.isFinite(radius) || radius <= 0) return { ok: false, error: 'Invalid area - the circle radius must be greater than 0' };
    return { ok: true, area: { type: 'circle', latitude, longitude, radius } };
  }
  if (keyword === 'POLYGON') {
    const match = POLYGON_RE.exec(text);
    if (!match) return { ok: false, error: 'Invalid area - a polygon is written POLYGON ((lat lon, lat lon, lat lon))' };
    const parsed = parsePoints(match[1]!);
    if ('error' in parsed) return { ok: false, error: parsed.error };
    const points = parsed.points;
    // The closing point (equal to the first) is optional and not counted.
    if (points.length > 1 && samePoint(points[0]!, points[points.length - 1]!)) points.pop();
    if (points.length < 3) return { ok: false, error: 'Invalid area - a polygon needs at least 3 points' };
    return { ok: true, area: { type: 'polygon', points } };
  }
  if (keyword === 'LINESTRING') {
    const match = LINESTRING_RE.exec(text);
    if (!match) return { ok: false, error: 'Invalid area - a line is written LINESTRING (lat lon, lat lon)' };
    const parsed = parsePoints(match[1]!);
    if ('error' in parsed) return { ok: false, error: parsed.error };
    if (parsed.points.length < 2) return { ok: false, error: 'Invalid area - a line needs at least 2 points' };
    return { ok: true, area: { type: 'linestring', points: parsed.points } };
  }
  return { ok: false, error: 'Invalid area - it must start with CIRCLE, POLYGON or LINESTRING' };
}

const pointText = (p: LatLon) => `${p[0]} ${p[1]}`;

/** Writes an area the way Traccar's clients do (polygons closed on their first point). */
export function formatArea(area: GeofenceArea): string {
  switch (area.type) {
    case 'circle':
      return `CIRCLE (${area.latitude} ${area.longitude}, ${area.radius})`;
    case 'polygon': {
      const points = [...area.points];
      if (points.length > 0 && !samePoint(points[0]!, points[points.length - 1]!)) points.push(points[0]!);
      return `POLYGON ((${points.map(pointText).join(', ')}))`;
    }
    case 'linestring':
      return `LINESTRING (${area.points.map(pointText).join(', ')})`;
  }
}

const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in metres (haversine, Traccar's earth radius). */
export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = rad(lat2 - lat1);
  const dLon = rad(lon2 - lon1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(rad(lat1)) * Math.cos(rad(lat2)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Whether a polygon spans the antimeridian (consecutive longitudes more than 180° apart). */
function crossesAntimeridian(points: readonly LatLon[]): boolean {
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    if (Math.abs(a[1] - b[1]) > 180) return true;
  }
  return false;
}

function insidePolygon(points: readonly LatLon[], latitude: number, longitude: number): boolean {
  // Across the antimeridian, negative longitudes move to 180..360 so edges stay short.
  const shift = crossesAntimeridian(points);
  const lon = (x: number) => (shift && x < 0 ? x + 360 : x);
  const x = lon(longitude);
  const y = latitude;
  let inside = false;
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const yi = points[i]![0];
    const xi = lon(points[i]![1]);
    const yj = points[j]![0];
    const xj = lon(points[j]![1]);
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Distance in metres from a point to a segment (local equirectangular projection; fine at geofence scale). */
function distanceToSegment(p: LatLon, a: LatLon, b: LatLon): number {
  const cos = Math.cos(rad(p[0]));
  const toXY = (q: LatLon): [number, number] => [rad(q[1] - p[1]) * cos * EARTH_RADIUS_M, rad(q[0] - p[0]) * EARTH_RADIUS_M];
  const [ax, ay] = toXY(a);
  const [bx, by] = toXY(b);
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length2));
  return Math.hypot(ax + t * dx, ay + t * dy);
}

/** Is the point inside the area? `polylineDistance` (metres) is the corridor of a line. */
export function areaContains(area: GeofenceArea, latitude: number, longitude: number, polylineDistance = DEFAULT_POLYLINE_DISTANCE_M): boolean {
  switch (area.type) {
    case 'circle':
      return distanceMeters(area.latitude, area.longitude, latitude, longitude) <= area.radius;
    case 'polygon':
      return insidePolygon(area.points, latitude, longitude);
    case 'linestring': {
      const p: LatLon = [latitude, longitude];
      for (let i = 0; i + 1 < area.points.length; i++) {
        if (distanceToSegment(p, area.points[i]!, area.points[i + 1]!) <= polylineDistance) return true;
      }
      return false;
    }
  }
}

/**
 * The circle "area" the product shows, exactly as the spec words it: the radius squared
 * times pi, divided by 1000 (labelled km²).
 */
export function circleAreaKm2(radius: number): number {
  return (radius * radius * Math.PI) / 1000;
}

/** What the geofence list shows: a circle's area, or the number of points of a polygon / line. */
export function areaSummary(area: GeofenceArea): { kind: 'area'; km2: number } | { kind: 'points'; count: number } {
  return area.type === 'circle' ? { kind: 'area', km2: circleAreaKm2(area.radius) } : { kind: 'points', count: area.points.length };
}

/** Geofence as the Traccar API sends it. */
export interface Geofence {
  id: number;
  name: string;
  description: string | null;
  area: string;
  calendarId: number;
  attributes: Record<string, unknown>;
}
