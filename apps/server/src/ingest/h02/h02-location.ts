// The H02 location layout, shared by V1 and its siblings (V2, V8, V19, VI1…) and by V4 command
// answers: `hhmmss,A|V,lat,N|S,lon,E|W,knots,course[,battery],ddmmyy[,sim info],status[,extra…]`.
// Firmwares add and drop fields before the coordinates (a V4 answer puts the command and its
// result first), so the layout is found by its hemisphere letters rather than by position.
import type { Network } from '@rastro/domain/entities';
import type { DecodedFix } from '../decoded.ts';
import { parseCoordinate } from './h02-coordinates.ts';
import { decimal, deviceInstant, h02Fix, hex, integer, isDate } from './h02-fields.ts';
import { parseStatus, statusAttributes } from './h02-status.ts';

/** Index of the time field of the location layout at or after `from`, or -1. */
export function locationStart(fields: readonly string[], from: number): number {
  for (let i = from; i + 5 < fields.length; i += 1) {
    if ((fields[i + 3] === 'N' || fields[i + 3] === 'S') && (fields[i + 5] === 'E' || fields[i + 5] === 'W')) return i;
  }
  return -1;
}

/** A mobile country code is three digits from 200 to 799 (ITU E.212). */
const isMcc = (n: number | null): n is number => n !== null && n >= 200 && n <= 799;

/**
 * The serving cell some firmwares append (`mcc,mnc,lac,cid`): in decimal, or all four in hex
 * (`cc,28,db,d75b`); whichever reading gives a real country code wins, decimal first.
 */
function cellOf(values: readonly string[]): Network | null {
  if (values.length < 4) return null;
  const four = values.slice(0, 4);
  const decimalCell = four.map(integer);
  const cell = isMcc(decimalCell[0]!) && decimalCell.every((v) => v !== null && v >= 0) ? decimalCell : four.map(hex);
  const [mcc, mnc, lac, cid] = cell;
  if (!isMcc(mcc ?? null) || mnc == null || lac == null || cid == null || (lac === 0 && cid === 0)) return null;
  return { cellTowers: [{ mobileCountryCode: mcc!, mobileNetworkCode: mnc, locationAreaCode: lac, cellId: cid }] };
}

/** What follows the status word: odometer/temperature/fuel/altitude, or a cell, or raw values kept as io<N>. */
function extras(fix: DecodedFix, values: readonly string[]): void {
  const odometer = integer(values[0]);
  const fuel = values[2]?.includes('.') ? decimal(values[2]) : null;
  if (values.length === 6 && odometer !== null && fuel !== null) {
    fix.attributes.odometer = odometer;
    const temperature = integer(values[1]);
    if (temperature !== null) fix.attributes.temp1 = temperature;
    fix.attributes.fuel = fuel;
    fix.altitude = integer(values[3]) ?? 0;
    return;
  }
  const network = cellOf(values);
  if (network) fix.network = network;
  values.forEach((value, i) => {
    if (network && i < 4) return;
    const v = value.trim();
    if (v !== '') fix.attributes[`io${i + 1}`] = v;
  });
}

/**
 * The fix of a location layout whose time field is at `start`, or null when it names no
 * place (empty coordinates: a V1 sent before the first GPS fix).
 */
export function decodeLocation(fields: readonly string[], start: number, now: number): DecodedFix | null {
  const [time, validity = '', lat = '', ns = '', lon = '', ew = '', speed, course] = fields.slice(start, start + 8);
  if (lat.trim() === '' || lon.trim() === '') return null;
  // An optional battery field may sit between the course and the date.
  let dateIndex = start + 8;
  if (!isDate(fields[dateIndex]) && isDate(fields[dateIndex + 1]) && integer(fields[dateIndex]) !== null) dateIndex += 1;
  // No date at all is read as "now", as Traccar does; a date that names no real day is not.
  const dated = (fields[dateIndex] ?? '') !== '';
  const fix = h02Fix(now, dated ? deviceInstant(fields[dateIndex], time) ?? Number.NaN : null);
  // `A` is a GPS fix; a number instead of the letter is a coding scheme some firmwares send with valid fixes.
  fix.valid = validity === 'A' || /^\d+$/.test(validity);
  fix.latitude = parseCoordinate(lat, ns, 'N', 'S') ?? Number.NaN;
  fix.longitude = parseCoordinate(lon, ew, 'E', 'W') ?? Number.NaN;
  fix.speed = speed?.trim() ? decimal(speed) ?? Number.NaN : 0;
  fix.course = course?.trim() ? decimal(course) ?? Number.NaN : 0;
  // V19 puts its SIM fields (an empty one, the IP, the ICCID) between the date and the status.
  for (let i = dateIndex + 1; i <= dateIndex + 4 && i < fields.length; i += 1) {
    const status = parseStatus(fields[i]!);
    if (status === null) continue;
    Object.assign(fix.attributes, statusAttributes(status));
    extras(fix, fields.slice(i + 1));
    break;
  }
  return fix;
}
