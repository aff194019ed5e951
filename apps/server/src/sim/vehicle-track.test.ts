// A simulated tracker's vehicle: it drives a demo route, its odometer follows, and an engine
// cut stops it where it is until the engine is resumed.
import { describe, expect, it } from 'vitest';
import { haversineMeters } from '../demo/geo.ts';
import { vehicleTrack } from './vehicle-track.ts';

const T0 = Date.UTC(2025, 6, 1, 12);
const fixed = () => 0.3;

describe('vehicle track', () => {
  it('drives, and its odometer grows by about the distance driven', () => {
    const v = vehicleTrack(2, 'x', T0, fixed);
    const first = v.next(T0 + 5000);
    let last = first;
    let driven = 0;
    for (let t = 10_000; t <= 120_000; t += 5000) {
      const fix = v.next(T0 + t);
      driven += haversineMeters([last.latitude, last.longitude], [fix.latitude, fix.longitude]);
      last = fix;
    }
    expect(driven).toBeGreaterThan(100);
    // Straight-line steps cut corners: the odometer is at least that, and not much more.
    expect(last.odometer - first.odometer).toBeGreaterThanOrEqual(driven * 0.99);
    expect(last.odometer - first.odometer).toBeLessThan(driven * 1.5);
  });

  it('stays where the engine was cut, engine off, until it is resumed', () => {
    const v = vehicleTrack(0, 'x', T0, fixed);
    v.next(T0 + 5000);
    v.blocked = true;
    const cut = v.next(T0 + 10_000);
    const later = v.next(T0 + 60_000);
    expect(later).toMatchObject({ speedKmh: 0, ignition: false, blocked: true, latitude: cut.latitude, longitude: cut.longitude, time: T0 + 60_000 });
    v.blocked = false;
    const resumed = v.next(T0 + 65_000);
    expect(resumed.blocked).toBe(false);
    expect(resumed.ignition).toBe(true);
  });

  it('a vehicle cut before its first report still reports a place, stopped', () => {
    const v = vehicleTrack(0, 'x', T0, fixed);
    v.blocked = true;
    expect(v.next(T0 + 5000)).toMatchObject({ blocked: true, speedKmh: 0, ignition: false });
  });
});
