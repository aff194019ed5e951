// The data field shared by TCP packets and UDP datagrams: codec id, record count, the
// records, the count again. Codecs 8, 8E and 16 carry positions (acknowledged with the record
// count); 12 and 13 carry device messages (not acknowledged, as the devices expect).
import type { DecodedFix } from '../decoded.ts';
import { FrameError } from '../protocol.ts';
import { readAvlRecord } from './avl-record.ts';
import type { ByteReader } from './byte-reader.ts';
import { CODEC_12, CODEC_13, CODEC_16, CODEC_8, CODEC_8E } from './constants.ts';
import { readCodec12Message, readCodec13Message } from './serial.ts';

export interface AvlData {
  codec: number;
  /** Records the packet announced (what the ack counts). */
  count: number;
  /** The records that could be stored, in order. */
  fixes: DecodedFix[];
  /** Whether the device waits for an ack of this data (positions do, messages do not). */
  acknowledged: boolean;
}

type RecordReader = (reader: ByteReader, codec: number, now: number) => DecodedFix | null;

const RECORD_READERS: ReadonlyMap<number, RecordReader> = new Map<number, RecordReader>([
  [CODEC_8, readAvlRecord],
  [CODEC_8E, readAvlRecord],
  [CODEC_16, readAvlRecord],
  [CODEC_12, (reader, _codec, now) => readCodec12Message(reader, now)],
  [CODEC_13, (reader, _codec, now) => readCodec13Message(reader, now)],
]);

/** Reads the whole data field; anything left over or a second count that differs is a FrameError. */
export function readAvlData(reader: ByteReader, now: number): AvlData {
  const codec = reader.u8();
  const readRecord = RECORD_READERS.get(codec);
  if (!readRecord) throw new FrameError(`Unsupported Teltonika codec 0x${codec.toString(16).padStart(2, '0')}`);
  const count = reader.u8();
  const fixes: DecodedFix[] = [];
  for (let i = 0; i < count; i++) {
    const fix = readRecord(reader, codec, now);
    if (fix) fixes.push(fix);
  }
  const again = reader.u8();
  if (again !== count) throw new FrameError(`Teltonika record counts differ: ${count} then ${again}`);
  if (reader.remaining !== 0) throw new FrameError(`Teltonika data field has ${reader.remaining} bytes after its records`);
  return { codec, count, fixes, acknowledged: codec !== CODEC_12 && codec !== CODEC_13 };
}
