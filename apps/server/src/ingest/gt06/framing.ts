// GT06 framing: `78 78 <len> <type> <content> <serial:2> <crc:2> 0D 0A`, or the extended form
// `79 79 <len:2> …` for long packets. The length counts type..CRC; the CRC-ITU covers the
// length field(s) up to the serial. Both directions use the same layout (our acks and commands
// included), so building a frame lives here too.
import { FrameError } from '../protocol.ts';
import { crcItu } from './crc-itu.ts';

/**
 * The largest frame we take. A basic frame is at most 260 bytes; the extended ones units send
 * (information packets, command replies in UTF-16, 1 KiB photo chunks) stay well below this.
 */
export const MAX_FRAME_BYTES = 2048;

/** Type, serial and CRC: the least a length field may count. */
const MIN_DECLARED = 5;

const isStop = (buffer: Buffer, at: number) => buffer[at] === 0x0d && buffer[at + 1] === 0x0a;

/**
 * Length of the frame at `buffer[offset]`: the declared one (possibly more than is buffered yet:
 * the listener waits for the rest), 0 while even the length field is incomplete. Some clones
 * miscount the length byte (status packets announcing 8 bytes and sending 10, for one); when the
 * declared end is not `0D 0A` the frame ends at the first `0D 0A` instead, as Traccar reads
 * them — 0 until one arrives.
 */
export function gt06FrameLength(buffer: Buffer, offset: number): number {
  const available = buffer.length - offset;
  if (available <= 0) return 0;
  const head = buffer[offset]!;
  if (head !== 0x78 && head !== 0x79) throw new FrameError(`Not a GT06 frame: starts with 0x${head.toString(16).padStart(2, '0')}`);
  if (available < 2) return 0;
  if (buffer[offset + 1] !== head) throw new FrameError('Not a GT06 frame: the start bytes differ');
  const extended = head === 0x79;
  const headerBytes = extended ? 4 : 3;
  if (available < headerBytes) return 0;
  const declared = extended ? buffer.readUInt16BE(offset + 2) : buffer[offset + 2]!;
  if (declared < MIN_DECLARED) throw new FrameError(`GT06 frame length ${declared} cannot hold a type, serial and CRC`);
  const total = headerBytes + declared + 2;
  if (total > MAX_FRAME_BYTES) throw new FrameError(`GT06 frame of ${total} bytes, over the limit of ${MAX_FRAME_BYTES}`);
  if (available < total) return total;
  if (isStop(buffer, offset + total - 2)) return total;
  const end = Math.min(buffer.length, offset + MAX_FRAME_BYTES);
  for (let at = offset + headerBytes + MIN_DECLARED; at + 1 < end; at++) {
    if (isStop(buffer, at)) return at + 2 - offset;
  }
  return 0;
}

/** Where the parts of one whole frame lie. */
export interface Gt06Frame {
  extended: boolean;
  type: number;
  /** Content: from the byte after the type up to the serial (exclusive). */
  start: number;
  end: number;
  serial: number;
}

/** Splits a whole frame (as `gt06FrameLength` delimited it) into its parts. */
export function frameParts(frame: Buffer): Gt06Frame {
  const extended = frame[0] === 0x79;
  const typeAt = extended ? 4 : 3;
  // Start bytes, length, type, serial, CRC and stop bytes.
  if (frame.length < typeAt + 7 || frame[0] !== frame[1] || (frame[0] !== 0x78 && frame[0] !== 0x79)) {
    throw new FrameError(`Not a whole GT06 frame (${frame.length} bytes)`);
  }
  return { extended, type: frame[typeAt]!, start: typeAt + 1, end: frame.length - 6, serial: frame.readUInt16BE(frame.length - 6) };
}

/** A frame of `type` carrying `content` and `serial`, with its CRC: what the server sends. */
export function buildFrame(type: number, content: Uint8Array, serial: number, extended = false): Buffer {
  const headerBytes = extended ? 4 : 3;
  const declared = 1 + content.length + 4;
  const out = Buffer.alloc(headerBytes + declared + 2);
  out[0] = out[1] = extended ? 0x79 : 0x78;
  if (extended) out.writeUInt16BE(declared, 2);
  else out[2] = declared;
  out[headerBytes] = type;
  out.set(content, headerBytes + 1);
  let at = headerBytes + 1 + content.length;
  out.writeUInt16BE(serial & 0xffff, at);
  at += 2;
  out.writeUInt16BE(crcItu(out, 2, at), at);
  out[at + 2] = 0x0d;
  out[at + 3] = 0x0a;
  return out;
}

/** The standard answer `78 78 05 <type> <serial> <crc> 0D 0A`. */
export const ackFrame = (type: number, serial: number): Buffer => buildFrame(type, new Uint8Array(0), serial);
