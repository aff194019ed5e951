// One AVL record of codecs 8, 8E and 16: timestamp, priority, GPS element, IO elements.
//
//   codec 8    event id 1 byte,                   counts 1 byte,  IO ids 1 byte
//   codec 8E   event id 2 bytes,                  counts 2 bytes, IO ids 2 bytes, + variable-length group
//   codec 16   event id 2 bytes + generation type, counts 1 byte,  IO ids 2 bytes
//
// A record whose time, coordinates, speed, course or altitude is impossible keeps its IO data
// (an alarm, ignition) and is placed at the device's last position (ingest/fix-in-range.ts,
// the rule every tracker protocol shares); it is still counted in the ack, or the device would
// resend it forever and everything queued behind it would wait.
import { knotsFromKmh } from '@rastro/domain/units';
import { emptyFix, type DecodedFix } from '../decoded.ts';
import { fixInRange } from '../fix-in-range.ts';
import type { ByteReader } from './byte-reader.ts';
import { CODEC_16, CODEC_8E, TELTONIKA_PROTOCOL } from './constants.ts';
import { applyCell, applyIoElement, type IoContext } from './io-elements.ts';
import { applyVariableIoElement } from './variable-io.ts';

const FIXED_SIZES = [1, 2, 4, 8] as const;

export function readAvlRecord(reader: ByteReader, codec: number, now: number): DecodedFix {
  const extended = codec === CODEC_8E;
  const wideIds = extended || codec === CODEC_16;
  const count = () => (extended ? reader.u16() : reader.u8());
  const ioId = () => (wideIds ? reader.u16() : reader.u8());

  const fix = emptyFix(TELTONIKA_PROTOCOL, now);
  fix.deviceTime = fix.fixTime = reader.i64();
  const priority = reader.u8();
  fix.longitude = reader.i32() / 1e7;
  fix.latitude = reader.i32() / 1e7;
  fix.altitude = reader.i16();
  fix.course = reader.u16();
  const satellites = reader.u8();
  fix.speed = knotsFromKmh(reader.u16());
  fix.valid = satellites !== 0;
  // Priority 0 low, 1 high, 2 panic. Kept as Traccar keeps it, not turned into an SOS alarm:
  // "panic" is a sending priority any IO event can be configured with, not a panic button.
  fix.attributes.priority = priority;
  fix.attributes.sat = satellites;
  fix.attributes.event = wideIds ? reader.u16() : reader.u8();
  if (codec === CODEC_16) reader.u8(); // generation type (on exit, on entrance, on change, …)
  count(); // total number of IO elements: the group counts that follow are what is read

  const ctx: IoContext = { fix, cell: {} };
  for (const size of FIXED_SIZES) {
    for (let n = count(); n > 0; n--) {
      const id = ioId();
      applyIoElement(ctx, id, reader.bytes(size));
    }
  }
  if (extended) {
    for (let n = reader.u16(); n > 0; n--) {
      const id = reader.u16();
      applyVariableIoElement(fix.attributes, id, reader.bytes(reader.u16()));
    }
  }
  applyCell(ctx);
  return fixInRange(fix, now);
}
