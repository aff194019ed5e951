// The listener's own limits on a protocol's framing, and how raw frames are shown in the device log.
import { describe, expect, it } from 'vitest';
import { FrameError, type ProtocolDefinition, type ProtocolSession } from '../protocol.ts';
import { nextFrameLength } from './framing.ts';
import { frameData } from './raw-log.ts';

const session: ProtocolSession = { transport: 'tcp', remote: '127.0.0.1:1', uniqueId: null, deviceAttributes: null, state: {} };

/** Frames are a length byte then that many bytes; `answer` overrides what frameLength says. */
function lengthPrefixed(answer?: number): ProtocolDefinition {
  return {
    name: 'lp',
    defaultPort: 0,
    transports: ['tcp'],
    logAs: 'hex',
    maxFrameBytes: 8,
    frameLength: (buffer, offset) => {
      if (answer !== undefined) return answer;
      if (buffer.length - offset < 1) return 0;
      const length = 1 + buffer[offset]!;
      return buffer.length - offset >= length ? length : 0;
    },
    decode: () => ({}),
    encodeCommand: () => null,
  };
}

describe('nextFrameLength', () => {
  it('passes whole frames and waits for partial ones', () => {
    const buffer = Buffer.from([2, 0xaa, 0xbb, 3, 0x01]);
    expect(nextFrameLength(lengthPrefixed(), buffer, 0, session)).toBe(3);
    expect(nextFrameLength(lengthPrefixed(), buffer, 3, session)).toBe(0);
  });

  it('refuses a frame longer than maxFrameBytes, announced or still arriving', () => {
    expect(() => nextFrameLength(lengthPrefixed(20), Buffer.alloc(4), 0, session)).toThrow(FrameError);
    expect(() => nextFrameLength(lengthPrefixed(20), Buffer.alloc(4), 0, session)).toThrow(/over the limit of 8/);
    // 8 bytes waiting and still no frame: the next one can only be longer.
    expect(() => nextFrameLength(lengthPrefixed(), Buffer.from([200, 1, 2, 3, 4, 5, 6, 7]), 0, session)).toThrow(/without a complete frame/);
    expect(nextFrameLength(lengthPrefixed(), Buffer.from([200, 1, 2, 3, 4, 5, 6]), 0, session)).toBe(0);
  });

  it('treats a nonsensical length as garbage and a length past the bytes as "more needed"', () => {
    expect(() => nextFrameLength(lengthPrefixed(-1), Buffer.alloc(2), 0, session)).toThrow(FrameError);
    expect(() => nextFrameLength(lengthPrefixed(1.5), Buffer.alloc(2), 0, session)).toThrow(FrameError);
    expect(nextFrameLength(lengthPrefixed(6), Buffer.alloc(2), 0, session)).toBe(0);
  });
});

describe('frameData', () => {
  it('shows printable text with CR and LF escaped, anything else as hex', () => {
    expect(frameData(Buffer.from('*HQ,123,V1#\r\n'), 'text')).toBe('*HQ,123,V1#\\r\\n');
    expect(frameData(Buffer.from([0x78, 0x78, 0x0d, 0x01]), 'text')).toBe('78780d01');
    expect(frameData(Buffer.from('ABC'), 'hex')).toBe('414243');
  });
});
