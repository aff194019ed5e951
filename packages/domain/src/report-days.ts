// Calendar days of a report period in a time zone (daily summary: one row per device per day,
// split at the midnights of the user's zone) and the wall-clock reading of an instant there
// (what a spreadsheet shows). Pure: only Intl, no zone database of our own.

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when `timeZone` is an IANA zone name this runtime knows. */
export function isTimeZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== 'string' || timeZone.trim() === '') return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/**
 * The wall clock of `instant` in `timeZone`, as epoch ms of the same reading in UTC
 * (2024-06-01T00:30 in São Paulo → Date.UTC(2024, 5, 1, 0, 30)). Milliseconds are kept.
 */
export function wallClock(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const ms = ((instant % 1000) + 1000) % 1000;
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!, ms);
}

/** Offset of `timeZone` from UTC at `instant`, in ms (São Paulo: -3 h). */
export const zoneOffset = (instant: number, timeZone: string): number => wallClock(instant, timeZone) - instant;

/**
 * The instant a wall-clock reading (given as UTC epoch ms, see `wallClock`) happens in
 * `timeZone`. A reading skipped by a DST jump resolves to the instant after the gap.
 */
export function instantOfWallClock(reading: number, timeZone: string): number {
  let guess = reading - zoneOffset(reading, timeZone);
  for (let i = 0; i < 3; i++) {
    const next = reading - zoneOffset(guess, timeZone);
    if (next === guess) break;
    guess = next;
  }
  if (wallClock(guess, timeZone) === reading) return guess;
  // In a gap no instant reads `reading`: the answer is the jump itself, the first instant
  // reading later. It lies between the two offsets' candidates; search it to the millisecond.
  const a = reading - zoneOffset(guess - 86_400_000, timeZone);
  const b = reading - zoneOffset(guess + 86_400_000, timeZone);
  let lo = Math.min(a, b, guess);
  let hi = Math.max(a, b, guess);
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallClock(mid, timeZone) >= reading) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

const DAY = 86_400_000;

/** The first instant of the next calendar day after `instant`, in `timeZone`. */
export function nextMidnight(instant: number, timeZone: string): number {
  const reading = wallClock(instant, timeZone);
  const startOfDay = reading - (((reading % DAY) + DAY) % DAY);
  return instantOfWallClock(startOfDay + DAY, timeZone);
}

export interface DayPeriod {
  /** First instant of the piece (inclusive). */
  from: number;
  /** Last instant of the piece (inclusive): the next midnight, or the period's end. */
  to: number;
}

/**
 * Splits [from, to] (both inclusive, epoch ms) at the midnights of `timeZone`, as Traccar's
 * daily summary does: each day runs from its first instant to the next midnight, both included,
 * so a position exactly at midnight closes one day and opens the next (a day's distance then
 * reaches midnight instead of stopping at the last position before it, and the days' distances
 * add up to the period's). A period ending exactly at a midnight ends with that instant alone.
 */
export function splitByDay(from: number, to: number, timeZone: string): DayPeriod[] {
  const out: DayPeriod[] = [];
  if (from > to) return out;
  let start = from;
  for (;;) {
    const midnight = nextMidnight(start, timeZone);
    if (midnight > to) {
      out.push({ from: start, to });
      return out;
    }
    out.push({ from: start, to: midnight });
    start = midnight;
  }
}
