// How H02 bytes split into frames. Text frames run from `*` to `#` (some firmwares add CR LF,
// which is kept with the frame it follows). Binary frames start with `$` and carry no length
// and no terminator: their size is fixed by the firmware (32 bytes with a 10-digit id, 42 with
// a 15-digit id, 45/46/48 with extra data). A frame of a known size is recognised when the
// bytes read end exactly there or the next frame starts there; the size is then kept for the
// connection, so a frame split over two reads waits for its remaining bytes.
import { FrameError, type ProtocolSession } from '../protocol.ts';

/** Longest text frame: the cell lists of NBR and V3 reports are the longest, a few hundred bytes. */
export const H02_MAX_FRAME = 1024;

export const BINARY_MARKER = 0x24; // '$'
export const TEXT_MARKER = 0x2a; // '*'
const TEXT_END = 0x23; // '#'
const CR = 0x0d;
const LF = 0x0a;

/** Binary frame sizes seen from H02 firmwares, shortest first. */
export const BINARY_LENGTHS = [32, 42, 45, 46, 48] as const;
const LONGEST_BINARY = BINARY_LENGTHS[BINARY_LENGTHS.length - 1]!;

/** The session-state key under which the binary frame size of a connection is kept. */
const BINARY_LENGTH_KEY = 'h02BinaryLength';

const isLineEnd = (byte: number | undefined) => byte === CR || byte === LF;
const startsFrame = (byte: number | undefined) => byte === TEXT_MARKER || byte === BINARY_MARKER;

function textLength(buffer: Buffer, offset: number): number {
  const end = buffer.indexOf(TEXT_END, offset);
  if (end < 0 || end - offset >= H02_MAX_FRAME) {
    if (buffer.length - offset > H02_MAX_FRAME) throw new FrameError(`H02 text frame longer than ${H02_MAX_FRAME} bytes`);
    return 0;
  }
  let next = end + 1;
  while (isLineEnd(buffer[next])) next += 1;
  return next - offset;
}

function binaryLength(buffer: Buffer, offset: number, session: ProtocolSession): number {
  const available = buffer.length - offset;
  const known = session.state[BINARY_LENGTH_KEY];
  if (typeof known === 'number') return available >= known ? known : 0;
  const length = BINARY_LENGTHS.find((l) => l === available) ?? BINARY_LENGTHS.find((l) => l < available && startsFrame(buffer[offset + l]));
  if (length === undefined) {
    if (available < LONGEST_BINARY) return 0;
    throw new FrameError('H02 binary frame of no known length');
  }
  session.state[BINARY_LENGTH_KEY] = length;
  return length;
}

export function h02FrameLength(buffer: Buffer, offset: number, session: ProtocolSession): number {
  const first = buffer[offset];
  if (first === TEXT_MARKER) return textLength(buffer, offset);
  if (first === BINARY_MARKER) return binaryLength(buffer, offset, session);
  if (isLineEnd(first)) {
    // Line ends left over from a frame whose CR LF arrived in the next read: a frame of their
    // own, which decodes to nothing.
    let next = offset;
    while (isLineEnd(buffer[next])) next += 1;
    return next - offset;
  }
  if (first === undefined) return 0;
  throw new FrameError(`H02 frame cannot start with byte 0x${first.toString(16).padStart(2, '0')}`);
}
