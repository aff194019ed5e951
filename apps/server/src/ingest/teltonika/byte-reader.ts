// A cursor over one frame: big-endian reads that never go past the end the framing gave. A
// read beyond it means the frame lies about its own layout (a count or length that does not
// fit), which is a FrameError — the listener logs it and closes the connection.
import { FrameError } from '../protocol.ts';

export class ByteReader {
  private offset: number;

  constructor(
    private readonly buffer: Buffer,
    start = 0,
    private readonly end = buffer.length,
  ) {
    this.offset = start;
  }

  get remaining(): number {
    return this.end - this.offset;
  }

  private take(n: number): number {
    if (n > this.end - this.offset) throw new FrameError(`Truncated Teltonika frame: ${n} bytes wanted at offset ${this.offset}, ${this.end - this.offset} left`);
    const at = this.offset;
    this.offset += n;
    return at;
  }

  u8(): number {
    return this.buffer[this.take(1)]!;
  }

  u16(): number {
    return this.buffer.readUInt16BE(this.take(2));
  }

  i16(): number {
    return this.buffer.readInt16BE(this.take(2));
  }

  u32(): number {
    return this.buffer.readUInt32BE(this.take(4));
  }

  i32(): number {
    return this.buffer.readInt32BE(this.take(4));
  }

  /** A 64-bit signed value; beyond ±2^53 it loses precision (only used for epoch ms). */
  i64(): number {
    return Number(this.buffer.readBigInt64BE(this.take(8)));
  }

  /** The next `n` bytes (a view, not a copy). */
  bytes(n: number): Buffer {
    const at = this.take(n);
    return this.buffer.subarray(at, at + n);
  }
}
