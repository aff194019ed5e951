// Fuzzing the GT06 framing and decoder (fast-check): random bytes, valid frames with bit flips,
// truncations, insertions and overwritten bytes (with the length field and CRC refitted
// afterwards, so the damage reaches the packet parsers, and without), oversized length fields
// and bad checksums, alone and back to back in one stream, before and after a login. Whatever
// comes in, `frameLength` and `decode` only ever throw FrameError or DecodeError, finish
// quickly, never ask to buffer beyond the frame cap, answer only with well-formed frames, and
// every fix they return passes the domain's ranges and can be stored.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FrameResult, ProtocolSession } from '../protocol.ts';
import { decodeAnything, feed, mutations } from '../protocol-fuzz.ts';
import { crcItu } from './crc-itu.ts';
import { buildFrame } from './framing.ts';
import { gt06Protocol } from './gt06.ts';
import {
  alarmPacket, CELL, DYD_REPLY, gpsBlock, hex, IMEI, location22, login, newSession, OBSERVED, REFERENCE_VECTORS, status13,
} from './gt06-vectors.ts';

const RUNS = Number(process.env.TEST_FUZZ_RUNS ?? 2000);
const NOW = Date.UTC(2025, 6, 1);
/**
 * A stream of a few frames takes well under a millisecond; the margin absorbs GC pauses and a
 * starved CPU on a busy 2-core machine (250 ms proved too tight there), a hang would blow it.
 */
const MAX_MS_PER_INPUT = 1000;

/** What we answer is a frame the unit can read: a whole standard frame, or the short Wi-Fi form. */
function checkAnswer({ ack }: FrameResult): void {
  if (!ack) return;
  if (ack[2] === 0) {
    expect(ack).toHaveLength(12);
    return;
  }
  expect(gt06Protocol.frameLength(ack, 0, newSession())).toBe(ack.length);
  expect(crcItu(ack, 2, ack.length - 4)).toBe(ack.readUInt16BE(ack.length - 4));
}

/**
 * Splits `bytes` as the listener would and decodes every frame, until garbage closes the
 * "connection": from a fresh connection (a login identifies it), or on one identified already
 * as a device with `attributes` (its `decoder.timezone` changes how dates read).
 */
const run = (bytes: Buffer, attributes?: Record<string, unknown>) => feed(gt06Protocol, bytes, {
  session: (): ProtocolSession => (attributes ? newSession({ uniqueId: IMEI, deviceAttributes: attributes }) : newSession()),
  now: NOW,
  maxMs: MAX_MS_PER_INPUT,
  checkResult: checkAnswer,
});

// ---- valid material to mutate ----------------------------------------------------------------

const g = { date: [2025, 6, 30, 12, 0, 0] as [number, number, number, number, number, number], latitude: -23.5, longitude: -46.6, kmh: 80, course: 90 };
const text = (type: 0x15 | 0x21, s: string, wide = false) => type === 0x15
  ? buildFrame(0x15, Buffer.concat([Buffer.from([4 + s.length, 0, 0, 0, 0]), Buffer.from(s), Buffer.from([0, 2])]), 3)
  : buildFrame(0x21, Buffer.concat([Buffer.from([0, 0, 0, 0, wide ? 2 : 1]), wide ? Buffer.from(s, 'utf16le').swap16() : Buffer.from(s)]), 3, true);

const FRAMES = [
  ...Object.values(REFERENCE_VECTORS).map(hex),
  ...OBSERVED.map((o) => hex(o.frame)),
  hex(DYD_REPLY),
  login(IMEI, 1, (300 << 4) | 0x08),
  location22(g, 2),
  alarmPacket(0x16, g, 0x87, 0x01, 3),
  alarmPacket(0x26, g, 0x10, 0x13, 4),
  status13(0xc4, 5),
  buildFrame(0x10, gpsBlock(g), 6),
  buildFrame(0x11, Buffer.concat([gpsBlock(g), Buffer.from('02d4000b2a1f0102a3b4', 'hex')]), 7),
  buildFrame(0x12, Buffer.concat([gpsBlock(g), CELL, Buffer.from('0001e240', 'hex')]), 8),
  buildFrame(0x17, Buffer.concat([gpsBlock(g), CELL, Buffer.from('0000001234abcdef01', 'hex')]), 9),
  buildFrame(0x23, Buffer.from('c20190040002', 'hex'), 10),
  buildFrame(0x13, Buffer.from('00000000024b000190000000000080fa', 'hex'), 11),
  buildFrame(0x8a, Buffer.alloc(0), 12),
  text(0x15, 'Current position!Lat:S23.550520,Lon:W46.633308,Course:90.00,Speed:36.00,DateTime:2025-07-01 11:58:00'),
  text(0x21, 'RELAY=Success!', true),
  buildFrame(0x94, Buffer.from('0004b0', 'hex'), 13, true),
  buildFrame(0x94, Buffer.concat([Buffer.from([0x0a]), hex('0864717003283581072405012345678989550534200012345fff')]), 14, true),
  buildFrame(0x94, Buffer.concat([Buffer.from([0x04]), Buffer.from('ALM1=C4;DYD=01;')]), 15, true),
];

