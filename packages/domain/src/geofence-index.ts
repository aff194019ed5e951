// A spatial index of geofences: a uniform grid of cells in degrees, each cell listing the
// geofences whose bounding box touches it. Finding the zones near a fix is one cell lookup
// instead of a loop over every geofence (issue 14: 10,000 zones per device). Boxes that
// cannot be used (antimeridian, poles) are kept in a short "everywhere" list and always
// returned; boxes that would cover too many cells (a country-sized zone) in a short "wide"
// list tested box by box. Candidates are exactly the zones whose box meets the query (and the
// "everywhere" ones): the caller still runs the exact area test.
import { DEFAULT_POLYLINE_DISTANCE_M, type GeofenceArea, type LatLon } from './geofence-area.ts';

export interface Box {
  minLat: number;
  maxLat: number;
  minLon: number;
  maxLon: number;
}

const M_PER_DEG = 111_320;

/**
 * The area's bounding box in degrees, grown by its corridor (line) or radius (circle) and by
 * `extraMetres` (the exit buffer); null when it cannot be used (spans the antimeridian or
 * comes within a degree of a pole).
 */
export function areaBox(area: GeofenceArea, polylineDistance = DEFAULT_POLYLINE_DISTANCE_M, extraMetres = 0): Box | null {
  let minLat = Infinity, maxLat = -Infinity, minLon = Infinity, maxLon = -Infinity;
  let margin = extraMetres;
  if (area.type === 'circle') {
    minLat = maxLat = area.latitude;
    minLon = maxLon = area.longitude;
    margin += area.radius;
  } else {
    for (const [lat, lon] of area.points) {
      if (lat < minLat) minLat = lat;
      if (lat > maxLat) maxLat = lat;
      if (lon < minLon) minLon = lon;
      if (lon > maxLon) maxLon = lon;
    }
    if (area.type === 'linestring') margin += polylineDistance;
  }
  if (maxLon - minLon > 180) return null;
  // 10 % extra on the margin: the exact tests use slightly different distance formulas.
  const dLat = (margin * 1.1) / M_PER_DEG + 1e-9;
  const maxAbsLat = Math.max(Math.abs(minLat), Math.abs(maxLat)) + dLat;
  if (maxAbsLat >= 89) return null;
  const dLon = (margin * 1.1) / (M_PER_DEG * Math.cos((maxAbsLat * Math.PI) / 180)) + 1e-9;
  if (minLon - dLon < -180 || maxLon + dLon > 180) return null;
  return { minLat: minLat - dLat, maxLat: maxLat + dLat, minLon: minLon - dLon, maxLon: maxLon + dLon };
}

export function boxContains(b: Box, latitude: number, longitude: number): boolean {
  return latitude >= b.minLat && latitude <= b.maxLat && longitude >= b.minLon && longitude <= b.maxLon;
}

export function boxesOverlap(a: Box, b: Box): boolean {
  return a.minLat <= b.maxLat && b.minLat <= a.maxLat && a.minLon <= b.maxLon && b.minLon <= a.maxLon;
}

/** The box of a segment (from → to, lat/lon). */
export function segmentBox(from: LatLon, to: LatLon): Box {
  return {
    minLat: Math.min(from[0], to[0]), maxLat: Math.max(from[0], to[0]),
    minLon: Math.min(from[1], to[1]), maxLon: Math.max(from[1], to[1]),
  };
}

/**
 * Whether the straight segment from → to (in degrees) meets the box (Liang–Barsky clipping).
 * A segment more than 180° of longitude long (across the antimeridian) is taken to meet every box.
 */
export function segmentMeetsBox(from: LatLon, to: LatLon, b: Box): boolean {
  const dLat = to[0] - from[0], dLon = to[1] - from[1];
  if (Math.abs(dLon) > 180) return true;
  let t0 = 0, t1 = 1;
  const clip = (p: number, q: number): boolean => {
    if (p === 0) return q >= 0;
    const r = q / p;
    if (p < 0) {
      if (r > t1) return false;
      if (r > t0) t0 = r;
    } else {
      if (r < t0) return false;
      if (r < t1) t1 = r;
    }
    return true;
  };
  return clip(-dLat, from[0] - b.minLat) && clip(dLat, b.maxLat - from[0]) && clip(-dLon, from[1] - b.minLon) && clip(dLon, b.maxLon - from[1]);
}

export interface IndexEntry {
  id: number;
  box: Box | null;
}

