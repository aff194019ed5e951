import { describe, expect, it } from 'vitest';
import { Changes } from '../realtime/changes.ts';
import { cacheGeofence, geofenceContains, GeofenceCache } from './geofence-cache.ts';
import { at } from './test-helpers.ts';

const ctx = { changes: new Changes() } as unknown as ConstructorParameters<typeof GeofenceCache>[0];
const device = (groupId: number | null = null) => ({ json: { attributes: {}, groupId } });
const row = (id: number, area: string, attributes: Record<string, unknown> = {}, calendarId: number | null = null) => ({ id, area, calendarId, attributes: JSON.stringify(attributes) });

describe('geofence cache', () => {
  const cache = new GeofenceCache(ctx);
  cache.set({
    geofences: [
      row(1, 'CIRCLE (48.8584 2.2945, 150)', { speedLimit: 20 }),
      row(2, 'POLYGON ((48.85 2.28, 48.87 2.28, 48.87 2.31, 48.85 2.31))'),
      row(3, 'LINESTRING (48.80 2.20, 48.80 2.30)', { polylineDistance: 100 }),
      row(4, 'CIRCLE (10 10, 100)'),
      row(5, 'POLYGON ((48.85 2.28, 48.87 2.28, 48.87 2.31, 48.85 2.31))', { floor: 100, ceiling: 200 }),
      row(6, 'not an area'),
      row(7, 'POLYGON ((-10 170, 10 170, 10 -170, -10 -170))'),
    ],
    deviceLinks: [[1, 1], [1, 3], [2, 7]],
    groupLinks: [[10, 2], [11, 5], [11, 6]],
    groups: [[10, null], [11, 10]],
  });

  it('applies the device links and its whole group chain', () => {
    expect(cache.forDevice(1, device()).map((g) => g.id)).toEqual([1, 3]);
    expect(cache.forDevice(1, device(11)).map((g) => g.id)).toEqual([1, 2, 3, 5]); // 6 does not parse
    expect(cache.forDevice(9, device(10)).map((g) => g.id)).toEqual([2]);
  });

  it('containment: circle, polygon, line corridor, altitude bounds, antimeridian', () => {
    const ids = (deviceId: number, groupId: number | null, lat: number, lon: number, altitude = 0) =>
      cache.containing(deviceId, device(groupId), at(0, { latitude: lat, longitude: lon, altitude }));
    expect(ids(1, 11, 48.8584, 2.2945)).toEqual([1, 2]); // tower: circle + polygon, altitude 0 < floor of 5
    expect(ids(1, 11, 48.8584, 2.2945, 150)).toEqual([1, 2, 5]);
    expect(ids(1, 11, 48.8584, 2.2945, 250)).toEqual([1, 2]);
    expect(ids(1, null, 48.8005, 2.25)).toEqual([3]); // ~55 m from the line
    expect(ids(1, null, 48.8015, 2.25)).toBeNull(); // ~167 m
    expect(ids(2, null, 0, 179.5)).toEqual([7]);
    expect(ids(2, null, 0, -175)).toEqual([7]);
    expect(ids(2, null, 0, 160)).toBeNull();
    expect(ids(3, null, 48.8584, 2.2945)).toBeNull(); // nothing linked
  });

  it('the bounding box never rejects a point the exact test accepts', () => {
    const circle = cacheGeofence(row(1, 'CIRCLE (60 25, 1000)'))!;
    for (let i = 0; i < 360; i += 5) {
      const a = (i * Math.PI) / 180;
      const lat = 60 + (999 / 111_320) * Math.cos(a);
      const lon = 25 + (999 / (111_320 * Math.cos((lat * Math.PI) / 180))) * Math.sin(a) * 0.999;
      expect(geofenceContains(circle, lat, lon, 0)).toBe(true);
    }
    expect(cacheGeofence(row(1, 'CIRCLE (0 0, 10)', { speedLimit: '40' }))?.speedLimit).toBe(40);
  });

  it('memoised per device; rebuilt when its group changes', () => {
    const a = cache.forDevice(1, device(10));
    expect(cache.forDevice(1, device(10))).toBe(a);
    expect(cache.forDevice(1, device(null))).not.toBe(a);
  });
});
