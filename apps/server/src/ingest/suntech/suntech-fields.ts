// Field readers shared by the Suntech layouts, and the fixes they fill.
import { knotsFromKmh } from '@rastro/domain/units';
import { calendarInstant } from '../calendar-instant.ts';
import { emptyFix, type DecodedFix } from '../decoded.ts';

export const SUNTECH_PROTOCOL = 'suntech';

const DECIMAL = /^[+-]?\d{1,12}(\.\d{0,9})?$/;
const INTEGER = /^\d{1,12}$/;
const DATE = /^(\d{4})(\d{2})(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})$/;
export const COORDINATE = /^[+-]\d{1,3}\.\d{1,9}$/;

/** A decimal field, or null. */
export function decimal(text: string | undefined): number | null {
  return text !== undefined && DECIMAL.test(text) ? Number(text) : null;
}

/** An unsigned whole-number field, or null. */
export function integer(text: string | undefined): number | null {
  return text !== undefined && INTEGER.test(text) ? Number(text) : null;
}

/** A field of hex digits, or null. */
export function hex(text: string | undefined): number | null {
  return text !== undefined && /^[0-9A-Fa-f]{1,8}$/.test(text) ? Number.parseInt(text, 16) : null;
}

/** Whether `values[i]` and `values[i + 1]` are a `YYYYMMDD` date and an `HH:MM:SS` time. */
export const isDateTime = (values: readonly string[], i: number): boolean => DATE.test(values[i] ?? '') && TIME.test(values[i + 1] ?? '');

/** The UTC instant of `YYYYMMDD` and `HH:MM:SS`, NaN when they name no real date of 1970–2200. */
export function instantOf(date: string | undefined, time: string | undefined): number {
  const d = DATE.exec(date ?? '');
  const t = TIME.exec(time ?? '');
  if (!d || !t) return Number.NaN;
  return calendarInstant(Number(d[1]), Number(d[2]), Number(d[3]), Number(t[1]), Number(t[2]), Number(t[3])) ?? Number.NaN;
}

/** A location as Suntech reports it: degrees, km/h, degrees, satellites, GPS fix. */
export interface Located {
  time: number;
  latitude: number;
  longitude: number;
  speedKmh: number;
  course: number;
  satellites: number | null;
  valid: boolean;
}

/** The location text fields (signed decimal degrees, `1` for a GPS fix); a missing speed or course is 0. */
export interface LocatedText {
  latitude?: string;
  longitude?: string;
  speedKmh?: string;
  course?: string;
  satellites?: string;
  fix?: string;
}

/** Reads located text fields; an unreadable value becomes NaN, which `fixInRange` catches. */
export function locatedOf(time: number, text: LocatedText): Located {
  const coordinate = (v: string | undefined) => (v !== undefined && COORDINATE.test(v) ? Number(v) : Number.NaN);
  const number = (v: string | undefined) => (v === undefined ? 0 : decimal(v) ?? Number.NaN);
  return {
    time,
    latitude: coordinate(text.latitude),
    longitude: coordinate(text.longitude),
    speedKmh: number(text.speedKmh),
    course: number(text.course),
    satellites: integer(text.satellites),
    valid: text.fix === '1',
  };
}

/** The fix of a location, speed converted to knots. */
export function locatedFix(located: Located): DecodedFix {
  const fix = emptyFix(SUNTECH_PROTOCOL, located.time);
  fix.latitude = located.latitude;
  fix.longitude = located.longitude;
  fix.speed = knotsFromKmh(located.speedKmh);
  fix.course = located.course;
  fix.valid = located.valid;
  if (located.satellites !== null) fix.attributes.sat = located.satellites;
  return fix;
}

/** A fix without coordinates (keep-alive data, command replies): placed at the last known position. */
export function outdatedFix(now: number): DecodedFix {
  const fix = emptyFix(SUNTECH_PROTOCOL, now);
  fix.outdated = true;
  fix.valid = false;
  return fix;
}

/** Binary digits, rightmost first: `00000101` → [true, false, true, false, …]. */
export function bits(text: string | undefined): boolean[] | null {
  return text !== undefined && /^[01]{1,32}$/.test(text) ? [...text].reverse().map((c) => c === '1') : null;
}

/**
 * Ignition, inputs and outputs as Traccar's attributes. Output 1 is the one Suntech's
 * `Enable1`/`04;01` commands drive, wired to the engine-cut relay: it is also `blocked`.
 */
export function ioAttributes(attributes: Record<string, unknown>, ignition: boolean, inputs: readonly boolean[], outputs: readonly boolean[]): void {
  attributes.ignition = ignition;
  inputs.forEach((on, i) => (attributes[`in${i + 1}`] = on));
  outputs.forEach((on, i) => (attributes[`out${i + 1}`] = on));
  if (outputs.length > 0) attributes.blocked = outputs[0];
}
