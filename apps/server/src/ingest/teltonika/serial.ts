// Codec 12 and 13 messages from the device: the answer to a GPRS command (codec 12, type
// 0x06) and timestamped device text (codec 13, e.g. a driver card reader's line). Neither has
// coordinates: each becomes an outdated fix (the pipeline reuses the last one) carrying
// `result` — the text, or its bytes in hex when it is not printable — which the pipeline
// turns into a commandResult event. A `GTSL|…` line (a tachograph / card reader's driver
// login) gives `driverUniqueId` instead.
import { isInstantInRange } from '@rastro/domain/schemas/instant';
import { emptyFix, type DecodedFix } from '../decoded.ts';
import { FrameError } from '../protocol.ts';
import type { ByteReader } from './byte-reader.ts';
import { CAMERA_TYPE, TELTONIKA_PROTOCOL } from './constants.ts';

const CR = 0x0d;
const LF = 0x0a;

/** ASCII text (line breaks allowed), as Traccar decides between text and hex. */
const isPrintable = (data: Buffer): boolean => data.every((b) => (b >= 0x20 && b < 0x80) || b === CR || b === LF);

/** The field of a `GTSL|…|…|…|<driver id>|…` line that holds the driver's id. */
const GTSL_DRIVER_FIELD = 4;

function messageFix(data: Buffer, deviceTime: number): DecodedFix {
  const fix = emptyFix(TELTONIKA_PROTOCOL, deviceTime);
  fix.outdated = true;
  if (!isPrintable(data)) {
    fix.attributes.result = data.toString('hex');
    return fix;
  }
  const text = data.toString('latin1').trim();
  const driver = text.startsWith('GTSL') ? text.split('|')[GTSL_DRIVER_FIELD] : undefined;
  if (driver) fix.attributes.driverUniqueId = driver;
  else fix.attributes.result = text;
  return fix;
}

/** One codec 12 message (type, 4-byte length, data); null for the camera's photo chunks, which are not stored. */
export function readCodec12Message(reader: ByteReader, now: number): DecodedFix | null {
  const type = reader.u8();
  const data = reader.bytes(reader.u32());
  return type === CAMERA_TYPE ? null : messageFix(data, now);
}

/** One codec 13 message (type, 4-byte length, 4-byte timestamp in seconds, data). */
export function readCodec13Message(reader: ByteReader, now: number): DecodedFix {
  reader.u8(); // type (0x06)
  const length = reader.u32();
  if (length < 4) throw new FrameError(`Teltonika codec 13 message length ${length} has no room for its timestamp`);
  const time = reader.u32() * 1000;
  const data = reader.bytes(length - 4);
  return messageFix(data, isInstantInRange(time) ? time : now);
}
