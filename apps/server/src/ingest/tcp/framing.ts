// Splitting received bytes into frames with a protocol's `frameLength`, with the limits the
// listener enforces whatever the protocol says: a frame (or the bytes waiting to become one)
// never exceeds the protocol's `maxFrameBytes`, and a nonsensical length is garbage.
import { FrameError, type ProtocolDefinition, type ProtocolSession } from '../protocol.ts';

/**
 * Length of the complete frame at `buffer[offset]`, or 0 when more bytes are needed. Throws
 * FrameError on garbage, on a frame announced longer than `maxFrameBytes`, and when
 * `maxFrameBytes` bytes are waiting without making a frame.
 */
export function nextFrameLength(protocol: ProtocolDefinition, buffer: Buffer, offset: number, session: ProtocolSession): number {
  const available = buffer.length - offset;
  const length = protocol.frameLength(buffer, offset, session);
  if (length > protocol.maxFrameBytes) {
    throw new FrameError(`${protocol.name} frame of ${length} bytes, over the limit of ${protocol.maxFrameBytes}`);
  }
  if (!Number.isInteger(length) || length < 0) throw new FrameError(`${protocol.name} framing returned ${String(length)}`);
  if (length > 0 && length <= available) return length;
  // Waiting for more: but not beyond what one frame may hold.
  if (available >= protocol.maxFrameBytes) {
    throw new FrameError(`${protocol.name}: ${available} bytes without a complete frame (limit ${protocol.maxFrameBytes})`);
  }
  return 0;
}
