// GT06 frames for the tests: the vectors of Traccar's decoder test (traccar-reference A.10),
// frames real units sent with the answer Traccar gave them (from Traccar's issue tracker), and
// frames built from the Concox layouts for what neither covers. Shared by the decoder unit
// tests, the fuzz test (as seeds) and the TCP integration test.
import type { ProtocolSession } from '../protocol.ts';
import { buildFrame } from './framing.ts';

/** Reference A.10, by its row number. */
export const REFERENCE_VECTORS = {
  1: '78780D01086471700328358100093F040D0A',
  2: '787805120099abec0d0a',
  3: '78781f120f0a140e150bc505e51e780293a9e800540000f601006e0055da00035f240d0a',
  5: '787821120C010C0F151FCF027AC8840C4657EC00140001CC00287D001F720001000F53A00D0A',
  6: '787822220F0C1D023305C9027AC8180C46586000140001CC00287D001F71000001000820860D0A',
  7: '787825160B051B093523CF027AC8360C4657B30014000901CC00266A001E1740050400020008D7B10D0A',
  8: '78782616170A080C0E24C0027C58AD0C2B8B0100454E0901CC0025030328E7A0005D4B13021EC373170D0A',
  10: '787829a01707150f2d0ecd01635100041e96d000087c02d4020000912e000000000718798d000e0006ed3ce50d0a',
  11: '78780a13c40604000201298f5b0d0a',
} as const;

/** Frames units sent to Traccar and the bytes Traccar answered (Traccar issues 2876, 2133, 3212, 2869). */
export const OBSERVED = [
  { frame: '78781f12110206150d34c9003e7ec00892397300380002e4003bf700cb9d000397770d0a', answer: '787805120003903f0d0a' },
  { frame: '78782516110206151407cc003e7e88089239c50038000902e4003bf700cb9d65005800010013c5450d0a', answer: '787805160013e3df0d0a' },
  { frame: '78780a134406040002011938c50d0a', answer: '7878051301196ce00d0a' },
  { frame: '78780a1344060400020033af450d0a', answer: '787805130033fb600d0a' },
] as const;

/** "DYD=Success!", a unit's 0x15 reply to `DYD,000000#` (server flag 0x0001A958, English). */
export const DYD_REPLY = '787818151000 01a958 4459443d5375636365737321 0002 0018 9177 0d0a'.replaceAll(' ', '');

/** The 0x80 `DYD,123456#` Traccar wrote (flag and serial 0), as its log shows it. */
export const TRACCAR_DYD_COMMAND = '787815800f000000004459442c313233343536230000755a0d0a';

export const IMEI = '864717003283581';

/** A login for `imei` (8 BCD bytes, type 0x3632), with the 2-byte time-zone extension when given. */
export function login(imei: string, serial = 1, zoneBits?: number): Buffer {
  const content = Buffer.alloc(zoneBits === undefined ? 10 : 12);
  Buffer.from(imei.padStart(16, '0'), 'hex').copy(content, 0);
  content.writeUInt16BE(0x3632, 8);
  if (zoneBits !== undefined) content.writeUInt16BE(zoneBits, 10);
  return buildFrame(0x01, content, serial);
}

export interface GpsInput {
  /** UTC (or unit-local) date parts: year, month, day, hour, minute, second. */
  date: [number, number, number, number, number, number];
  latitude: number;
  longitude: number;
  kmh?: number;
  course?: number;
  satellites?: number;
  valid?: boolean;
  ignition?: boolean;
}

/** The 18-byte GPS block. */
export function gpsBlock(g: GpsInput): Buffer {
  const out = Buffer.alloc(18);
  const [y, mo, d, h, mi, s] = g.date;
  out.set([y - 2000, mo, d, h, mi, s], 0);
  out[6] = 0xc0 | (g.satellites ?? 9);
  out.writeUInt32BE(Math.round(Math.abs(g.latitude) * 1_800_000), 7);
  out.writeUInt32BE(Math.round(Math.abs(g.longitude) * 1_800_000), 11);
  out[15] = g.kmh ?? 0;
  let flags = g.course ?? 0;
  if (g.valid ?? true) flags |= 0x1000;
  if (g.latitude >= 0) flags |= 0x0400;
  if (g.longitude < 0) flags |= 0x0800;
  if (g.ignition !== undefined) flags |= 0x4000 | (g.ignition ? 0x8000 : 0);
  out.writeUInt16BE(flags, 16);
  return out;
}

/** Brazil (724), Claro (5), LAC 0x2A1F, cell 0x00B2C3: the 8-byte cell of most packets. */
export const CELL = Buffer.from('02d405 2a1f 00b2c3'.replaceAll(' ', ''), 'hex');

/** 0x22: GPS, cell, ACC, upload mode, re-upload flag. */
export const location22 = (g: GpsInput, serial: number, acc = 1): Buffer =>
  buildFrame(0x22, Buffer.concat([gpsBlock(g), CELL, Buffer.from([acc, 0x00, 0x00])]), serial);

/** 0x16 / 0x26: GPS, cell with its length byte, terminal info, voltage level, GSM, alarm code, language. */
export const alarmPacket = (type: 0x16 | 0x26, g: GpsInput, terminalInfo: number, alarm: number, serial: number): Buffer =>
  buildFrame(type, Buffer.concat([gpsBlock(g), Buffer.from([9]), CELL, Buffer.from([terminalInfo, 0x05, 0x03, alarm, 0x02])]), serial);

/** 0x13: terminal info, voltage level, GSM, alarm code, language. */
export const status13 = (terminalInfo: number, serial: number, voltage = 6, gsm = 4, alarm = 0): Buffer =>
  buildFrame(0x13, Buffer.from([terminalInfo, voltage, gsm, alarm, 0x02]), serial);

/** A fresh connection's session, as the listener hands it before identification. */
export function newSession(overrides: Partial<ProtocolSession> = {}): ProtocolSession {
  return { transport: 'tcp', remote: '127.0.0.1:40000', uniqueId: null, deviceAttributes: null, state: {}, ...overrides };
}

/** A session identified as `IMEI` with `attributes` as the device's own. */
export const identifiedSession = (attributes: Record<string, unknown> = {}): ProtocolSession =>
  newSession({ uniqueId: IMEI, deviceAttributes: attributes });

export const hex = (text: string): Buffer => Buffer.from(text, 'hex');
