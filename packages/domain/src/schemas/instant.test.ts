import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { INSTANT_MAX_MS, INSTANT_MIN_MS, isInstantInRange, parseIsoInstant, readIsoInstant } from './instant.ts';

describe('ISO instants', () => {
  it('reads Z and offsets with or without a colon, and fractions of any length', () => {
    expect(parseIsoInstant('2024-05-01T10:00:00Z')).toBe(Date.UTC(2024, 4, 1, 10));
    expect(parseIsoInstant(' 2024-05-01T10:00:00+02:00 ')).toBe(Date.UTC(2024, 4, 1, 8));
    expect(parseIsoInstant('2024-05-01T10:00-0330')).toBe(Date.UTC(2024, 4, 1, 13, 30));
    expect(parseIsoInstant('2024-05-01t10:00:00.123456z')).toBe(Date.UTC(2024, 4, 1, 10, 0, 0, 123));
    expect(parseIsoInstant('2024-05-01T10:00:00.5Z')).toBe(Date.UTC(2024, 4, 1, 10, 0, 0, 500));
  });

  it('refuses impossible calendar dates and times instead of rolling them over', () => {
    expect(readIsoInstant('2025-02-30T10:00:00Z')).toEqual({ ok: false, problem: 'date' });
    expect(readIsoInstant('2025-02-29T10:00:00Z')).toEqual({ ok: false, problem: 'date' });
    expect(parseIsoInstant('2024-02-29T10:00:00Z')).toBe(Date.UTC(2024, 1, 29, 10));
    expect(readIsoInstant('1900-02-29T00:00:00Z').ok).toBe(false);
    expect(parseIsoInstant('2000-02-29T00:00:00Z')).toBe(Date.UTC(2000, 1, 29));
    for (const bad of ['2025-04-31T00:00:00Z', '2025-13-01T00:00:00Z', '2025-00-10T00:00:00Z', '2025-01-00T00:00:00Z',
      '2025-01-01T24:00:00Z', '2025-01-01T23:60:00Z', '2025-01-01T23:59:60Z', '2025-01-01T10:00:00+24:00']) {
      expect(readIsoInstant(bad), bad).toEqual({ ok: false, problem: 'date' });
    }
  });

  it('keeps instants within 1970–2200', () => {
    expect(parseIsoInstant('1970-01-01T00:00:00Z')).toBe(INSTANT_MIN_MS);
    expect(parseIsoInstant('2200-12-31T23:59:59.999Z')).toBe(INSTANT_MAX_MS);
    expect(readIsoInstant('1969-12-31T23:59:59Z')).toEqual({ ok: false, problem: 'range' });
    expect(readIsoInstant('1970-01-01T00:30:00+01:00')).toEqual({ ok: false, problem: 'range' });
    expect(readIsoInstant('2201-01-01T00:00:00Z')).toEqual({ ok: false, problem: 'range' });
    expect(readIsoInstant('0050-01-01T00:00:00Z')).toEqual({ ok: false, problem: 'range' });
    expect(readIsoInstant('9999-12-31T23:59:59Z')).toEqual({ ok: false, problem: 'range' });
    expect(isInstantInRange(8640000000000001)).toBe(false);
    expect(isInstantInRange(-1e30)).toBe(false);
    expect(isInstantInRange(1.5)).toBe(false);
    expect(isInstantInRange(Number.NaN)).toBe(false);
    expect(isInstantInRange(Date.UTC(2024, 0, 1))).toBe(true);
  });

  it('wants the zone said, unless told to read a zone-less time as UTC (devices)', () => {
    expect(readIsoInstant('2024-05-01T10:00:00')).toEqual({ ok: false, problem: 'format' });
    expect(readIsoInstant('2024-05-01T10:00:00+02')).toEqual({ ok: false, problem: 'format' });
    expect(parseIsoInstant('2024-05-01T10:00:00', { zoneless: 'utc' })).toBe(Date.UTC(2024, 4, 1, 10));
    expect(parseIsoInstant('2024-05-01T10:00:00+02', { zoneless: 'utc' })).toBe(Date.UTC(2024, 4, 1, 8));
    for (const bad of ['', 'yesterday', '2024-05-01', '2024-5-1T10:00:00Z', '20240501T100000Z', '2024-05-01 10:00:00Z', '+002024-05-01T10:00:00Z']) {
      expect(parseIsoInstant(bad), bad).toBeNull();
    }
  });

  it('reads back every instant of the range as toISOString writes it (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: INSTANT_MIN_MS, max: INSTANT_MAX_MS }), (ms) => {
        expect(parseIsoInstant(new Date(ms).toISOString())).toBe(ms);
        expect(parseIsoInstant(new Date(ms).toISOString().replace('Z', '+00:00'))).toBe(ms);
      }),
    );
  });

  it('never accepts a text Date.parse would shift to another day (property)', () => {
    const dates = fc.record({
      year: fc.integer({ min: 1970, max: 2200 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 31 }),
    });
    fc.assert(
      fc.property(dates, ({ year, month, day }) => {
        const text = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T12:00:00Z`;
        const ms = parseIsoInstant(text);
        const real = new Date(Date.UTC(year, month - 1, day)).getUTCDate() === day;
        expect(ms !== null).toBe(real);
        if (ms !== null) expect(new Date(ms).getUTCDate()).toBe(day);
      }),
    );
  });
});