/** Default cell: 0.02° (about 2.2 km of latitude), the size of a typical yard-to-district zone. */
export const DEFAULT_CELL_DEG = 0.02;
/** A box covering more cells than this goes to the "wide" list (a country-sized zone). */
const MAX_CELLS_PER_ENTRY = 4096;
/** Columns per row in the cell key (360 / 0.001° cells would still fit). */
const ROW = 1 << 20;

export class GeofenceIndex {
  private readonly cells = new Map<number, number[]>();
  private readonly boxes = new Map<number, Box>();
  /** Ids always returned: unusable boxes. */
  private readonly everywhere: number[] = [];
  /** Boxes too big for the grid, tested one by one. */
  private readonly wide: IndexEntry[] = [];

  constructor(entries: Iterable<IndexEntry>, private readonly cellDeg = DEFAULT_CELL_DEG) {
    for (const { id, box } of entries) {
      if (!box) {
        this.everywhere.push(id);
        continue;
      }
      const x0 = this.col(box.minLon), x1 = this.col(box.maxLon), y0 = this.row(box.minLat), y1 = this.row(box.maxLat);
      if ((x1 - x0 + 1) * (y1 - y0 + 1) > MAX_CELLS_PER_ENTRY) {
        this.wide.push({ id, box });
        continue;
      }
      this.boxes.set(id, box);
      for (let y = y0; y <= y1; y++) {
        for (let x = x0; x <= x1; x++) {
          const key = y * ROW + x;
          const list = this.cells.get(key);
          if (list) list.push(id);
          else this.cells.set(key, [id]);
        }
      }
    }
  }

  get size(): number {
    return this.boxes.size + this.wide.length + this.everywhere.length;
  }

  private col(lon: number): number {
    return Math.floor((lon + 180) / this.cellDeg);
  }

  private row(lat: number): number {
    return Math.floor((lat + 90) / this.cellDeg);
  }

  /** Ids whose box contains the point, plus the "everywhere" ids (unordered, no duplicates). */
  candidates(latitude: number, longitude: number): number[] {
    const out = this.everywhere.slice();
    for (const w of this.wide) if (boxContains(w.box!, latitude, longitude)) out.push(w.id);
    const list = this.cells.get(this.row(latitude) * ROW + this.col(longitude));
    if (list) {
      for (const id of list) {
        if (boxContains(this.boxes.get(id)!, latitude, longitude)) out.push(id);
      }
    }
    return out;
  }

  /**
   * Ids whose box the segment meets, plus the "everywhere" ids (no duplicates). Walks only the
   * cells the segment passes through (row by row), so a long diagonal jump does not visit every
   * zone of its bounding box.
   */
  candidatesAlong(from: LatLon, to: LatLon): number[] {
    const out = this.everywhere.slice();
    for (const w of this.wide) if (segmentMeetsBox(from, to, w.box!)) out.push(w.id);
    if (Math.abs(to[1] - from[1]) > 180) {
      for (const id of this.boxes.keys()) out.push(id);
      return out;
    }
    const seen = new Set<number>();
    const dLat = to[0] - from[0], dLon = to[1] - from[1];
    const y0 = this.row(Math.min(from[0], to[0])), y1 = this.row(Math.max(from[0], to[0]));
    // One row of slack on each side against rounding at cell borders (empty bands are skipped).
    for (let y = y0 - 1; y <= y1 + 1; y++) {
      // The part of the segment inside this row's latitude band, as a longitude range.
      let ta = 0, tb = 1;
      if (dLat !== 0) {
        // The band, a little wider than the cell against rounding in row().
        const slack = this.cellDeg * 1e-6;
        const bandLo = y * this.cellDeg - 90 - slack, bandHi = bandLo + this.cellDeg + 2 * slack;
        const u = (bandLo - from[0]) / dLat, v = (bandHi - from[0]) / dLat;
        ta = Math.max(0, Math.min(u, v));
        tb = Math.min(1, Math.max(u, v));
        if (ta > tb) continue;
      }
      const lonA = from[1] + dLon * ta, lonB = from[1] + dLon * tb;
      // One cell of slack on each side against rounding at cell borders.
      const x0 = this.col(Math.min(lonA, lonB)) - 1, x1 = this.col(Math.max(lonA, lonB)) + 1;
      for (let x = x0; x <= x1; x++) {
        const list = this.cells.get(y * ROW + x);
        if (!list) continue;
        for (const id of list) {
          if (seen.has(id)) continue;
          seen.add(id);
          if (segmentMeetsBox(from, to, this.boxes.get(id)!)) out.push(id);
        }
      }
    }
    return out;
  }
}
