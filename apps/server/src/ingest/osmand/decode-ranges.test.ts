// Values out of the domain's physical ranges make the whole report unusable: refused (400),
// never stored. Both OsmAnd forms share the rules of packages/domain/src/schemas/ranges.ts.
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../decoded.ts';
import { decodeQuery, parseTimestamp } from './decode-query.ts';
import { decodeJsonText } from './decode-json.ts';

const NOW = Date.UTC(2025, 6, 1, 12, 0, 0);
const query = (q: string) => decodeQuery(new URLSearchParams(q), NOW);
const json = (location: object, extra: object = {}) => decodeJsonText(JSON.stringify({ device_id: '1', location, ...extra }), NOW);

function refused(decode: () => unknown): string {
  try {
    decode();
  } catch (error) {
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).status).toBe(400);
    return (error as DecodeError).message;
  }
  throw new Error('expected the report to be refused');
}

describe('OsmAnd query form: ranges', () => {
  it('refuses timestamps outside 1970–2200 and impossible dates', () => {
    expect(refused(() => query('id=1&lat=1&lon=2&timestamp=-1e30'))).toMatch(/^Invalid timestamp - the date must be from 1970 to 2200/);
    expect(refused(() => query('id=1&timestamp=8640000000000001'))).toMatch(/^Invalid timestamp/);
    expect(refused(() => query(`id=1&timestamp=${Date.UTC(2201, 0, 1)}`))).toMatch(/^Invalid timestamp/);
    expect(query(`id=1&timestamp=${Date.UTC(2200, 11, 31)}`)!.fix.fixTime).toBe(Date.UTC(2200, 11, 31));
    expect(refused(() => parseTimestamp('2025-02-30T10:00:00Z'))).toMatch(/^Invalid timestamp/);
    expect(refused(() => parseTimestamp('2025-02-30 10:00:00'))).toMatch(/^Invalid timestamp/);
    expect(refused(() => parseTimestamp('2025-01-01 25:00:00'))).toMatch(/^Invalid timestamp/);
    expect(refused(() => parseTimestamp('1900-01-01T00:00:00Z'))).toMatch(/from 1970 to 2200/);
    expect(parseTimestamp('0')).toBe(0);
    expect(parseTimestamp('2024-02-29 10:00:00')).toBe(new Date(2024, 1, 29, 10).getTime());
  });

  it('refuses speed, course, altitude, accuracy, hdop and battery beyond their physical range', () => {
    expect(refused(() => query('id=1&speed=1e308'))).toMatch(/^Invalid speed 1e\+308 - must be a number from 0 to 1000 knots/);
    expect(refused(() => query('id=1&speed=-5'))).toMatch(/^Invalid speed/);
    expect(refused(() => query('id=1&bearing=361'))).toMatch(/^Invalid bearing/);
    expect(refused(() => query('id=1&heading=-1e30'))).toMatch(/^Invalid heading/);
    expect(refused(() => query('id=1&altitude=1e9'))).toMatch(/^Invalid altitude/);
    expect(refused(() => query('id=1&accuracy=-1'))).toMatch(/^Invalid accuracy/);
    expect(refused(() => query('id=1&hdop=1e300'))).toMatch(/^Invalid hdop/);
    expect(refused(() => query('id=1&batt=101'))).toMatch(/^Invalid batt/);
    expect(refused(() => query('id=%00'))).toMatch(/^Invalid id - .*NUL/);
    const ok = query('id=1&lat=1&lon=2&speed=1000&bearing=360&altitude=-400&accuracy=5&batt=100&hdop=0')!;
    expect([ok.fix.speed, ok.fix.course, ok.fix.altitude, ok.fix.accuracy, ok.fix.attributes.batteryLevel]).toEqual([1000, 360, -400, 5, 100]);
  });
});

describe('OsmAnd JSON form: ranges', () => {
  const coords = { latitude: 1, longitude: 2 };

  it('refuses timestamps outside 1970–2200 and impossible dates', () => {
    expect(refused(() => json({ timestamp: '1969-12-31T23:59:59Z', coords }))).toMatch(/^Invalid location\.timestamp - the date must be from 1970/);
    expect(refused(() => json({ timestamp: '2025-02-30T10:00:00.000Z', coords }))).toMatch(/^Invalid location\.timestamp/);
    expect(refused(() => json({ timestamp: 1e30, coords }))).toMatch(/^Invalid location\.timestamp/);
  });

  it('refuses out-of-range values; negative speed, heading and battery still mean unknown', () => {
    expect(refused(() => json({ coords: { ...coords, speed: 1e308 } }))).toMatch(/^Invalid location\.coords\.speed/);
    expect(refused(() => json({ coords: { ...coords, heading: 400 } }))).toMatch(/^Invalid location\.coords\.heading/);
    expect(refused(() => json({ coords: { ...coords, altitude: -1e30 } }))).toMatch(/^Invalid location\.coords\.altitude/);
    expect(refused(() => json({ coords: { ...coords, accuracy: 1e300 } }))).toMatch(/^Invalid location\.coords\.accuracy/);
    expect(refused(() => json({ coords, odometer: -3 }))).toMatch(/^Invalid location\.odometer/);
    expect(refused(() => json({ coords, battery: { level: 2 } }))).toMatch(/^Invalid location\.battery\.level/);
    const m = json({ coords: { ...coords, speed: -1, heading: -1 }, battery: { level: -1 } })!;
    expect([m.fix.speed, m.fix.course, m.fix.attributes.batteryLevel]).toEqual([0, 0, undefined]);
  });

  it('refuses deep nesting and unpaired surrogates before parsing', () => {
    const deep = `{"device_id":"1","location":{"extras":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    expect(refused(() => decodeJsonText(deep, NOW))).toMatch(/^Invalid JSON body - nested deeper than 64 levels/);
    expect(refused(() => decodeJsonText('{"device_id":"1","location":{"extras":{"note":"\\ud800"}}}', NOW))).toBe(
      'Invalid location.extras.note - the text holds an unpaired UTF-16 surrogate',
    );
  });
});
