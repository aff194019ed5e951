// Field readers shared by the H02 text reports, and the fix they start from.
import { calendarInstant } from '../calendar-instant.ts';
import { emptyFix, type DecodedFix } from '../decoded.ts';

export const H02_PROTOCOL = 'h02';

const DECIMAL = /^-?\d{1,12}(\.\d{0,9})?$/;
const INTEGER = /^-?\d{1,12}$/;
const TIME = /^(\d{2})(\d{2})(\d{2})(\.\d+)?$/;
const DATE = /^(\d{2})(\d{2})(\d{2})$/;

/** A decimal field (spaces around allowed), or null. */
export function decimal(text: string | undefined): number | null {
  const v = text?.trim();
  return v && DECIMAL.test(v) ? Number(v) : null;
}

/** A whole-number field, or null. */
export function integer(text: string | undefined): number | null {
  const v = text?.trim();
  return v && INTEGER.test(v) ? Number(v) : null;
}

/** A field of hexadecimal digits (spaces around allowed), or null. */
export function hex(text: string | undefined): number | null {
  const v = text?.trim();
  return v && /^[0-9A-Fa-f]{1,8}$/.test(v) ? Number.parseInt(v, 16) : null;
}

export const isDate = (text: string | undefined): boolean => text !== undefined && (text === '' || DATE.test(text));

/**
 * The instant of an H02 `ddmmyy` date and `hhmmss` time (years 2000–2099, the device's own
 * clock), or null when either is missing or impossible.
 */
export function deviceInstant(ddmmyy: string | undefined, hhmmss: string | undefined): number | null {
  const d = DATE.exec(ddmmyy ?? '');
  const t = TIME.exec(hhmmss ?? '');
  if (!d || !t) return null;
  return calendarInstant(2000 + Number(d[3]), Number(d[2]), Number(d[1]), Number(t[1]), Number(t[2]), Number(t[3]));
}

/**
 * A fix stamped with the device's date (`clock: 'device'`, as H02 dates carry no zone), or with
 * the arrival time when the report has none.
 */
export function h02Fix(now: number, deviceTime: number | null): DecodedFix {
  const fix = emptyFix(H02_PROTOCOL, deviceTime ?? now);
  if (deviceTime !== null) fix.clock = 'device';
  return fix;
}

/** A fix without coordinates: the pipeline places it at the device's last position. */
export function h02Outdated(now: number, deviceTime: number | null): DecodedFix {
  const fix = h02Fix(now, deviceTime);
  fix.outdated = true;
  fix.valid = false;
  return fix;
}
