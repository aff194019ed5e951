import { describe, expect, it } from 'vitest';
import type { Position } from '@rastro/domain/entities';
import { ageParts, allAttributes, convertSpeed, distanceUnitOf, googleMapsUrl, hoursMinutes, pinnedOf, speedUnitOf, valueOf } from './format.ts';

const position = { id: 1, deviceId: 2, latitude: -23.5, longitude: -46.6, speed: 10, course: 90, address: null, attributes: { ignition: true, sat: 7, none: null } } as unknown as Position;

describe('device detail rules', () => {
  it('speed unit: user first, then server, km/h by default', () => {
    expect(speedUnitOf({ speedUnit: 'mph' }, { speedUnit: 'kn' })).toBe('mph');
    expect(speedUnitOf({}, { speedUnit: 'kn' })).toBe('kn');
    expect(speedUnitOf(undefined, undefined)).toBe('kmh');
    expect(speedUnitOf(undefined, undefined, 'en')).toBe('mph');
    expect(distanceUnitOf(undefined, undefined, 'es')).toBe('km');
    expect(distanceUnitOf({ distanceUnit: 'mi' }, { distanceUnit: 'km' })).toBe('mi');
    expect(hoursMinutes(125 * 60_000 + 20_000)).toEqual({ h: 2, m: 5 });
    expect(convertSpeed(10, 'kmh')).toBe(18.5);
    expect(convertSpeed(10, 'mph')).toBe(11.5);
    expect(convertSpeed(10, 'kn')).toBe(10);
  });
  it('pinned attributes merge the server and user lists, server first, no repeats', () => {
    expect(pinnedOf({ 'tarkan.deviceAttributes': 'sat, ignition' }, { 'tarkan.deviceAttributes': 'ignition,,power' })).toEqual([
      { name: 'sat', scope: 'server' }, { name: 'ignition', scope: 'server' }, { name: 'power', scope: 'user' },
    ]);
  });
  it('values come from attributes, then the position fields; the full list skips nulls', () => {
    expect(valueOf(position, 'sat')).toBe(7);
    expect(valueOf(position, 'speed')).toBe(10);
    const names = allAttributes(position).map(([k]) => k);
    expect(names).toContain('ignition');
    expect(names).not.toContain('none');
    expect(names).not.toContain('address');
  });
  it('age in the largest whole unit', () => {
    expect(ageParts(0, 30_000)).toEqual({ value: 30, unit: 'second' });
    expect(ageParts(0, 5 * 60_000)).toEqual({ value: 5, unit: 'minute' });
    expect(ageParts(0, 3 * 86_400_000 + 1000)).toEqual({ value: 3, unit: 'day' });
  });
  it('google maps link carries the coordinates', () => {
    expect(googleMapsUrl(-23.5, -46.6)).toContain('query=-23.5,-46.6');
  });
});