/** After a mutation, makes the length field, CRC and stop bytes right again so the parsers see the damage. */
function refit(frame: Buffer): Buffer {
  const extended = frame[0] === 0x79;
  const header = extended ? 4 : 3;
  if (frame.length < header + 7 || frame[0] !== frame[1] || (frame[0] !== 0x78 && frame[0] !== 0x79)) return frame;
  const body = frame.subarray(header, frame.length - 4); // type … serial
  if (!extended && body.length + 2 > 0xff) return frame;
  return buildFrame(body[0]!, body.subarray(1, body.length - 2), body.readUInt16BE(body.length - 2), extended);
}

/** The bytes that matter to GT06 framing, for overwrites. */
const FRAMING_BYTES = [0x00, 0x01, 0x0d, 0x0a, 0x78, 0x79, 0xff, 0x7f, 0x80];

/** A valid frame damaged by one to four mutations, then half of the time refitted. */
const mutated = fc.tuple(fc.constantFrom(...FRAMES), fc.array(mutations(FRAMING_BYTES), { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([frame, damage, fixUp]) => {
    const out = damage.reduce<Buffer>((f, m) => m(f), frame);
    return fixUp ? refit(out) : out;
  });

/** A fresh connection, or one identified as a device with or without its own time zone. */
const attributes = fc.constantFrom<Record<string, unknown> | undefined>(undefined, {}, { 'decoder.timezone': 'America/Sao_Paulo' });

describe('GT06 fuzz', () => {
  it('random bytes, and random bytes behind a GT06 start', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), fc.constantFrom(null, 0x78, 0x79), (bytes, start) => {
      const head = start === null ? [] : [start, start];
      run(Buffer.concat([Buffer.from(head), Buffer.from(bytes)]));
    }), { numRuns: RUNS });
  });

  it('valid frames mutated (bit flips, truncation, insertion, overwrites), length and CRC refitted or not, after a login', () => {
    fc.assert(fc.property(fc.array(mutated, { minLength: 1, maxLength: 4 }), fc.boolean(), attributes, (frames, afterLogin, attrs) => {
      run(Buffer.concat([...(afterLogin ? [login(IMEI, 1, 800 << 4)] : []), ...frames]), attrs);
    }), { numRuns: RUNS });
  });

  it('well-framed packets of random content for every type we read, both forms', () => {
    const types = fc.oneof(fc.constantFrom(0x01, 0x10, 0x11, 0x12, 0x13, 0x15, 0x16, 0x17, 0x21, 0x22, 0x23, 0x26, 0x69, 0x8a, 0x94, 0xa0), fc.nat(255));
    fc.assert(fc.property(types, fc.uint8Array({ maxLength: 120 }), fc.nat(0xffff), fc.boolean(), attributes, (type, content, serial, extended, attrs) => {
      run(Buffer.concat([login(IMEI, 1, 530 << 4), buildFrame(type, content, serial, extended)]), attrs);
    }), { numRuns: RUNS });
  });

  it('oversized or lying length fields and bad checksums', () => {
    fc.assert(fc.property(fc.constantFrom(...FRAMES), fc.nat(0xffff), fc.integer({ min: 1, max: 0xffff }), (frame, length, wrongCrc) => {
      const lying = Buffer.from(frame);
      if (lying[0] === 0x79) lying.writeUInt16BE(length, 2);
      else lying[2] = length & 0xff;
      run(Buffer.concat([login(IMEI), lying]));
      const badCrc = Buffer.from(frame);
      badCrc.writeUInt16BE(badCrc.readUInt16BE(badCrc.length - 4) ^ wrongCrc, badCrc.length - 4);
      run(Buffer.concat([login(IMEI), badCrc]));
    }), { numRuns: RUNS });
  });

  it('decode on arbitrary slices (not only what frameLength delimits) stays within FrameError / DecodeError', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (bytes, identified) => {
      decodeAnything(gt06Protocol, Buffer.from(bytes), identified ? newSession({ uniqueId: IMEI, deviceAttributes: {} }) : newSession(), NOW);
    }), { numRuns: RUNS });
  });
});
