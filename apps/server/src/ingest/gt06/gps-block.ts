// The two blocks GT06 location packets share: the 18-byte GPS block and the LBS (cell) block.
import type { Network } from '@rastro/domain/entities';
import { knotsFromKmh } from '@rastro/domain/units';
import { DecodeError } from '../decoded.ts';
import type { ProtocolSession } from '../protocol.ts';
import { readDate, type DeviceDate } from './clock.ts';

export const GPS_BLOCK_BYTES = 18;

/** Degrees × 1,800,000 (minutes × 30,000). */
const COORDINATE_UNITS = 1_800_000;

export interface GpsFix extends DeviceDate {
  valid: boolean;
  latitude: number;
  longitude: number;
  /** Knots. */
  speed: number;
  course: number;
  satellites: number;
  /** Bit 14 says the block carries the ACC line; bit 15 is its value. */
  ignition?: boolean;
}

/** Throws when `frame[at..at+bytes)` runs past `end`: the packet is shorter than its type's layout. */
export function need(at: number, bytes: number, end: number, what: string): void {
  if (at + bytes > end) throw new DecodeError(`GT06 ${what}: ${bytes} bytes wanted, ${Math.max(0, end - at)} left`);
}

/**
 * The GPS block at `frame[at]`: date, GPS info (low nibble: satellites), latitude, longitude,
 * speed (km/h), course and status (bits 0–9 course, 10 north, 11 west, 12 positioned, 14 ACC
 * present, 15 ACC on). Null when the date is impossible: the packet's other facts are still
 * worth keeping, its position is not (a coordinate beyond 90° or 180° is caught with the
 * other ranges when the fix is made, fix.ts).
 */
export function readGps(frame: Buffer, at: number, end: number, session: ProtocolSession): GpsFix | null {
  need(at, GPS_BLOCK_BYTES, end, 'GPS block');
  const date = readDate(frame, at, session);
  if (!date) return null;
  let latitude = frame.readUInt32BE(at + 7) / COORDINATE_UNITS;
  let longitude = frame.readUInt32BE(at + 11) / COORDINATE_UNITS;
  const flags = frame.readUInt16BE(at + 16);
  if (!(flags & 0x0400)) latitude = -latitude;
  if (flags & 0x0800) longitude = -longitude;
  const course = flags & 0x03ff;
  return {
    ...date,
    valid: (flags & 0x1000) !== 0,
    latitude,
    longitude,
    speed: knotsFromKmh(frame[at + 15]!),
    // Ten bits reach 1023; a course past 360 is a unit's glitch, read as "not known".
    course: course <= 360 ? course : 0,
    satellites: frame[at + 6]! & 0x0f,
    ...(flags & 0x4000 ? { ignition: (flags & 0x8000) !== 0 } : {}),
  };
}

export interface CellLayout {
  /** Location area code: 2 bytes, or 4 on 4G units. */
  lacBytes: 2 | 4;
  /** Cell id: 3 bytes on most units, 4 on some, 8 on 4G units. */
  cidBytes: 3 | 4 | 8;
  /** A 2-byte MNC even when the MCC's top bit does not ask for one (packet 0x11). */
  wideMnc?: boolean;
}

/** Bytes the cell at `frame[at]` takes with `layout` (the MCC's top bit widens the MNC). */
export function cellBytes(frame: Buffer, at: number, end: number, layout: CellLayout): number {
  need(at, 2, end, 'LBS block');
  const wide = layout.wideMnc === true || (frame.readUInt16BE(at) & 0x8000) !== 0;
  return 2 + (wide ? 2 : 1) + layout.lacBytes + layout.cidBytes;
}

/**
 * The serving cell at `frame[at]`: MCC (top bit: the MNC takes 2 bytes), MNC, LAC, cell id.
 * Null for an all-zero cell (units without GSM service send one) or a cell id JavaScript
 * numbers cannot hold exactly.
 */
export function readCell(frame: Buffer, at: number, end: number, layout: CellLayout): Network | null {
  need(at, cellBytes(frame, at, end, layout), end, 'LBS block');
  const mccField = frame.readUInt16BE(at);
  const wide = layout.wideMnc === true || (mccField & 0x8000) !== 0;
  let p = at + 2;
  const mnc = wide ? frame.readUInt16BE(p) : frame[p]!;
  p += wide ? 2 : 1;
  const lac = layout.lacBytes === 4 ? frame.readUInt32BE(p) : frame.readUInt16BE(p);
  p += layout.lacBytes;
  const cid = layout.cidBytes !== 8 ? frame.readUIntBE(p, layout.cidBytes) : Number(frame.readBigUInt64BE(p));
  const mcc = mccField & 0x7fff;
  if ((mcc === 0 && lac === 0 && cid === 0) || !Number.isSafeInteger(cid)) return null;
  return {
    radioType: 'gsm',
    considerIp: false,
    cellTowers: [{ cellId: cid, locationAreaCode: lac, mobileCountryCode: mcc, mobileNetworkCode: mnc }],
  };
}
