import { describe, expect, it } from 'vitest';
import type { Position } from '@rastro/domain/entities';
import { chartKeys, indexAt, routeDistance } from './history-page.tsx';

const pos = (i: number, extra: Partial<Position> = {}): Position => ({
  id: i, deviceId: 1, protocol: 'osmand', serverTime: '', deviceTime: '', fixTime: new Date(Date.UTC(2026, 0, 1, 10, i)).toISOString(),
  valid: true, latitude: 0, longitude: i * 0.01, altitude: 0, speed: 10, course: 0, address: null, accuracy: 0, network: null, geofenceIds: null, attributes: {}, ...extra,
});

describe('history rules', () => {
  it('finds the point at or before an instant', () => {
    const points = [pos(0), pos(2), pos(4)];
    expect(indexAt(points, Date.UTC(2026, 0, 1, 9, 0))).toBe(0);
    expect(indexAt(points, Date.UTC(2026, 0, 1, 10, 3))).toBe(1);
    expect(indexAt(points, Date.UTC(2026, 0, 1, 10, 4))).toBe(2);
    expect(indexAt(points, Date.UTC(2026, 0, 1, 11, 0))).toBe(2);
  });

  it('measures the route by the odometer when sent, else by great circles', () => {
    expect(routeDistance([pos(0, { attributes: { totalDistance: 1000 } }), pos(1, { attributes: { totalDistance: 3500 } })])).toBe(2500);
    // 0.01° of longitude on the equator ≈ 1112 m.
    expect(Math.round(routeDistance([pos(0), pos(1)]))).toBe(1112);
    expect(routeDistance([pos(0)])).toBe(0);
  });

  it('offers speed first, then every numeric attribute seen', () => {
    expect(chartKeys([pos(0, { attributes: { fuel: 40, ignition: true } }), pos(1, { altitude: 700, attributes: { rpm: 900 } })]))
      .toEqual(['speed', 'altitude', 'fuel', 'rpm']);
  });
});
