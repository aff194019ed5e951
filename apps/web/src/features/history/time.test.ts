import { describe, expect, it } from 'vitest';
import { formatDuration, fromLocalInput, periodRange, startOfDay, toLocalInput, zoneOf } from './time.ts';

const SP = 'America/Sao_Paulo';

describe('time zone rules', () => {
  it('reads and writes datetime-local values as wall time in the zone', () => {
    const ms = Date.parse('2026-03-10T11:30:00Z');
    expect(toLocalInput(ms, SP)).toBe('2026-03-10T08:30');
    expect(fromLocalInput('2026-03-10T08:30', SP)).toBe(ms);
    expect(toLocalInput(ms, 'UTC')).toBe('2026-03-10T11:30');
    expect(fromLocalInput('nope', SP)).toBeNaN();
  });

  it('finds the start of the day in the zone (also across a DST change)', () => {
    expect(new Date(startOfDay(Date.parse('2026-03-10T02:00:00Z'), SP)).toISOString()).toBe('2026-03-09T03:00:00.000Z');
    const ny = 'America/New_York';
    expect(new Date(startOfDay(Date.parse('2026-03-08T20:00:00Z'), ny)).toISOString()).toBe('2026-03-08T05:00:00.000Z');
    expect(new Date(startOfDay(Date.parse('2026-03-09T20:00:00Z'), ny)).toISOString()).toBe('2026-03-09T04:00:00.000Z');
  });

  it('computes the shortcuts', () => {
    const now = Date.parse('2026-03-10T15:00:00Z');
    expect(periodRange('today', now, SP)).toEqual({ from: Date.parse('2026-03-10T03:00:00Z'), to: now });
    expect(periodRange('yesterday', now, SP)).toEqual({ from: Date.parse('2026-03-09T03:00:00Z'), to: Date.parse('2026-03-10T03:00:00Z') - 1 });
    expect(periodRange('last7', now, SP).from).toBe(Date.parse('2026-03-04T03:00:00Z'));
    expect(periodRange('last30', now, SP).from).toBe(Date.parse('2026-02-09T03:00:00Z'));
    expect(periodRange('last90', now, 'UTC').from).toBe(Date.parse('2025-12-11T00:00:00Z'));
  });

  it('takes the user zone, then the server zone, ignoring unknown names', () => {
    expect(zoneOf({ timezone: 'Europe/Lisbon' }, { timezone: SP })).toBe('Europe/Lisbon');
    expect(zoneOf({ timezone: 'Mars/Olympus' }, { timezone: SP })).toBe(SP);
    expect(zoneOf({}, {})).toBeUndefined();
  });

  it('writes durations', () => {
    expect(formatDuration(7_500_000)).toBe('2 h 05 min');
    expect(formatDuration(720_000)).toBe('12 min');
    expect(formatDuration(40_000)).toBe('40 s');
  });
});
