import { describe, expect, it } from 'vitest';
import { areaContains, areaSummary, circleAreaKm2, distanceMeters, formatArea, parseArea, type GeofenceArea } from './geofence-area.ts';

function parsed(text: string): GeofenceArea {
  const result = parseArea(text);
  if (!result.ok) throw new Error(result.error);
  return result.area;
}

function error(text: string): string {
  const result = parseArea(text);
  if (result.ok) throw new Error(`expected ${text} to be refused`);
  return result.error;
}

describe('geofence area WKT (latitude first)', () => {
  it('reads a circle: latitude, longitude, radius', () => {
    expect(parsed('CIRCLE (48.8584 2.2945, 150)')).toEqual({ type: 'circle', latitude: 48.8584, longitude: 2.2945, radius: 150 });
    expect(parsed('circle(-23.5 -46.6,12.5)')).toEqual({ type: 'circle', latitude: -23.5, longitude: -46.6, radius: 12.5 });
  });

  it('reads a polygon with or without the closing point', () => {
    const open = parsed('POLYGON ((10 20, 10 21, 11 21))');
    const closed = parsed('POLYGON((10 20, 10 21, 11 21, 10 20))');
    expect(open).toEqual({ type: 'polygon', points: [[10, 20], [10, 21], [11, 21]] });
    expect(closed).toEqual(open);
  });

  it('reads a line', () => {
    expect(parsed('LINESTRING (1 2, 3 4)')).toEqual({ type: 'linestring', points: [[1, 2], [3, 4]] });
  });

  it('refuses malformed text, out-of-range coordinates, short shapes and non-positive radii with a message', () => {
    expect(error('')).toMatch(/^Invalid area/);
    expect(error('SQUARE (1 2, 3)')).toMatch(/CIRCLE, POLYGON or LINESTRING/);
    expect(error('CIRCLE (1 2)')).toMatch(/^Invalid area - a circle/);
    expect(error('CIRCLE (91 2, 10)')).toMatch(/latitude 91 is out of range/);
    expect(error('CIRCLE (1 -181, 10)')).toMatch(/longitude -181 is out of range/);
    expect(error('CIRCLE (1 2, 0)')).toMatch(/radius must be greater than 0/);
    expect(error('CIRCLE (1 2, -5)')).toMatch(/radius must be greater than 0/);
    expect(error('POLYGON ((1 2, 3 4))')).toMatch(/at least 3 points/);
    expect(error('POLYGON ((1 2, 3 4, 1 2))')).toMatch(/at least 3 points/);
    expect(error('POLYGON ((1 2, 3 x, 5 6))')).toMatch(/not a "latitude longitude" point/);
    expect(error('POLYGON (1 2, 3 4, 5 6)')).toMatch(/^Invalid area - a polygon/);
    expect(error('LINESTRING (1 2)')).toMatch(/at least 2 points/);
    expect(error('LINESTRING (100 2, 3 4)')).toMatch(/latitude 100/);
  });

  it('formats as Traccar clients write it (polygons closed)', () => {
    expect(formatArea({ type: 'circle', latitude: -23.5, longitude: -46.6, radius: 150 })).toBe('CIRCLE (-23.5 -46.6, 150)');
    expect(formatArea({ type: 'polygon', points: [[1, 2], [3, 4], [5, 6]] })).toBe('POLYGON ((1 2, 3 4, 5 6, 1 2))');
    expect(formatArea({ type: 'linestring', points: [[1, 2], [3, 4]] })).toBe('LINESTRING (1 2, 3 4)');
  });

  it('round-trips random areas (format then parse gives the same area)', () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const lat = () => Math.round((rand() * 180 - 90) * 1e6) / 1e6;
    const lon = () => Math.round((rand() * 360 - 180) * 1e6) / 1e6;
    for (let i = 0; i < 300; i++) {
      const n = 3 + Math.floor(rand() * 8);
      const points = Array.from({ length: n }, () => [lat(), lon()] as const);
      const areas: GeofenceArea[] = [
        { type: 'circle', latitude: lat(), longitude: lon(), radius: 0.5 + Math.round(rand() * 1e5) },
        { type: 'linestring', points },
      ];
      // A polygon whose last point repeats the first would lose it on parsing; random points never do.
      if (points[0]![0] !== points[n - 1]![0] || points[0]![1] !== points[n - 1]![1]) areas.push({ type: 'polygon', points });
      for (const area of areas) expect(parsed(formatArea(area))).toEqual(area);
    }
  });
});

describe('geofence containment', () => {
  it('circle: haversine distance up to the radius', () => {
    const circle = parsed('CIRCLE (-23.5 -46.6, 150)');
    expect(areaContains(circle, -23.5, -46.6)).toBe(true);
    expect(areaContains(circle, -23.5 + 0.0013, -46.6)).toBe(true); // ~145 m north
    expect(areaContains(circle, -23.5 + 0.0014, -46.6)).toBe(false); // ~156 m north
    expect(distanceMeters(0, 0, 0, 1)).toBeCloseTo(111_319.5, 0);
  });

  it('polygon: ray casting, also across the antimeridian', () => {
    const square = parsed('POLYGON ((0 0, 0 10, 10 10, 10 0))');
    expect(areaContains(square, 5, 5)).toBe(true);
    expect(areaContains(square, 5, 11)).toBe(false);
    expect(areaContains(square, -1, 5)).toBe(false);
    const pacific = parsed('POLYGON ((-10 170, -10 -170, 10 -170, 10 170))');
    expect(areaContains(pacific, 0, 179.5)).toBe(true);
    expect(areaContains(pacific, 0, -175)).toBe(true);
    expect(areaContains(pacific, 0, 0)).toBe(false);
    expect(areaContains(pacific, 0, 160)).toBe(false);
  });

  it('line: within polylineDistance metres (default 25) of a segment', () => {
    const line = parsed('LINESTRING (0 0, 0 0.01)');
    expect(areaContains(line, 0.0002, 0.005)).toBe(true); // ~22 m off the middle
    expect(areaContains(line, 0.0003, 0.005)).toBe(false); // ~33 m off
    expect(areaContains(line, 0.0003, 0.005, 50)).toBe(true);
    expect(areaContains(line, 0, 0.0105)).toBe(false); // ~56 m past the end
  });
});

describe('geofence area summary (spec §3)', () => {
  it('circle: radius squared times pi, divided by 1000', () => {
    expect(circleAreaKm2(150)).toBeCloseTo((150 * 150 * Math.PI) / 1000, 10);
    expect(areaSummary(parsed('CIRCLE (1 2, 10)'))).toEqual({ kind: 'area', km2: (100 * Math.PI) / 1000 });
  });
  it('polygons and lines: their point count', () => {
    expect(areaSummary(parsed('POLYGON ((1 2, 3 4, 5 6, 1 2))'))).toEqual({ kind: 'points', count: 3 });
    expect(areaSummary(parsed('LINESTRING (1 2, 3 4)'))).toEqual({ kind: 'points', count: 2 });
  });
});
