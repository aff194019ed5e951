import { describe, expect, it } from 'vitest';
import { FrameError } from '../protocol.ts';
import { crcItu } from './crc-itu.ts';
import { ackFrame, buildFrame, frameParts, gt06FrameLength, MAX_FRAME_BYTES } from './framing.ts';
import { hex, OBSERVED, REFERENCE_VECTORS } from './gt06-vectors.ts';

describe('GT06 framing', () => {
  it('CRC-ITU gives the CRC-16/X-25 check value and the CRCs real units send', () => {
    expect(crcItu(Buffer.from('123456789')).toString(16)).toBe('906e');
    for (const { frame, answer } of OBSERVED) {
      for (const bytes of [hex(frame), hex(answer)]) expect(crcItu(bytes, 2, bytes.length - 4)).toBe(bytes.readUInt16BE(bytes.length - 4));
    }
  });

  it('the standard ack: 78 78 05 <type> <serial> <crc> 0D 0A', () => {
    expect(ackFrame(0x01, 1).toString('hex')).toBe('787805010001d9dc0d0a');
    expect(ackFrame(0x13, 0x0033).toString('hex')).toBe('787805130033fb600d0a');
  });

  it('splits a stream: whole frames, frames back to back, the 79 79 form with a 2-byte length', () => {
    const a = hex(REFERENCE_VECTORS[3]);
    const b = hex(REFERENCE_VECTORS[11]);
    const stream = Buffer.concat([a, b]);
    expect(gt06FrameLength(stream, 0)).toBe(a.length);
    expect(gt06FrameLength(stream, a.length)).toBe(b.length);
    const extended = buildFrame(0x94, Buffer.alloc(300, 0x41), 1, true);
    expect(extended.readUInt16BE(2)).toBe(305);
    expect(gt06FrameLength(extended, 0)).toBe(extended.length);
  });

  it('says how long a frame is as soon as its length field is in, 0 before', () => {
    const a = hex(REFERENCE_VECTORS[3]);
    expect(gt06FrameLength(a.subarray(0, 0), 0)).toBe(0);
    expect(gt06FrameLength(a.subarray(0, 1), 0)).toBe(0);
    expect(gt06FrameLength(a.subarray(0, 2), 0)).toBe(0);
    expect(gt06FrameLength(a.subarray(0, 3), 0)).toBe(a.length);
    expect(gt06FrameLength(Buffer.from([0x79, 0x79, 0x01]), 0)).toBe(0);
  });

  it('garbage: a wrong start, mixed start bytes, a length that cannot hold a frame or exceeds the limit', () => {
    expect(() => gt06FrameLength(Buffer.from('GET / HTTP/1.1'), 0)).toThrow(FrameError);
    expect(() => gt06FrameLength(Buffer.from([0x78, 0x79, 0x05]), 0)).toThrow(FrameError);
    expect(() => gt06FrameLength(Buffer.from([0x78, 0x78, 0x04]), 0)).toThrow(FrameError);
    expect(() => gt06FrameLength(Buffer.from([0x79, 0x79, 0xff, 0xff]), 0)).toThrow(/over the limit/);
    expect(() => gt06FrameLength(Buffer.from([0x79, 0x79, (MAX_FRAME_BYTES - 5) >> 8, (MAX_FRAME_BYTES - 5) & 0xff]), 0)).toThrow(FrameError);
    expect(gt06FrameLength(Buffer.from([0x79, 0x79, (MAX_FRAME_BYTES - 6) >> 8, (MAX_FRAME_BYTES - 6) & 0xff]), 0)).toBe(MAX_FRAME_BYTES);
  });

  it('a miscounted length (a status announcing 8 bytes and sending 10) ends at its 0D 0A, as Traccar reads it', () => {
    const real = hex(OBSERVED[2].frame);
    const miscounted = Buffer.from(real);
    miscounted[2] = 0x08;
    const stream = Buffer.concat([miscounted, hex(REFERENCE_VECTORS[3])]);
    expect(gt06FrameLength(stream, 0)).toBe(real.length);
    expect(gt06FrameLength(miscounted.subarray(0, 13), 0)).toBe(0);
  });

  it('frameParts: type, content bounds and serial', () => {
    expect(frameParts(hex(REFERENCE_VECTORS[11]))).toEqual({ extended: false, type: 0x13, start: 4, end: 9, serial: 0x0129 });
    expect(frameParts(buildFrame(0x21, Buffer.alloc(7), 9, true))).toEqual({ extended: true, type: 0x21, start: 5, end: 12, serial: 9 });
    expect(() => frameParts(Buffer.from('787805', 'hex'))).toThrow(FrameError);
  });
});
