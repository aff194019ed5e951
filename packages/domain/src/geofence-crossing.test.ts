import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { areaContains, parseArea, type GeofenceArea, type LatLon } from './geofence-area.ts';
import {
  DEFAULT_EXIT_BUFFER_M, distanceOutside, hysteresisFrom, nextMembership, segmentCrossesArea, segmentsIntersect,
  type Hysteresis, type Membership,
} from './geofence-crossing.ts';

const area = (wkt: string): GeofenceArea => {
  const r = parseArea(wkt);
  if (!r.ok) throw new Error(r.error);
  return r.area;
};

/** A point `north` / `east` metres from (lat, lon). */
const M_PER_DEG = (Math.PI / 180) * 6_378_137;
const offset = (lat: number, lon: number, north: number, east: number): LatLon =>
  [lat + north / M_PER_DEG, lon + east / (M_PER_DEG * Math.cos((lat * Math.PI) / 180))];

// A 200 m square in São Paulo.
const C: LatLon = [-23.55, -46.63];
const corner = (n: number, e: number) => offset(C[0], C[1], n, e);
const square: GeofenceArea = { type: 'polygon', points: [corner(0, 0), corner(200, 0), corner(200, 200), corner(0, 200)] };

describe('segment crossing', () => {
  it('segment intersection (plane)', () => {
    expect(segmentsIntersect([0, 0], [2, 2], [0, 2], [2, 0])).toBe(true);
    expect(segmentsIntersect([0, 0], [1, 1], [2, 2], [3, 0])).toBe(false);
    expect(segmentsIntersect([0, 0], [2, 0], [1, 0], [1, 1])).toBe(true); // touching
  });

  it('polygon: a segment that cuts the zone crosses it though neither end is inside', () => {
    const from = corner(100, -300), to = corner(100, 500);
    expect(areaContains(square, ...from)).toBe(false);
    expect(areaContains(square, ...to)).toBe(false);
    expect(segmentCrossesArea(square, from, to, 25)).toBe(true);
    expect(segmentCrossesArea(square, corner(250, -300), corner(250, 500), 25)).toBe(false); // passes 50 m north
    expect(segmentCrossesArea(square, corner(-300, 100), corner(500, 100), 25)).toBe(true); // south to north
    expect(segmentCrossesArea(square, corner(50, 50), corner(150, 150), 25)).toBe(true); // wholly inside
  });

  it('circle: an anchor-sized circle (30 m) between two fixes 2 km apart', () => {
    const anchor: GeofenceArea = { type: 'circle', latitude: C[0], longitude: C[1], radius: 30 };
    expect(segmentCrossesArea(anchor, offset(C[0], C[1], 20, -1000), offset(C[0], C[1], 20, 1000), 25)).toBe(true);
    expect(segmentCrossesArea(anchor, offset(C[0], C[1], 40, -1000), offset(C[0], C[1], 40, 1000), 25)).toBe(false);
    // Both ends beyond the circle on the same side: the closest point is an end.
    expect(segmentCrossesArea(anchor, offset(C[0], C[1], 0, 100), offset(C[0], C[1], 0, 1000), 25)).toBe(false);
  });

  it('line: the corridor of polylineDistance metres', () => {
    const road: GeofenceArea = { type: 'linestring', points: [corner(0, 0), corner(0, 1000), corner(500, 1000)] };
    // Parallel, 20 m north of the first leg.
    const from = corner(20, 100), to = corner(20, 900);
    expect(segmentCrossesArea(road, from, to, 25)).toBe(true);
    expect(segmentCrossesArea(road, from, to, 10)).toBe(false);
    // Straight across the second leg, far from both ends of the segment.
    expect(segmentCrossesArea(road, corner(250, 600), corner(250, 1400), 5)).toBe(true);
    expect(segmentCrossesArea(road, corner(250, 600), corner(250, 950), 5)).toBe(false);
  });

  it('property: a segment with an end inside always crosses; the check agrees with sampling the segment', () => {
    const zones = [square, { type: 'circle', latitude: C[0], longitude: C[1], radius: 80 } as GeofenceArea];
    const m = fc.double({ min: -600, max: 800, noNaN: true });
    fc.assert(fc.property(fc.nat(1), m, m, m, m, (k, n1, e1, n2, e2) => {
      const z = zones[k]!;
      const a = corner(n1, e1), b = corner(n2, e2);
      const crosses = segmentCrossesArea(z, a, b, 25);
      if (areaContains(z, ...a) || areaContains(z, ...b)) expect(crosses).toBe(true);
      // Sampled every metre or so: a sample inside means it crosses (the converse can miss a corner).
      const steps = Math.ceil(Math.hypot(n2 - n1, e2 - e1)) + 1;
      for (let i = 0; i <= steps; i++) {
        const t = i / steps;
        if (areaContains(z, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)) {
          expect(crosses).toBe(true);
          break;
        }
      }
    }), { numRuns: 150 });
  });
});

