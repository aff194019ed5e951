// The little geometry the demo needs: distances and bearings on the sphere, and walking a
// polyline by distance. Points are [latitude, longitude] in degrees.

export type LatLon = readonly [number, number];

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (deg: number) => (deg * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

export const KNOTS_PER_KMH = 1 / 1.852;
export const kmhToKnots = (kmh: number): number => kmh * KNOTS_PER_KMH;

/** Great-circle distance in metres. */
export function haversineMeters(a: LatLon, b: LatLon): number {
  const dLat = rad(b[0] - a[0]);
  const dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Initial bearing from a to b, degrees clockwise from north in [0, 360). */
export function bearingDegrees(a: LatLon, b: LatLon): number {
  const lat1 = rad(a[0]);
  const lat2 = rad(b[0]);
  const dLon = rad(b[1] - a[1]);
  const y = Math.sin(dLon) * Math.cos(lat2);
  const x = Math.cos(lat1) * Math.sin(lat2) - Math.sin(lat1) * Math.cos(lat2) * Math.cos(dLon);
  return normaliseCourse(deg(Math.atan2(y, x)));
}

export function normaliseCourse(course: number): number {
  const c = course % 360;
  return c < 0 ? c + 360 : c;
}

export interface PointOnLine {
  latitude: number;
  longitude: number;
  /** Bearing of the segment the point lies on (direction of travel from first to last point). */
  course: number;
}

/** A polyline walked by distance from its first point. */
export class Polyline {
  /** Total length in metres. */
  readonly length: number;
  private readonly cumulative: number[];

  constructor(readonly points: readonly LatLon[]) {
    if (points.length < 2) throw new Error('a polyline needs at least two points');
    this.cumulative = [0];
    let total = 0;
    for (let i = 1; i < points.length; i++) {
      total += haversineMeters(points[i - 1]!, points[i]!);
      this.cumulative.push(total);
    }
    this.length = total;
  }

  /** The point `distance` metres along the line (clamped to its ends). */
  at(distance: number): PointOnLine {
    const d = Math.min(Math.max(distance, 0), this.length);
    // Binary search for the segment holding d.
    let lo = 0;
    let hi = this.points.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.cumulative[mid]! <= d) lo = mid;
      else hi = mid - 1;
    }
    const a = this.points[lo]!;
    const b = this.points[lo + 1]!;
    const span = this.cumulative[lo + 1]! - this.cumulative[lo]!;
    const f = span > 0 ? (d - this.cumulative[lo]!) / span : 0;
    return {
      latitude: a[0] + f * (b[0] - a[0]),
      longitude: a[1] + f * (b[1] - a[1]),
      course: bearingDegrees(a, b),
    };
  }

  /** Distance along the line of the point on it nearest to `p` (to resume where a vehicle was). */
  locate(p: LatLon): number {
    // Flat projection around p: fine at city scale.
    const kx = Math.cos(rad(p[0]));
    let best = 0;
    let bestSq = Infinity;
    for (let i = 0; i + 1 < this.points.length; i++) {
      const a = this.points[i]!;
      const b = this.points[i + 1]!;
      const ax = (a[1] - p[1]) * kx;
      const ay = a[0] - p[0];
      const bx = (b[1] - p[1]) * kx;
      const by = b[0] - p[0];
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.min(1, Math.max(0, -(ax * dx + ay * dy) / len2)) : 0;
      const x = ax + t * dx;
      const y = ay + t * dy;
      const sq = x * x + y * y;
      if (sq < bestSq) {
        bestSq = sq;
        best = this.cumulative[i]! + t * (this.cumulative[i + 1]! - this.cumulative[i]!);
      }
    }
    return best;
  }
}
