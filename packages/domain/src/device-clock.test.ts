import { describe, expect, it } from 'vitest';
import { judgeClock, offsetParts, type ClockSample } from './device-clock.ts';

const NOW = Date.UTC(2024, 4, 1, 12);
const H = 3_600_000;
const M = 60_000;
const TOL = 10 * M;
const sample = (serverTime: number, offset: number): ClockSample => ({ serverTime, fixTime: serverTime + offset });

describe('judgeClock', () => {
  it('unknown without positions; ok when the latest fix is on time', () => {
    expect(judgeClock({ future: null, latest: null, earlier: null, tolerance: TOL }).state).toBe('unknown');
    expect(judgeClock({ future: null, latest: sample(NOW, -5000), earlier: sample(NOW - 5 * M, -4000), tolerance: TOL }).state).toBe('ok');
  });

  it('ahead: a future fix received after the latest position', () => {
    const future = sample(NOW - M, 8 * H);
    expect(judgeClock({ future, latest: sample(NOW - 2 * H, 0), earlier: null, tolerance: TOL })).toEqual({ state: 'ahead', sample: future });
    expect(judgeClock({ future, latest: null, earlier: null, tolerance: TOL }).state).toBe('ahead');
    // Put right since: a good latest position arrived after the future fix.
    expect(judgeClock({ future, latest: sample(NOW, 0), earlier: null, tolerance: TOL }).state).toBe('ok');
  });

  it('behind: the latest fix and one two minutes older keep the same offset beyond the tolerance', () => {
    const latest = sample(NOW, -3 * H);
    expect(judgeClock({ future: null, latest, earlier: sample(NOW - 5 * M, -3 * H - 2000), tolerance: TOL })).toEqual({ state: 'behind', sample: latest });
    // No older fix to compare with: not enough to tell.
    expect(judgeClock({ future: null, latest, earlier: null, tolerance: TOL }).state).toBe('ok');
    // A backlog emptied quickly: fixes minutes apart arrived a second apart, offsets differ.
    expect(judgeClock({ future: null, latest, earlier: sample(NOW - 1000, -3 * H - 5 * M), tolerance: TOL }).state).toBe('ok');
    // Within the tolerance: ok.
    expect(judgeClock({ future: null, latest: sample(NOW, -5 * M), earlier: sample(NOW - 5 * M, -5 * M), tolerance: TOL }).state).toBe('ok');
    // The future rule off: the default threshold still applies to "behind".
    expect(judgeClock({ future: null, latest, earlier: sample(NOW - 5 * M, -3 * H), tolerance: Number.POSITIVE_INFINITY }).state).toBe('behind');
  });

  it('offsetParts', () => {
    expect(offsetParts(-3 * H - 20_000)).toEqual({ hours: 3, minutes: 0 });
    expect(offsetParts(5.5 * H)).toEqual({ hours: 5, minutes: 30 });
  });
});
