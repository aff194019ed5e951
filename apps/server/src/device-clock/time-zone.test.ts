import { describe, expect, it } from 'vitest';
import { parseTimeZone, wallClockToUtc, zoneOffset } from './time-zone.ts';

const H = 3_600_000;
const M = 60_000;

describe('decoder.timezone values', () => {
  it('accepts zone ids, GMT/UTC offsets and bare hours or minutes', () => {
    expect(parseTimeZone('America/Sao_Paulo')).toEqual({ kind: 'named', id: 'America/Sao_Paulo' });
    expect(parseTimeZone('UTC')).toEqual({ kind: 'named', id: 'UTC' });
    expect(parseTimeZone('Etc/GMT+3')).toEqual({ kind: 'named', id: 'Etc/GMT+3' });
    expect(parseTimeZone('GMT-3')).toEqual({ kind: 'fixed', offsetMs: -3 * H });
    expect(parseTimeZone('GMT-03:00')).toEqual({ kind: 'fixed', offsetMs: -3 * H });
    expect(parseTimeZone('gmt+0530')).toEqual({ kind: 'fixed', offsetMs: 5 * H + 30 * M });
    expect(parseTimeZone(' UTC+5:45 ')).toEqual({ kind: 'fixed', offsetMs: 5 * H + 45 * M });
    expect(parseTimeZone('-3')).toEqual({ kind: 'fixed', offsetMs: -3 * H });
    expect(parseTimeZone('5.5')).toEqual({ kind: 'fixed', offsetMs: 5.5 * H });
    expect(parseTimeZone('-180')).toEqual({ kind: 'fixed', offsetMs: -3 * H });
    expect(parseTimeZone(480)).toEqual({ kind: 'fixed', offsetMs: 8 * H });
    expect(parseTimeZone(8)).toEqual({ kind: 'fixed', offsetMs: 8 * H });
  });

  it('refuses what is not a zone', () => {
    for (const bad of ['', '  ', 'Mars/Olympus', 'GMT+25', 'GMT+3:75', '900', 'NaN', 'America/Sao Paulo', '../etc', {}, null, undefined, true]) {
      expect(parseTimeZone(bad), String(bad)).toBeNull();
    }
  });
});

describe('wall clock to UTC', () => {
  it('fixed offsets', () => {
    const wall = Date.UTC(2024, 0, 1, 12, 0, 0);
    expect(wallClockToUtc(wall, { kind: 'fixed', offsetMs: -3 * H })).toBe(wall + 3 * H);
    expect(wallClockToUtc(wall, { kind: 'fixed', offsetMs: 8 * H })).toBe(wall - 8 * H);
  });

  it('named zones, daylight saving included', () => {
    const lisbon = parseTimeZone('Europe/Lisbon')!;
    // Winter: UTC+0; summer: UTC+1.
    expect(wallClockToUtc(Date.UTC(2024, 0, 15, 12, 0, 0), lisbon)).toBe(Date.UTC(2024, 0, 15, 12, 0, 0));
    expect(wallClockToUtc(Date.UTC(2024, 6, 15, 12, 0, 0), lisbon)).toBe(Date.UTC(2024, 6, 15, 11, 0, 0));
    // Right after the spring change (31 March 2024, 01:00 UTC: 01:00 -> 02:00 local).
    expect(wallClockToUtc(Date.UTC(2024, 2, 31, 2, 30, 0), lisbon)).toBe(Date.UTC(2024, 2, 31, 1, 30, 0));
    const saoPaulo = parseTimeZone('America/Sao_Paulo')!;
    expect(wallClockToUtc(Date.UTC(2024, 4, 1, 9, 30, 15), saoPaulo)).toBe(Date.UTC(2024, 4, 1, 12, 30, 15));
    expect(zoneOffset(parseTimeZone('Asia/Kolkata')!, Date.UTC(2024, 4, 1))).toBe(5.5 * H);
  });

  it('reuses the offset within a quarter hour and follows changes across them', () => {
    const ny = parseTimeZone('America/New_York')!;
    // 10 March 2024, 07:00 UTC: EST (−5) becomes EDT (−4).
    expect(zoneOffset(ny, Date.UTC(2024, 2, 10, 6, 59, 59))).toBe(-5 * H);
    expect(zoneOffset(ny, Date.UTC(2024, 2, 10, 7, 0, 0))).toBe(-4 * H);
    expect(zoneOffset(ny, Date.UTC(2024, 2, 10, 6, 50, 0))).toBe(-5 * H);
  });
});
