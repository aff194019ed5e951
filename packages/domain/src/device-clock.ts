// Is a device's clock off? (`GET /api/devices/{id}/clock`, shown in the device detail.) A fix
// is dated by the tracker; the server notes when it arrived. Their difference is the clock
// offset, plus a few seconds of delay. Trackers set to local time instead of UTC (GT06 and H02
// often are) are off by whole hours:
//   - ahead (east of UTC, e.g. China's +8): the fixes are dated in the future; the server stores
//     them but never shows them as the latest position, so the device seems stuck;
//   - behind (west of UTC, e.g. Brazil's −3): the fixes look hours old.
// A tracker emptying its memory after a coverage gap also sends old fixes, but quickly one after
// the other: their offsets shrink from one to the next. A clock that is off keeps the same
// offset while time passes, and only that is reported.

export type ClockState = 'ok' | 'ahead' | 'behind' | 'unknown';

/** A stored fix: when it was dated and when the server received it (epoch ms). */
export interface ClockSample {
  fixTime: number;
  serverTime: number;
}

export interface DeviceClock {
  deviceId: number;
  state: ClockState;
  /** fixTime − serverTime of the fix that shows it (ms); null when unknown. */
  offset: number | null;
  /** That fix's times (ISO), null when unknown. */
  fixTime: string | null;
  serverTime: string | null;
  /** How far ahead a fix may be dated and still become the latest (ms; `filter.future`; null = no limit). */
  tolerance: number | null;
  /** The device's `decoder.timezone` (own or inherited), null when unset. */
  timezone: string | null;
  /** False when `timezone` is set but not understood (its dates are then read as UTC). */
  timezoneValid: boolean;
}

/** Two fixes this far apart in time (ms) compare offsets: a stable offset is a clock, not a backlog. */
export const CLOCK_STABLE_SPAN_MS = 120_000;
/** `filter.future`'s default (10 min, the server's config-keys.ts), the "behind" threshold when that rule is off. */
export const CLOCK_DEFAULT_TOLERANCE_MS = 600_000;
/** How much two offsets of one clock may differ (ms): network and processing delays. */
export const CLOCK_OFFSET_SLACK_MS = 60_000;

export interface ClockInput {
  /** The newest fix dated beyond the tolerance ahead of now, if any. */
  future: ClockSample | null;
  /** The device's latest position. */
  latest: ClockSample | null;
  /** A fix at least CLOCK_STABLE_SPAN_MS older than `latest` (by fixTime), if any. */
  earlier: ClockSample | null;
  /** ms; Infinity = no limit. */
  tolerance: number;
}

export interface ClockJudgement {
  state: ClockState;
  sample: ClockSample | null;
}

const offsetOf = (s: ClockSample) => s.fixTime - s.serverTime;

export function judgeClock({ future, latest, earlier, tolerance }: ClockInput): ClockJudgement {
  // A future fix received after the latest position: the clock is ahead now (a latest position
  // received after it means the clock, or decoder.timezone, has been put right since).
  if (future && (latest === null || future.serverTime >= latest.serverTime)) return { state: 'ahead', sample: future };
  if (!latest) return { state: 'unknown', sample: null };
  // With the future rule off, "behind" still needs a threshold: the server's default one.
  const threshold = Number.isFinite(tolerance) ? tolerance : CLOCK_DEFAULT_TOLERANCE_MS;
  const offset = offsetOf(latest);
  if (offset < -threshold && earlier) {
    const before = offsetOf(earlier);
    if (before < -threshold && Math.abs(before - offset) <= CLOCK_OFFSET_SLACK_MS) return { state: 'behind', sample: latest };
  }
  return { state: 'ok', sample: latest };
}

/** Whole hours and minutes of an offset, for messages ("3 h", "5 h 30 min"). */
export function offsetParts(offsetMs: number): { hours: number; minutes: number } {
  const total = Math.round(Math.abs(offsetMs) / 60_000);
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}
