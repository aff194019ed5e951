// OsmAnd / Traccar Client, JSON form (the newer clients, built on the Transistorsoft
// background-geolocation payload): `{"device_id": "...", "location": {...}}`.
// Speeds arrive in m/s and become knots. A negative speed, heading, accuracy or battery level
// means "unknown" (the payload sends -1; iOS documents any negative value so); other values
// must lie in the domain's physical ranges, or the report is refused and nothing stored.
import { readIsoInstant } from '@rastro/domain/schemas/instant';
import {
  checkRange, checkUniqueId, DecodeError, emptyFix, inLatitudeRange, inLongitudeRange, instantOutOfRange, type DecodedMessage,
} from '../decoded.ts';
import { scanJson } from '../../http/json-scan.ts';
import { OSMAND_PROTOCOL } from './decode-query.ts';

/** 1 m/s in knots (1 knot = 1852 m per hour). */
export const MPS_TO_KNOTS = 3600 / 1852;

/** Traccar's `osmand.minAccuracy`: accuracies under this are not kept (left 0). */
export const MIN_ACCURACY = 10;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function coordinate(coords: Json, key: 'latitude' | 'longitude'): number {
  const value = num(coords[key]);
  if (value === null) throw new DecodeError(`Invalid ${key} - a number is expected in location.coords.${key}`);
  const ok = key === 'latitude' ? inLatitudeRange(value) : inLongitudeRange(value);
  if (!ok) throw new DecodeError(`Invalid ${key} ${value} - out of range`);
  return value;
}

/** Parses the body text; throws DecodeError for anything that is not a usable payload. */
export function decodeJsonText(text: string, now: number): DecodedMessage | null {
  // Nesting, unpaired surrogates and NUL are refused before parsing, as on the API port.
  const problem = scanJson(text);
  if (problem?.kind === 'depth') throw new DecodeError(`Invalid JSON body - nested deeper than ${problem.maxDepth} levels`);
  if (problem?.kind === 'text') throw new DecodeError(`Invalid ${problem.path} - ${problem.message}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new DecodeError('Invalid JSON body');
  }
  return decodeJson(body, now);
}

/** Returns null when `device_id` is missing; throws DecodeError for unusable values. */
export function decodeJson(body: unknown, now: number): DecodedMessage | null {
  if (!isObject(body)) throw new DecodeError('Invalid JSON body - an object is expected');
  const rawId = body.device_id;
  const uniqueId = typeof rawId === 'string' ? rawId.trim() : typeof rawId === 'number' ? String(rawId) : '';
  if (!uniqueId) return null;
  checkUniqueId(uniqueId);
  const location = body.location;
  if (!isObject(location)) throw new DecodeError('Invalid JSON body - "location" object is missing');

  const fix = emptyFix(OSMAND_PROTOCOL, now);
  if (location.timestamp !== undefined) {
    const reading = typeof location.timestamp === 'string' ? readIsoInstant(location.timestamp, { zoneless: 'utc' }) : null;
    if (reading?.ok === false && reading.problem === 'range') throw instantOutOfRange('location.timestamp');
    if (!reading?.ok) throw new DecodeError('Invalid location.timestamp - a real ISO-8601 date is expected');
    fix.deviceTime = fix.fixTime = reading.ms;
  }

  const coords = location.coords;
  if (isObject(coords)) {
    fix.latitude = coordinate(coords, 'latitude');
    fix.longitude = coordinate(coords, 'longitude');
    const speed = num(coords.speed);
    if (speed !== null && speed >= 0) fix.speed = checkRange('speed', 'location.coords.speed (in knots)', speed * MPS_TO_KNOTS);
    const heading = num(coords.heading);
    if (heading !== null && heading >= 0) fix.course = checkRange('course', 'location.coords.heading', heading);
    const accuracy = num(coords.accuracy);
    if (accuracy !== null && accuracy >= MIN_ACCURACY) fix.accuracy = checkRange('accuracy', 'location.coords.accuracy', accuracy);
    const altitude = num(coords.altitude);
    if (altitude !== null) fix.altitude = checkRange('altitude', 'location.coords.altitude', altitude);
  } else {
    fix.outdated = true;
  }

  const attrs = fix.attributes;
  if (typeof location.is_moving === 'boolean') attrs.motion = location.is_moving;
  const odometer = num(location.odometer);
  if (odometer !== null) attrs.odometer = checkRange('odometer', 'location.odometer', odometer);
  if (typeof location.event === 'string') attrs.event = location.event;
  if (typeof location.mock === 'boolean') attrs.mock = location.mock;
  if (typeof location.alarm === 'string') attrs.alarm = location.alarm;
  if (isObject(location.activity) && typeof location.activity.type === 'string') attrs.activity = location.activity.type;
  if (isObject(location.battery)) {
    const level = num(location.battery.level);
    if (level !== null && level >= 0) attrs.batteryLevel = checkRange('battery', 'location.battery.level (in percent)', Math.round(level * 100));
    if (location.battery.is_charging === true) attrs.charge = true;
  }
  if (isObject(location.extras)) {
    for (const [key, value] of Object.entries(location.extras)) {
      // Only scalar extras are kept: the attribute map holds numbers, booleans and text.
      if (typeof value === 'string' || typeof value === 'boolean' || num(value) !== null) attrs[key] = value;
    }
  }
  return { uniqueId, fix };
}
