import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { areaContains, type GeofenceArea, type LatLon } from './geofence-area.ts';
import { areaBox, boxContains, boxesOverlap, GeofenceIndex, segmentBox, segmentMeetsBox, type Box } from './geofence-index.ts';

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

/** Brute force: every entry whose box contains the point (null boxes always). */
const bruteAt = (entries: Array<{ id: number; box: Box | null }>, lat: number, lon: number) =>
  sorted(entries.filter((e) => !e.box || boxContains(e.box, lat, lon)).map((e) => e.id));
const bruteAlong = (entries: Array<{ id: number; box: Box | null }>, from: LatLon, to: LatLon) =>
  sorted(entries.filter((e) => !e.box || segmentMeetsBox(from, to, e.box)).map((e) => e.id));

/** Degrees at 1e-7 resolution (what trackers send); a double with denormals tests rounding, not the index. */
const deg = (min: number, max: number) => fc.integer({ min: min * 1e7, max: max * 1e7 }).map((x) => x / 1e7);
const lat = deg(-60, 60);
const lon = deg(-179, 179);
const area: fc.Arbitrary<GeofenceArea> = fc.oneof(
  fc.record({ type: fc.constant('circle' as const), latitude: lat, longitude: lon, radius: fc.double({ min: 1, max: 50_000, noNaN: true }) }),
  fc.tuple(lat, lon, fc.array(fc.tuple(deg(-0.5, 0.5), deg(-0.5, 0.5)), { minLength: 3, maxLength: 8 }))
    .map(([a, o, d]): GeofenceArea => ({ type: 'polygon', points: d.map(([x, y]): LatLon => [a + x, o + y]) })),
  fc.tuple(lat, lon, fc.array(fc.tuple(deg(-0.2, 0.2), deg(-0.2, 0.2)), { minLength: 2, maxLength: 5 }))
    .map(([a, o, d]): GeofenceArea => ({ type: 'linestring', points: d.map(([x, y]): LatLon => [a + x, o + y]) })),
);

describe('geofence index', () => {
  it('property: point candidates equal the brute-force box scan', () => {
    fc.assert(fc.property(fc.array(area, { maxLength: 40 }), fc.array(fc.tuple(lat, lon), { minLength: 1, maxLength: 20 }), fc.constantFrom(0.005, 0.02, 0.5), (areas, points, cell) => {
      const entries = areas.map((a, i) => ({ id: i + 1, box: areaBox(a, 25, 10) }));
      const index = new GeofenceIndex(entries, cell);
      for (const [a, o] of points) expect(sorted(index.candidates(a, o))).toEqual(bruteAt(entries, a, o));
    }), { numRuns: 200 });
  });

  it('property: points near the zones (where boxes matter) also match, and no contained point is missed', () => {
    fc.assert(fc.property(fc.array(area, { minLength: 1, maxLength: 20 }), fc.array(fc.tuple(fc.nat(19), deg(-0.3, 0.3), deg(-0.3, 0.3))), (areas, probes) => {
      const entries = areas.map((a, i) => ({ id: i + 1, box: areaBox(a, 25, 0) }));
      const index = new GeofenceIndex(entries);
      for (const [k, dy, dx] of probes) {
        const a = areas[k % areas.length]!;
        const c: LatLon = a.type === 'circle' ? [a.latitude, a.longitude] : a.points[0]!;
        const p: LatLon = [c[0] + dy, c[1] + dx];
        const got = index.candidates(p[0], p[1]);
        expect(sorted(got)).toEqual(bruteAt(entries, p[0], p[1]));
        areas.forEach((z, i) => {
          if (areaContains(z, p[0], p[1], 25)) expect(got).toContain(i + 1);
        });
      }
    }), { numRuns: 200 });
  });

  it('property: segment candidates equal the brute-force box scan (short and long segments)', () => {
    fc.assert(fc.property(fc.array(area, { maxLength: 30 }), fc.tuple(lat, lon), deg(-2, 2), deg(-2, 2), (areas, from, dy, dx) => {
      const entries = areas.map((a, i) => ({ id: i + 1, box: areaBox(a, 25, 10) }));
      const index = new GeofenceIndex(entries, 0.01);
      const to: LatLon = [from[0] + dy, from[1] + dx];
      const got = index.candidatesAlong(from, to);
      expect(new Set(got).size).toBe(got.length);
      expect(sorted(got)).toEqual(bruteAlong(entries, from, to));
    }), { numRuns: 200 });
  });

  it('property: segmentMeetsBox agrees with sampling the segment and implies overlapping boxes', () => {
    const box = fc.tuple(deg(-1, 1), deg(-1, 1), deg(0, 0.5), deg(0, 0.5))
      .map(([a, o, h, w]): Box => ({ minLat: a, maxLat: a + h, minLon: o, maxLon: o + w }));
    const pt = fc.tuple(deg(-1.5, 1.5), deg(-1.5, 1.5));
    fc.assert(fc.property(box, pt, pt, (b, from, to) => {
      const meets = segmentMeetsBox(from, to, b);
      if (meets) expect(boxesOverlap(b, segmentBox(from, to))).toBe(true);
      for (let i = 0; i <= 400; i++) {
        const t = i / 400;
        if (boxContains(b, from[0] + (to[0] - from[0]) * t, from[1] + (to[1] - from[1]) * t)) {
          expect(meets).toBe(true);
          break;
        }
      }
    }), { numRuns: 300 });
    // Diagonal past a corner: the boxes overlap, the segment misses.
    expect(segmentMeetsBox([0, 0], [1, 1], { minLat: 0.8, maxLat: 0.9, minLon: 0, maxLon: 0.1 })).toBe(false);
  });

  it('keeps unusable boxes as candidates everywhere and huge ones out of the grid', () => {
    const acrossDateLine: GeofenceArea = { type: 'polygon', points: [[0, 179.9], [1, -179.9], [0, -179.8]] };
    const continent: GeofenceArea = { type: 'circle', latitude: 0, longitude: 0, radius: 3_000_000 };
    const small: GeofenceArea = { type: 'circle', latitude: 10, longitude: 10, radius: 100 };
    expect(areaBox(acrossDateLine)).toBeNull();
    const index = new GeofenceIndex([{ id: 1, box: areaBox(acrossDateLine) }, { id: 2, box: areaBox(continent) }, { id: 3, box: areaBox(small) }]);
    expect(index.size).toBe(3);
    expect(sorted(index.candidates(-40, 100))).toEqual([1]); // the continent is tested by its box
    expect(sorted(index.candidates(20, 20))).toEqual([1, 2]);
    expect(sorted(index.candidates(10, 10))).toEqual([1, 2, 3]);
    expect(sorted(index.candidatesAlong([9.9, 9.99], [10.1, 10.01]))).toEqual([1, 2, 3]);
  });

  it('grows boxes by the exit buffer and a line by its corridor', () => {
    const line: GeofenceArea = { type: 'linestring', points: [[0, 0], [0, 0.01]] };
    const narrow = areaBox(line, 5)!, wide = areaBox(line, 500)!;
    expect(wide.maxLat - narrow.maxLat).toBeGreaterThan(0.004);
    const c: GeofenceArea = { type: 'circle', latitude: 0, longitude: 0, radius: 100 };
    expect(areaBox(c, 25, 100)!.maxLat).toBeGreaterThan(areaBox(c)!.maxLat * 1.9);
  });
});