describe('distance outside', () => {
  it('circle, polygon and line corridor', () => {
    const circle: GeofenceArea = { type: 'circle', latitude: C[0], longitude: C[1], radius: 50 };
    expect(distanceOutside(circle, ...offset(C[0], C[1], 0, 30), 25)).toBe(0);
    expect(distanceOutside(circle, ...offset(C[0], C[1], 0, 62), 25)).toBeCloseTo(12, 0);
    expect(distanceOutside(square, ...corner(100, 100), 25)).toBe(0);
    expect(distanceOutside(square, ...corner(100, 208), 25)).toBeCloseTo(8, 0);
    expect(distanceOutside(square, ...corner(-30, -40), 25)).toBeCloseTo(50, 0); // nearest is the corner
    const line = area(`LINESTRING (${C[0]} ${C[1]}, ${corner(0, 500).join(' ')})`);
    expect(distanceOutside(line, ...corner(20, 250), 25)).toBe(0);
    expect(distanceOutside(line, ...corner(40, 250), 25)).toBeCloseTo(15, 0);
  });
});

describe('hysteresis', () => {
  const defaults = hysteresisFrom({});
  const run = (fixes: Array<{ lat: number; lon: number; t: number }>, h: Hysteresis, z: GeofenceArea = square) => {
    let m: Membership = { inside: false, pendingSince: null };
    const changes: string[] = [];
    for (const f of fixes) {
      const next = nextMembership(m, areaContains(z, f.lat, f.lon), () => distanceOutside(z, f.lat, f.lon, 25), f.t, h);
      if (next.inside !== m.inside) changes.push(next.inside ? 'enter' : 'exit');
      m = next;
    }
    return changes;
  };

  it('defaults: no dwell, a 10 m exit buffer; attributes override them', () => {
    expect(defaults).toEqual({ dwellMs: 0, exitBufferM: DEFAULT_EXIT_BUFFER_M });
    expect(hysteresisFrom({ dwellTime: 30, exitBuffer: '25' })).toEqual({ dwellMs: 30_000, exitBufferM: 25 });
    expect(hysteresisFrom({ dwellTime: -5, exitBuffer: 'wide' })).toEqual(defaults);
  });

  it('a vehicle parked on the fence line with ±8 m drift fires at most one enter and no exit', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.double({ min: -8, max: 8, noNaN: true }), fc.double({ min: -8, max: 8, noNaN: true })), { minLength: 5, maxLength: 200 }), (noise) => {
      // On the east edge (200 m), drifting across it.
      const fixes = noise.map(([n, e], i) => ({ lat: corner(100 + n, 200 + e)[0], lon: corner(100 + n, 200 + e)[1], t: i * 10_000 }));
      const changes = run(fixes, defaults);
      expect(changes.length).toBeLessThanOrEqual(1);
      if (changes.length === 1) expect(changes).toEqual(['enter']);
    }), { numRuns: 200 });
  });

  it('without the buffer the same drift storms (what the buffer prevents)', () => {
    const fixes = [1, -1, 1, -1, 1, -1].map((s, i) => {
      const p = corner(100, 200 + 5 * s);
      return { lat: p[0], lon: p[1], t: i * 10_000 };
    });
    // 5 m outside, 5 m inside, alternately.
    expect(run(fixes, { dwellMs: 0, exitBufferM: 0 })).toEqual(['enter', 'exit', 'enter', 'exit', 'enter']);
    expect(run(fixes, defaults)).toEqual(['enter']);
  });

  it('a real exit beyond the buffer still fires', () => {
    const path = [100, 150, 205, 230, 400].map((e, i) => ({ lat: corner(100, e)[0], lon: corner(100, e)[1], t: i * 10_000 }));
    expect(run(path, defaults)).toEqual(['enter', 'exit']);
  });

  it('dwell: inside counts only after dwellTime of fixes inside; a fix outside restarts it', () => {
    const h = hysteresisFrom({ dwellTime: 30 });
    const at = (inside: boolean, s: number) => ({ lat: corner(100, inside ? 100 : 300)[0], lon: corner(100, inside ? 100 : 300)[1], t: s * 1000 });
    expect(run([at(true, 0), at(true, 10), at(true, 20)], h)).toEqual([]);
    expect(run([at(true, 0), at(true, 10), at(true, 30)], h)).toEqual(['enter']);
    expect(run([at(true, 0), at(true, 20), at(false, 25), at(true, 40), at(true, 60)], h)).toEqual([]);
    expect(run([at(true, 0), at(true, 20), at(false, 25), at(true, 40), at(true, 70)], h)).toEqual(['enter']);
  });
});
