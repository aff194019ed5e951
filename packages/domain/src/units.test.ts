import { describe, expect, it } from 'vitest';
import { distanceFromMetres, knotsFromKmh, knotsFromMps, formatDistance, formatSpeed, kmToMiles, knotsToKmh, knotsToMph, relativeAge, resolveDistanceUnit, resolveSpeedUnit, speedFromKnots } from './units.ts';

describe('units', () => {
  it('converts', () => {
    expect(knotsToKmh(10)).toBeCloseTo(18.52);
    expect(knotsToMph(10)).toBeCloseTo(11.5078);
    expect(kmToMiles(10)).toBeCloseTo(6.21371);
    expect(speedFromKnots(10, 'kn')).toBe(10);
    expect(knotsFromMps(1852 / 3600)).toBeCloseTo(1);
    // Traccar's factor exactly (its trips' averageSpeed of 2665.45058227484 m in 1,800 s).
    expect(knotsFromMps(10)).toBe(19.4384);
    expect(knotsFromMps(2665.45058227484 / 1800)).toBe(2.878449699916181);
    expect(knotsFromKmh(1.852)).toBeCloseTo(1);
    expect(knotsFromKmh(100)).toBeCloseTo(53.9957, 3);
    expect(distanceFromMetres(1500, 'km')).toBe(1.5);
    expect(distanceFromMetres(1000, 'mi')).toBeCloseTo(0.621371);
  });
  it('resolves units: user, then server, then language', () => {
    expect(resolveSpeedUnit({ speedUnit: 'kn' }, { speedUnit: 'mph' }, 'pt-BR')).toBe('kn');
    expect(resolveSpeedUnit({}, { speedUnit: 'mph' }, 'pt-BR')).toBe('mph');
    expect(resolveSpeedUnit(null, null, 'pt-BR')).toBe('kmh');
    expect(resolveSpeedUnit(null, null, 'en')).toBe('mph');
    expect(resolveDistanceUnit({ distanceUnit: 'miles' }, null, 'pt-BR')).toBe('mi');
    expect(resolveDistanceUnit(null, { distanceUnit: 'km' }, 'en')).toBe('km');
    expect(resolveDistanceUnit(null, null, 'en')).toBe('mi');
  });
  it('formats', () => {
    expect(formatSpeed(10, 'kmh', 'en')).toBe('19 km/h');
    expect(formatSpeed(10, 'mph', 'en')).toBe('12 mph');
    expect(formatDistance(12345, 'km', 'en')).toBe('12.35 km');
    expect(formatDistance(12345, 'km', 'pt-BR')).toBe('12,35 km');
  });
  it('relative last update (reference §5.9)', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    const at = (s: number) => new Date(now - s * 1000).toISOString();
    expect(relativeAge(null, now)).toEqual({ unit: 'new' });
    expect(relativeAge(at(-30), now)).toEqual({ unit: 'now' });
    expect(relativeAge(at(30), now)).toEqual({ unit: 'lessMinute' });
    expect(relativeAge(at(150), now)).toEqual({ unit: 'minutes', value: 3 });
    expect(relativeAge(at(3 * 3600 + 100), now)).toEqual({ unit: 'hours', value: 3 });
    expect(relativeAge(at(2.6 * 86400), now)).toEqual({ unit: 'days', value: 3 });
  });
});
