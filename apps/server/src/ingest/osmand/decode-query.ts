// OsmAnd / Traccar Client, query form: `?id=..&lat=..&lon=..&timestamp=..` in the URL, or
// the same pairs as an urlencoded body. Pairs are applied in the order they appear, so a
// later key wins over an earlier one, as in Traccar.
import type { Network } from '@rastro/domain/entities';
import { readIsoInstant } from '@rastro/domain/schemas/instant';
import {
  checkInstant, checkRange, checkUniqueId, DecodeError, emptyFix, inLatitudeRange, inLongitudeRange, instantOutOfRange, type DecodedMessage,
} from '../decoded.ts';

export const OSMAND_PROTOCOL = 'osmand';

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A decimal number as Java's Double.parseDouble would accept it (minus hex/NaN oddities). */
export function parseNumber(value: string): number | null {
  const v = value.trim();
  if (!NUMBER.test(v)) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

function requireNumber(key: string, value: string): number {
  const n = parseNumber(value);
  if (n === null) throw new DecodeError(`Invalid ${key} "${value.slice(0, 40)}" - a decimal number is expected`);
  return n;
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d+)?$/;

/**
 * OsmAnd timestamps: epoch seconds (below 2^31), epoch milliseconds, ISO-8601 with `T`, or
 * `yyyy-MM-dd HH:mm:ss` in the server's local zone (what old OsmAnd builds send). The date
 * must be a real one (2025-02-30 is refused, not moved to March) within 1970–2200.
 */
export function parseTimestamp(value: string): number {
  const v = value.trim();
  const numeric = parseNumber(v);
  if (numeric !== null) return checkInstant('timestamp', Math.round(numeric < 2 ** 31 ? numeric * 1000 : numeric));
  if (v.includes('T')) {
    // A zone-less ISO time is read as UTC: devices have no idea of the server's zone.
    const reading = readIsoInstant(v, { zoneless: 'utc' });
    if (reading.ok) return reading.ms;
    if (reading.problem === 'range') throw instantOutOfRange('timestamp');
  } else {
    const m = LOCAL_TIME.exec(v);
    if (m) {
      const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as number[];
      const date = new Date(year!, month! - 1, day!, hour!, minute!, second!, m[7] ? Math.round(Number(m[7]) * 1000) : 0);
      // Date rolls impossible fields over (Feb 30 → Mar 2, 25:00 → next day): read them back.
      const real = date.getFullYear() === year && date.getMonth() === month! - 1 && date.getDate() === day
        && date.getHours() === hour && date.getMinutes() === minute && date.getSeconds() === second;
      if (real) return checkInstant('timestamp', date.getTime());
    }
  }
  throw new DecodeError(`Invalid timestamp "${v.slice(0, 40)}" - use epoch seconds or milliseconds, or ISO-8601`);
}

function parseCell(value: string): NonNullable<Network['cellTowers']>[number] {
  const parts = value.split(',').map((p) => parseNumber(p));
  if ((parts.length !== 4 && parts.length !== 5) || parts.some((p) => p === null || !Number.isInteger(p))) {
    throw new DecodeError(`Invalid cell "${value.slice(0, 60)}" - expected mcc,mnc,lac,cid[,signal]`);
  }
  const [mcc, mnc, lac, cid, signal] = parts as number[];
  return {
    cellId: cid!,
    locationAreaCode: lac!,
    mobileCountryCode: mcc!,
    mobileNetworkCode: mnc!,
    ...(signal !== undefined ? { signalStrength: signal } : {}),
  };
}

function parseWifi(value: string): NonNullable<Network['wifiAccessPoints']>[number] {
  const [mac, signal, ...rest] = value.split(',');
  const strength = signal === undefined ? null : parseNumber(signal);
  if (!mac || rest.length > 0 || (signal !== undefined && strength === null)) {
    throw new DecodeError(`Invalid wifi "${value.slice(0, 60)}" - expected mac,signal`);
  }
  return { macAddress: mac.replaceAll('-', ':'), ...(strength !== null ? { signalStrength: strength } : {}) };
}

/** Any key the decoder does not know: number when numeric, boolean for true/false, else text. */
export function attributeValue(value: string): number | boolean | string {
  const n = parseNumber(value);
  if (n !== null) return n;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

/**
 * Decodes the pairs of one request. Returns null when no device id is present (the caller
 * answers 400); throws DecodeError for values that make the message unusable.
 */
export function decodeQuery(pairs: Iterable<[string, string]>, now: number): DecodedMessage | null {
  const fix = emptyFix(OSMAND_PROTOCOL, now);
  let uniqueId: string | null = null;
  let notificationToken: string | undefined;
  let latitude: number | null = null;
  let longitude: number | null = null;
  const cells: NonNullable<Network['cellTowers']> = [];
  const wifis: NonNullable<Network['wifiAccessPoints']> = [];

  for (const [key, value] of pairs) {
    switch (key) {
      case 'id':
      case 'deviceid':
        uniqueId = checkUniqueId(value.trim());
        break;
      case 'valid':
        fix.valid = value.toLowerCase() === 'true' || value === '1';
        break;
      case 'timestamp':
        fix.deviceTime = fix.fixTime = parseTimestamp(value);
        break;
      case 'lat':
        latitude = requireNumber('latitude', value);
        break;
      case 'lon':
        longitude = requireNumber('longitude', value);
        break;
      case 'location': {
        const [lat, lon, ...rest] = value.split(',');
        if (lat === undefined || lon === undefined || rest.length > 0) {
          throw new DecodeError(`Invalid location "${value.slice(0, 60)}" - expected lat,lon`);
        }
        latitude = requireNumber('latitude', lat);
        longitude = requireNumber('longitude', lon);
        break;
      }
      case 'cell':
        cells.push(parseCell(value));
        break;
      case 'wifi':
        wifis.push(parseWifi(value));
        break;
      case 'speed':
        fix.speed = checkRange('speed', 'speed', requireNumber('speed', value));
        break;
      case 'bearing':
      case 'heading':
        fix.course = checkRange('course', key, requireNumber(key, value));
        break;
      case 'altitude':
        fix.altitude = checkRange('altitude', 'altitude', requireNumber('altitude', value));
        break;
      case 'accuracy':
        fix.accuracy = checkRange('accuracy', 'accuracy', requireNumber('accuracy', value));
        break;
      case 'hdop':
        fix.attributes.hdop = checkRange('hdop', 'hdop', requireNumber('hdop', value));
        break;
      case 'batt':
        fix.attributes.batteryLevel = checkRange('battery', 'batt', requireNumber('batt', value));
        break;
      case 'charge':
        fix.attributes.charge = value.toLowerCase() === 'true';
        break;
      case 'driverUniqueId':
        fix.attributes.driverUniqueId = value;
        break;
      case 'notificationToken':
        notificationToken = value;
        break;
      default:
        if (key !== '') fix.attributes[key] = attributeValue(value);
    }
  }

  if (!uniqueId) return null;
  if (latitude !== null && !inLatitudeRange(latitude)) {
    throw new DecodeError(`Invalid latitude ${latitude} - must be between -90 and 90`);
  }
  if (longitude !== null && !inLongitudeRange(longitude)) {
    throw new DecodeError(`Invalid longitude ${longitude} - must be between -180 and 180`);
  }
  if (latitude !== null && longitude !== null) {
    fix.latitude = latitude;
    fix.longitude = longitude;
  } else {
    fix.outdated = true;
  }
  if (cells.length > 0 || wifis.length > 0) {
    fix.network = {
      radioType: 'gsm',
      considerIp: false,
      ...(cells.length > 0 ? { cellTowers: cells } : {}),
      ...(wifis.length > 0 ? { wifiAccessPoints: wifis } : {}),
    };
  }
  return { uniqueId, fix, ...(notificationToken ? { notificationToken } : {}) };
}
