import { describe, expect, it } from 'vitest';
import { inactivityDue } from './inactivity.ts';

const MIN = 60_000;
const CHECK = 15 * MIN;

describe('deviceInactive timing', () => {
  it('fires in the one check window that holds lastUpdate + start', () => {
    const last = 0;
    const start = 60 * MIN;
    const checks = Array.from({ length: 12 }, (_, i) => (i + 1) * CHECK); // 15 min .. 3 h
    expect(checks.filter((now) => inactivityDue(last, start, 0, now, CHECK)).map((n) => n / MIN)).toEqual([60]);
    expect(checks.filter((now) => inactivityDue(last + 5 * MIN, start, 0, now, CHECK)).map((n) => n / MIN)).toEqual([75]);
  });

  it('repeats every period after the start', () => {
    const checks = Array.from({ length: 24 }, (_, i) => (i + 1) * CHECK);
    const due = checks.filter((now) => inactivityDue(0, 60 * MIN, 120 * MIN, now, CHECK)).map((n) => n / MIN);
    expect(due).toEqual([60, 180, 300]);
  });

  it('no start, no event', () => {
    expect(inactivityDue(0, 0, 10, 60 * MIN, CHECK)).toBe(false);
  });
});
