import { describe, expect, it } from 'vitest';
import { instantOfWallClock, isTimeZone, nextMidnight, splitByDay, wallClock, zoneOffset } from './report-days.ts';

const SP = 'America/Sao_Paulo';
const NY = 'America/New_York';

describe('report days', () => {
  it('reads the wall clock of an instant in a zone', () => {
    expect(wallClock(Date.parse('2024-06-01T02:30:15.250Z'), SP)).toBe(Date.UTC(2024, 4, 31, 23, 30, 15, 250));
    expect(wallClock(Date.parse('2024-06-01T02:30:00Z'), 'UTC')).toBe(Date.parse('2024-06-01T02:30:00Z'));
    expect(zoneOffset(Date.parse('2024-06-01T00:00:00Z'), SP)).toBe(-3 * 3_600_000);
    expect(zoneOffset(Date.parse('2024-01-15T00:00:00Z'), NY)).toBe(-5 * 3_600_000);
    expect(zoneOffset(Date.parse('2024-07-15T00:00:00Z'), NY)).toBe(-4 * 3_600_000);
  });

  it('finds the instant of a reading, also across DST changes', () => {
    expect(instantOfWallClock(Date.UTC(2024, 5, 1), SP)).toBe(Date.parse('2024-06-01T03:00:00Z'));
    // New York, 2024-03-10 02:30 does not exist (clocks jump 02:00 → 03:00): resolves after the gap.
    expect(instantOfWallClock(Date.UTC(2024, 2, 10, 2, 30), NY)).toBe(Date.parse('2024-03-10T07:00:00Z'));
    expect(instantOfWallClock(Date.UTC(2024, 2, 10, 0, 0), NY)).toBe(Date.parse('2024-03-10T05:00:00Z'));
    expect(instantOfWallClock(Date.UTC(2024, 2, 11, 0, 0), NY)).toBe(Date.parse('2024-03-11T04:00:00Z'));
  });

  it('next midnight in the zone', () => {
    expect(nextMidnight(Date.parse('2024-06-01T02:59:59Z'), SP)).toBe(Date.parse('2024-06-01T03:00:00Z'));
    expect(nextMidnight(Date.parse('2024-06-01T03:00:00Z'), SP)).toBe(Date.parse('2024-06-02T03:00:00Z'));
    // São Paulo 2018-11-04: clocks jumped from 00:00 to 01:00, the day began at 01:00 -02.
    expect(nextMidnight(Date.parse('2018-11-03T15:00:00Z'), SP)).toBe(Date.parse('2018-11-04T03:00:00Z'));
    // A 23-hour day.
    expect(nextMidnight(Date.parse('2024-03-10T05:00:00Z'), NY)).toBe(Date.parse('2024-03-11T04:00:00Z'));
  });

  it('splits a period at local midnights, each day closing at the next midnight (Traccar), keeping its ends', () => {
    const from = Date.parse('2024-06-01T12:00:00Z');
    const to = Date.parse('2024-06-03T01:00:00Z');
    expect(splitByDay(from, to, SP)).toEqual([
      { from, to: Date.parse('2024-06-02T03:00:00Z') },
      { from: Date.parse('2024-06-02T03:00:00Z'), to },
    ]);
    expect(splitByDay(from, to, 'UTC')).toEqual([
      { from, to: Date.parse('2024-06-02T00:00:00Z') },
      { from: Date.parse('2024-06-02T00:00:00Z'), to: Date.parse('2024-06-03T00:00:00Z') },
      { from: Date.parse('2024-06-03T00:00:00Z'), to },
    ]);
    // Ending exactly at a midnight: that instant is a day of its own, as in Traccar.
    const midnight = Date.parse('2024-06-02T00:00:00Z');
    expect(splitByDay(from, midnight, 'UTC')).toEqual([{ from, to: midnight }, { from: midnight, to: midnight }]);
    expect(splitByDay(from, from, SP)).toEqual([{ from, to: from }]);
    expect(splitByDay(to, from, SP)).toEqual([]);
  });

  it('follows a DST change: the 23-hour day of New York closes at its own midnight', () => {
    const from = Date.parse('2024-03-09T17:00:00Z');
    const to = Date.parse('2024-03-11T16:00:00Z');
    expect(splitByDay(from, to, NY)).toEqual([
      { from, to: Date.parse('2024-03-10T05:00:00Z') },
      // 2024-03-10 is 23 hours long: midnight EST to midnight EDT.
      { from: Date.parse('2024-03-10T05:00:00Z'), to: Date.parse('2024-03-11T04:00:00Z') },
      { from: Date.parse('2024-03-11T04:00:00Z'), to },
    ]);
  });

  it('pieces tile the period, sharing their midnights (property)', () => {
    for (let i = 0; i < 200; i++) {
      const from = Date.parse('2024-01-01T00:00:00Z') + Math.floor(Math.random() * 365 * 86_400_000);
      const to = from + Math.floor(Math.random() * 10 * 86_400_000);
      const zone = [SP, NY, 'UTC', 'Asia/Kolkata', 'Europe/Madrid'][i % 5]!;
      const days = splitByDay(from, to, zone);
      expect(days[0]!.from).toBe(from);
      expect(days.at(-1)!.to).toBe(to);
      for (let d = 1; d < days.length; d++) {
        expect(days[d]!.from).toBe(days[d - 1]!.to);
        // Every inner boundary is a local midnight.
        expect(wallClock(days[d]!.from, zone) % 86_400_000).toBe(0);
      }
    }
  });

  it('recognises zone names', () => {
    expect(isTimeZone(SP)).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone(3)).toBe(false);
  });
});
