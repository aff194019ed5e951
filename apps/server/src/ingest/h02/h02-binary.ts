// The binary H02 report (`$`): BCD digits throughout. After the marker: the id (5 bytes, 10
// digits; 8 bytes holding a 15-digit IMEI in 42-byte frames), hhmmss, ddmmyy, the latitude as
// ddmm.mmmm, a battery byte, the longitude as dddmm.mmmm followed by a flags nibble (bit 1 GPS
// fix, bit 2 north, bit 3 east), three digits of speed in knots, three of course, and the
// 32-bit status word. Bytes after the status (longer frames) are not documented and are left.
import { DecodeError } from '../decoded.ts';
import type { DecodedFix } from '../decoded.ts';
import { calendarInstant } from '../calendar-instant.ts';
import { h02Fix } from './h02-fields.ts';
import { statusAttributes } from './h02-status.ts';

const LONG_ID_FRAME = 42;

/** `count` BCD digits from the high nibble of `buffer[start]`; null when a nibble is not a digit. */
function bcd(buffer: Buffer, start: number, count: number): string | null {
  let out = '';
  for (let i = 0; i < count; i += 1) {
    const byte = buffer[start + (i >> 1)];
    if (byte === undefined) return null;
    const nibble = i % 2 === 0 ? byte >> 4 : byte & 0x0f;
    if (nibble > 9) return null;
    out += String(nibble);
  }
  return out;
}

/** Battery byte: levels 1–6 of the tracker's gauge, or a percentage above 6. */
function batteryLevel(value: number): number | null {
  const LEVELS = [0, 10, 20, 60, 80, 100];
  if (value >= 1 && value <= 6) return LEVELS[value - 1]!;
  return value > 6 && value <= 100 ? value : null;
}

export interface BinaryReport {
  uniqueId: string;
  fix: DecodedFix;
}

export function decodeBinary(frame: Buffer, now: number): BinaryReport {
  const longId = frame.length === LONG_ID_FRAME;
  const id = longId ? bcd(frame, 1, 15) : bcd(frame, 1, 10);
  if (id === null) throw new DecodeError('H02 binary frame with a malformed id');
  let at = longId ? 9 : 6;
  const digits = (count: number, bytes: number): string => {
    const value = bcd(frame, at, count);
    at += bytes;
    return value ?? '';
  };
  const time = digits(6, 3);
  const date = digits(6, 3);
  const lat = digits(8, 4);
  const battery = frame[at++];
  const lon = digits(9, 5);
  const flags = (frame[at - 1] ?? 0) & 0x0f;
  const speedCourse = digits(6, 3);
  const status = at + 4 <= frame.length ? frame.readUInt32BE(at) : null;

  const num = (text: string, from: number, to: number) => (text === '' ? Number.NaN : Number(text.slice(from, to)));
  const instant = calendarInstant(2000 + num(date, 4, 6), num(date, 2, 4), num(date, 0, 2), num(time, 0, 2), num(time, 2, 4), num(time, 4, 6));
  const fix = h02Fix(now, instant ?? Number.NaN);
  fix.valid = (flags & 0x02) !== 0;
  const degrees = (text: string, degreeDigits: number) => {
    const minutes = num(text, degreeDigits, degreeDigits + 6) / 1e4;
    return minutes < 60 ? num(text, 0, degreeDigits) + minutes / 60 : Number.NaN;
  };
  const latitude = degrees(lat, 2);
  const longitude = degrees(lon, 3);
  fix.latitude = (flags & 0x04) !== 0 ? latitude : -latitude;
  fix.longitude = (flags & 0x08) !== 0 ? longitude : -longitude;
  fix.speed = num(speedCourse, 0, 3);
  fix.course = num(speedCourse, 3, 6);
  const level = battery === undefined ? null : batteryLevel(battery);
  if (level !== null) fix.attributes.batteryLevel = level;
  if (status !== null) Object.assign(fix.attributes, statusAttributes(status));
  return { uniqueId: id, fix };
}
