// Instants the API accepts: ISO-8601 texts that name a real calendar date (2025-02-30 is
// refused, not shifted into March as Date.parse does) and epoch milliseconds, both within the
// years 1970–2200. Dates outside that span are typing mistakes or hostile input, and some of
// them cannot even be written back as ISO text (JavaScript dates end at ±8.64e15 ms).

/** 1970-01-01T00:00:00.000Z. */
export const INSTANT_MIN_MS = 0;
/** 2200-12-31T23:59:59.999Z. */
export const INSTANT_MAX_MS = Date.UTC(2201, 0, 1) - 1;

/** A whole number of milliseconds within 1970–2200. */
export function isInstantInRange(ms: unknown): ms is number {
  return typeof ms === 'number' && Number.isInteger(ms) && ms >= INSTANT_MIN_MS && ms <= INSTANT_MAX_MS;
}

export type InstantProblem = 'format' | 'date' | 'range';

export type InstantReading = { ok: true; ms: number } | { ok: false; problem: InstantProblem };

export interface InstantOptions {
  /**
   * What a text without an offset means: refused (the API, like Traccar, wants the zone said)
   * or read as UTC (devices, which know nothing of the server's zone). The lenient form also
   * takes an hour-only offset (`+02`).
   */
  zoneless?: 'refuse' | 'utc';
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

function daysIn(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Reads an ISO-8601 instant, saying why it is refused when it is. */
export function readIsoInstant(text: string, options: InstantOptions = {}): InstantReading {
  const m = ISO.exec(text.trim());
  if (!m) return { ok: false, problem: 'format' };
  const zone = m[8];
  const lenient = options.zoneless === 'utc';
  if (zone === undefined && !lenient) return { ok: false, problem: 'format' };
  // The strict form wants minutes in the offset (+02:00 or +0200), as before.
  if (zone !== undefined && zone.length === 3 && !lenient) return { ok: false, problem: 'format' };
  const [year, month, day, hour, minute] = [m[1], m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number, number];
  const second = m[6] === undefined ? 0 : Number(m[6]);
  const millis = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return { ok: false, problem: 'date' };
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, problem: 'date' };
  let offsetMinutes = 0;
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2)) : 0;
    if (oh > 23 || om > 59) return { ok: false, problem: 'date' };
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  // Years below 100 would be read as 19xx by Date.UTC; they are out of range either way.
  if (year < 1900) return { ok: false, problem: 'range' };
  const ms = Date.UTC(year, month - 1, day, hour, minute, second, millis) - offsetMinutes * 60_000;
  return isInstantInRange(ms) ? { ok: true, ms } : { ok: false, problem: 'range' };
}

/** The instant of an ISO-8601 text, or null when it is malformed, impossible or out of range. */
export function parseIsoInstant(text: string, options: InstantOptions = {}): number | null {
  const reading = readIsoInstant(text, options);
  return reading.ok ? reading.ms : null;
}

/** What to tell a person about a refused instant (the tail of a Traccar-style message). */
export function instantProblemText(problem: InstantProblem): string {
  switch (problem) {
    case 'format':
      return 'an ISO date with offset is expected, like 2024-05-01T10:00:00Z';
    case 'date':
      return 'not a real date or time of day';
    case 'range':
      return 'the date must be from 1970 to 2200';
  }
}
