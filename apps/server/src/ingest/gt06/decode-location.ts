// GT06 location packets: a GPS block, then per type an LBS (cell) block, status bytes or a
// short trailer.
//   0x10 GPS                       0x11 GPS + cell (2-byte MNC, 4-byte cell id)
//   0x12 / 0x22 GPS + cell         0x16 / 0x26 GPS + cell + status (the alarm packets)
//   0x17 GPS + cell + RFID card    0xA0 GPS + 4G cell (4-byte LAC, 8-byte cell id)
import type { Network } from '@rastro/domain/entities';
import type { DecodedFix } from '../decoded.ts';
import type { ProtocolSession } from '../protocol.ts';
import { MSG } from './constants.ts';
import { fixOf, gpsFacts } from './fix.ts';
import type { Gt06Frame } from './framing.ts';
import { cellBytes, GPS_BLOCK_BYTES, need, readCell, readGps, type CellLayout } from './gps-block.ts';
import { newFacts, readStatusBlock, type Facts } from './status.ts';

export const LOCATION_TYPES: ReadonlySet<number> = new Set([
  MSG.GPS, MSG.GPS_LBS_LONG_CELL, MSG.GPS_LBS, MSG.GPS_LBS_STATUS, MSG.GPS_LBS_2, MSG.GPS_LBS_STATUS_2, MSG.GPS_LBS_4G,
]);

/** Content of the 0x17 packet that carries an RFID card (GPS, cell, 8-byte card, validity); other 0x17 are Wi-Fi lists. */
export const RFID_CONTENT_BYTES = GPS_BLOCK_BYTES + 8 + 8 + 1;

const STATUS_BYTES = 5; // terminal info, voltage level, GSM signal, alarm code, language

const CELL: Readonly<Record<number, CellLayout>> = {
  [MSG.GPS_LBS_LONG_CELL]: { lacBytes: 2, cidBytes: 4, wideMnc: true },
  [MSG.GPS_LBS]: { lacBytes: 2, cidBytes: 3 },
  [MSG.GPS_LBS_2]: { lacBytes: 2, cidBytes: 3 },
  [MSG.WIFI]: { lacBytes: 2, cidBytes: 3 },
  [MSG.GPS_LBS_4G]: { lacBytes: 4, cidBytes: 8 },
};

/**
 * What may follow the cell of 0x10, 0x11, 0x12, 0x22 and 0xA0: ACC (1 = on), upload mode and
 * re-upload flag (1 = a stored fix sent late), then optionally a 4-byte odometer in metres.
 * Other trailers belong to single models and are left alone.
 */
function readTrailer(facts: Facts, frame: Buffer, at: number, end: number): void {
  const left = end - at;
  if (left === 3 || left === 7) {
    facts.attributes.ignition = frame[at]! > 0;
    if (frame[at + 2]! > 0) facts.attributes.archive = true;
    at += 3;
  }
  if (end - at === 4) facts.attributes.odometer = frame.readUInt32BE(at);
}

/**
 * The cell of an alarm packet (0x16, 0x26): it fills what lies between the GPS block and the
 * 5 status bytes, normally a length byte and an 8-byte cell. Units differ (no length byte, a
 * 4-byte cell id, a 0 length with no cell at all), so the room it has decides how it reads.
 */
function readAlarmCell(frame: Buffer, at: number, end: number): Network | null {
  const room = end - at;
  const withLength = room >= 9;
  const start = withLength ? at + 1 : at;
  for (const cidBytes of [3, 4] as const) {
    const layout: CellLayout = { lacBytes: 2, cidBytes };
    if (room >= 8 && start + cellBytes(frame, start, end, layout) === end) return readCell(frame, start, end, layout);
  }
  return null;
}

export function decodeLocation(frame: Buffer, parts: Gt06Frame, session: ProtocolSession, now: number): DecodedFix {
  const { type, start, end } = parts;
  const facts = newFacts();
  const gps = readGps(frame, start, end, session);
  gpsFacts(facts, gps);
  let at = start + GPS_BLOCK_BYTES;
  let network: Network | null = null;
  if (type === MSG.GPS_LBS_STATUS || type === MSG.GPS_LBS_STATUS_2) {
    need(at, STATUS_BYTES, end, 'status block');
    network = readAlarmCell(frame, at, end - STATUS_BYTES);
    readStatusBlock(facts, frame, end - STATUS_BYTES, end);
  } else if (type !== MSG.GPS) {
    const layout = CELL[type]!;
    network = readCell(frame, at, end, layout);
    at += cellBytes(frame, at, end, layout);
    if (type === MSG.WIFI) {
      need(at, 8, end, 'RFID card');
      facts.attributes.driverUniqueId = frame.toString('hex', at, at + 8);
    } else {
      readTrailer(facts, frame, at, end);
    }
  } else {
    readTrailer(facts, frame, at, end);
  }
  return fixOf(facts, gps, network, now);
}
