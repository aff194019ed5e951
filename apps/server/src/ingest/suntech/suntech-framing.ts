// How Suntech bytes split into frames. Text reports end with CR (0x0D); a CR followed by LF is
// a line break inside a report (command answers such as `Preset` list settings on several
// lines), not its end. Zip (binary) reports start with STX 0x02 and a 2-byte length of what
// follows up to their ETX.
import { FrameError } from '../protocol.ts';
import { ZIP_STX } from './suntech-zip.ts';

/** Longest frame: command answers listing every setting are the longest text, a few hundred bytes. */
export const SUNTECH_MAX_FRAME = 4096;

const CR = 0x0d;
const LF = 0x0a;

const isLetter = (b: number) => (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a);

function textLength(buffer: Buffer, offset: number): number {
  let cr = buffer.indexOf(CR, offset);
  // A CR as the last byte read ends the frame: trackers do not split a CR LF pair.
  while (cr >= 0 && buffer[cr + 1] === LF) cr = buffer.indexOf(CR, cr + 1);
  if (cr < 0) {
    if (buffer.length - offset > SUNTECH_MAX_FRAME) throw new FrameError(`Suntech text frame longer than ${SUNTECH_MAX_FRAME} bytes`);
    return 0;
  }
  return cr + 1 - offset;
}

export function suntechFrameLength(buffer: Buffer, offset: number): number {
  const first = buffer[offset];
  if (first === undefined) return 0;
  if (first === ZIP_STX) {
    if (buffer.length - offset < 3) return 0;
    const length = buffer.readUInt16BE(offset + 1) + 4;
    if (length > SUNTECH_MAX_FRAME) throw new FrameError(`Suntech zip frame of ${length} bytes`);
    return buffer.length - offset >= length ? length : 0;
  }
  if (isLetter(first)) return textLength(buffer, offset);
  if (first === CR || first === LF) {
    // Stray line ends between reports: a frame of their own, which decodes to nothing.
    let next = offset;
    while (buffer[next] === CR || buffer[next] === LF) next += 1;
    return next - offset;
  }
  throw new FrameError(`Suntech frame cannot start with byte 0x${first.toString(16).padStart(2, '0')}`);
}
