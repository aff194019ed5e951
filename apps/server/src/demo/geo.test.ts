import { describe, expect, it } from 'vitest';
import { Polyline, bearingDegrees, haversineMeters, kmhToKnots, normaliseCourse, type LatLon } from './geo.ts';
import { SP_ROUTES } from './sp-routes.ts';

describe('demo geometry', () => {
  it('measures great-circle distances', () => {
    expect(haversineMeters([0, 0], [1, 0])).toBeCloseTo(111_195, -1);
    expect(haversineMeters([0, 0], [0, 1])).toBeCloseTo(111_195, -1);
    // Praça da Sé to MASP, about 2.6 km.
    expect(haversineMeters([-23.5503, -46.6339], [-23.5614, -46.6559])).toBeGreaterThan(2_400);
    expect(haversineMeters([-23.5503, -46.6339], [-23.5614, -46.6559])).toBeLessThan(2_700);
  });

  it('gives bearings clockwise from north', () => {
    expect(bearingDegrees([-23.5, -46.6], [-23.4, -46.6])).toBeCloseTo(0, 5);
    expect(bearingDegrees([-23.5, -46.6], [-23.5, -46.5])).toBeCloseTo(90, 1);
    expect(bearingDegrees([-23.5, -46.6], [-23.6, -46.6])).toBeCloseTo(180, 5);
    expect(bearingDegrees([-23.5, -46.6], [-23.5, -46.7])).toBeCloseTo(270, 1);
    expect(bearingDegrees([0, 0], [1, 1])).toBeCloseTo(45, 0);
    expect(normaliseCourse(-90)).toBe(270);
    expect(normaliseCourse(450)).toBe(90);
  });

  it('converts km/h to knots', () => {
    expect(kmhToKnots(1.852)).toBeCloseTo(1, 10);
    expect(kmhToKnots(100)).toBeCloseTo(53.9957, 3);
  });

  describe('Polyline', () => {
    const points: LatLon[] = [
      [-23.5, -46.6],
      [-23.5, -46.59], // east
      [-23.49, -46.59], // then north
    ];
    const line = new Polyline(points);
    const first = haversineMeters(points[0]!, points[1]!);

    it('has the length of its segments', () => {
      expect(line.length).toBeCloseTo(first + haversineMeters(points[1]!, points[2]!), 6);
      expect(() => new Polyline([[0, 0]])).toThrow();
    });

    it('walks along the segments with their bearing', () => {
      expect(line.at(0)).toMatchObject({ latitude: -23.5, longitude: -46.6 });
      const mid = line.at(first / 2);
      expect(mid.latitude).toBeCloseTo(-23.5, 10);
      expect(mid.longitude).toBeCloseTo(-46.595, 10);
      expect(mid.course).toBeCloseTo(90, 1);
      const up = line.at(first + 100);
      expect(up.longitude).toBeCloseTo(-46.59, 10);
      expect(up.latitude).toBeGreaterThan(-23.5);
      expect(up.course).toBeCloseTo(0, 5);
      expect(haversineMeters(points[1]!, [up.latitude, up.longitude])).toBeCloseTo(100, 0);
    });

    it('clamps distances to its ends', () => {
      expect(line.at(-50)).toMatchObject({ latitude: -23.5, longitude: -46.6 });
      const end = line.at(line.length + 500);
      expect(end.latitude).toBeCloseTo(-23.49, 10);
      expect(end.longitude).toBeCloseTo(-46.59, 10);
    });

    it('locates a point back to its distance along the line', () => {
      for (const d of [0, 10, first - 1, first + 1, line.length / 2, line.length]) {
        const p = line.at(d);
        expect(line.locate([p.latitude, p.longitude])).toBeCloseTo(d, 0);
      }
      // A point off the line maps to its nearest point on it.
      expect(line.locate([-23.5003, -46.595])).toBeCloseTo(first / 2, -1);
    });
  });

  describe('São Paulo routes', () => {
    it('are traced with waypoints inside the city, close enough to follow the streets', () => {
      expect(SP_ROUTES.length).toBeGreaterThanOrEqual(5);
      expect(new Set(SP_ROUTES.map((r) => r.key)).size).toBe(SP_ROUTES.length);
      for (const route of SP_ROUTES) {
        const line = new Polyline(route.points);
        expect(line.length, route.key).toBeGreaterThan(2_000);
        for (const [lat, lon] of route.points) {
          expect(lat, route.key).toBeGreaterThan(-23.75);
          expect(lat, route.key).toBeLessThan(-23.45);
          expect(lon, route.key).toBeGreaterThan(-46.85);
          expect(lon, route.key).toBeLessThan(-46.4);
        }
        for (let i = 1; i < route.points.length; i++) {
          const gap = haversineMeters(route.points[i - 1]!, route.points[i]!);
          expect(gap, `${route.key} #${i}`).toBeGreaterThan(50);
          expect(gap, `${route.key} #${i}`).toBeLessThan(2_500);
        }
      }
    });
  });
});
