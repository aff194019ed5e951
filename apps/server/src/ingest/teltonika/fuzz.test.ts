// Fuzzing the Teltonika framing and decoder (fast-check): random bytes, valid packets with bit
// flips, truncations, insertions and overwritten bytes (with the CRC and length fixed up
// afterwards, so the mutation reaches the record parser, and without), oversized length fields
// and bad checksums, over TCP and UDP. Whatever comes in, `frameLength` and `decode` only ever
// throw FrameError or DecodeError, finish quickly, never ask to buffer more than the frame cap,
// and every fix they return passes the domain's ranges and can be stored.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { inRange } from '@rastro/domain/schemas/ranges';
import type { FrameResult, ProtocolSession } from '../protocol.ts';
import { FrameError } from '../protocol.ts';
import { decodeAnything, feed as feedFrames, mutations } from '../protocol-fuzz.ts';
import { CODEC_12, CODEC_13, CODEC_16, CODEC_8, CODEC_8E } from './constants.ts';
import { crc16Ibm } from './crc16-ibm.ts';
import {
  avlData, avlRecord, DOCUMENTED_UDP_DATAGRAM, hexBytes, imeiHandshake, REFERENCE_VECTORS, tcpPacket, udpDatagram,
} from './teltonika-packets.ts';
import { teltonikaProtocol } from './teltonika.ts';

const RUNS = Number(process.env.TEST_FUZZ_RUNS ?? 1500);
const NOW = Date.UTC(2025, 6, 1);
/** One frame is at most 8 KiB (well under a millisecond of work); the margin absorbs GC pauses on a busy 2-core machine, a hang would blow it. */
const MAX_MS_PER_INPUT = 2000;

const session = (transport: 'tcp' | 'udp'): ProtocolSession => ({
  transport, remote: '127.0.0.1:1', uniqueId: transport === 'tcp' ? '356307042441013' : null, deviceAttributes: {}, state: {},
});

/** Beyond the shared checks: the ranged attributes Teltonika fills, and acks of the documented sizes. */
function checkTeltonika(result: FrameResult): void {
  for (const fix of result.fixes ?? []) {
    for (const key of ['hdop', 'pdop'] as const) if (fix.attributes[key] !== undefined) expect(inRange('hdop', fix.attributes[key] as number)).toBe(true);
    if (fix.attributes.tripOdometer !== undefined) expect(inRange('odometer', fix.attributes.tripOdometer as number)).toBe(true);
  }
  if (result.ack) expect([1, 4, 7]).toContain(result.ack.length);
}

/** Splits `bytes` as the listener would and decodes every frame, until garbage closes the "connection". */
const feed = (bytes: Buffer, transport: 'tcp' | 'udp') =>
  feedFrames(teltonikaProtocol, bytes, { session: () => session(transport), now: NOW, maxMs: MAX_MS_PER_INPUT, checkResult: checkTeltonika });

// ---- valid material to mutate ----------------------------------------------------------------

const record = (codec: number, i: number) => avlRecord(codec, {
  time: Date.UTC(2025, 0, 1, 0, i), latitude: -23.5 + i / 100, longitude: -46.6, altitude: 700, course: 90, satellites: 9, speedKmh: 60,
  io: [[239, 1, 1], [240, 1, 1], [21, 1, 5], [66, 2, 12_000], [67, 2, 4_100], [182, 2, 9], [16, 4, 1_000_000], [241, 4, 72_410],
    [205, 2, 300], [206, 2, 40], [78, 8, 0x01020304n], [253, 1, 2]],
  variableIo: codec === CODEC_8E ? [[10831, hexBytes('011c0001a40110eb47706aa38255aa96f21a154e2d00550d01000e020bd6')], [256, Buffer.from('VIN123')]] : [],
});
const message = (text: string) => Buffer.concat([Buffer.from([0x06]), Buffer.from([0, 0, 0, text.length]), Buffer.from(text)]);
const codec13 = (text: string) => Buffer.concat([Buffer.from([0x06]), Buffer.from([0, 0, 0, text.length + 4]), Buffer.from([0x64, 0x2b, 0x3a, 0xd1]), Buffer.from(text)]);

const DATA_FIELDS = [
  avlData(CODEC_8, [record(CODEC_8, 0), record(CODEC_8, 1)]),
  avlData(CODEC_8E, [record(CODEC_8E, 0)]),
  avlData(CODEC_16, [record(CODEC_16, 0), record(CODEC_16, 1), record(CODEC_16, 2)]),
  avlData(CODEC_12, [message('Ver:03.27.07 GPS:AXN_5.10 Hw:FMB920')]),
  avlData(CODEC_13, [codec13('GTSL|6|1|0|12749884|1|\r\n')]),
];

const TCP_FRAMES = [
  ...Object.values(REFERENCE_VECTORS).map(hexBytes),
  imeiHandshake('356307042441013'),
  ...DATA_FIELDS.map(tcpPacket),
];
const UDP_FRAMES = [hexBytes(DOCUMENTED_UDP_DATAGRAM), ...DATA_FIELDS.map((d, i) => udpDatagram(i, i + 1, '356307042441013', d))];

/** After a mutation, makes the TCP length field and CRC right again so the parser sees the damage. */
function refit(frame: Buffer): Buffer {
  if (frame.length < 12 || frame.readUInt32BE(0) !== 0) return frame;
  const out = Buffer.from(frame);
  out.writeUInt32BE(out.length - 12, 4);
  out.writeUInt32BE(crc16Ibm(out, 8, out.length - 4), out.length - 4);
  return out;
}

/** Bytes that matter to Teltonika's framing: zero preamble and counts, the keep-alive, small lengths. */
const mutation = mutations([0x00, 0x01, 0x02, 0x04, 0xff, 0x7f, 0x80]);

const mutated = (frames: Buffer[]) => fc.tuple(fc.constantFrom(...frames), fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([frame, mutations, fixUp]) => {
    const out = mutations.reduce((f, m) => m(f), frame);
    return fixUp ? refit(out) : out;
  });

describe('Teltonika fuzz', () => {
  it('random bytes, over TCP and UDP', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), fc.constantFrom('tcp' as const, 'udp' as const), (bytes, transport) => {
      feed(Buffer.from(bytes), transport);
    }), { numRuns: RUNS });
  });

  it('valid TCP packets mutated (bit flips, truncation, insertion, overwrites), CRC refitted or not', () => {
    fc.assert(fc.property(mutated(TCP_FRAMES), fc.boolean(), (frame, afterHandshake) => {
      feed(afterHandshake ? Buffer.concat([imeiHandshake('356307042441013'), frame]) : frame, 'tcp');
    }), { numRuns: RUNS });
  });

  it('valid UDP datagrams mutated', () => {
    fc.assert(fc.property(mutated(UDP_FRAMES), (frame) => feed(frame, 'udp')), { numRuns: RUNS });
  });

  it('oversized or lying length fields and bad checksums are refused, never buffered for', () => {
    fc.assert(fc.property(
      fc.constantFrom(...DATA_FIELDS), fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 1, max: 0xffff }),
      (data, length, wrongCrc) => {
        const packet = tcpPacket(data);
        const lying = Buffer.from(packet);
        lying.writeUInt32BE(length, 4);
        feed(lying, 'tcp');
        const badCrc = Buffer.from(packet);
        badCrc.writeUInt32BE((crc16Ibm(data) ^ wrongCrc) & 0xffff, badCrc.length - 4);
        expect(() => teltonikaProtocol.decode(badCrc, session('tcp'), NOW)).toThrow(FrameError);
        const udp = udpDatagram(1, 1, '356307042441013', data);
        udp.writeUInt16BE(length & 0xffff, 0);
        feed(udp, 'udp');
      },
    ), { numRuns: RUNS });
  });

  it('well-framed packets of random records: any times, coordinates, IO ids and values, BLE tag bytes', () => {
    const ioId = fc.oneof(fc.constantFrom(1, 16, 21, 24, 66, 78, 113, 175, 181, 182, 199, 205, 206, 241, 247, 253, 636), fc.integer({ min: 0, max: 0xffff }));
    const io = fc.tuple(ioId, fc.constantFrom(1 as const, 2 as const, 4 as const, 8 as const), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }))
      .map(([id, size, value]) => [id, size, value & ((1n << BigInt(size * 8)) - 1n)] as const);
    // BLE tags: a header, then tags of (parameter id, length, value) with lengths that may not suit the parameter.
    const parameter = fc.tuple(fc.nat(16), fc.uint8Array({ maxLength: 18 }))
      .map(([id, value]) => Buffer.concat([Buffer.from([id, value.length]), Buffer.from(value)]));
    const tag = fc.array(parameter, { maxLength: 5 }).map((ps) => Buffer.concat(ps)).map((t) => Buffer.concat([Buffer.from([t.length]), t]));
    const tags = fc.tuple(fc.nat(255), fc.array(tag, { maxLength: 3 })).map(([header, ts]) => Buffer.concat([Buffer.from([header]), ...ts]));
    const variable = fc.oneof(
      fc.tuple(fc.constantFrom(548, 10828, 10829, 10831, 11317), tags),
      fc.tuple(
        fc.oneof(fc.constantFrom(256, 281, 325, 548, 10831), fc.integer({ min: 0, max: 0xffff })),
        fc.uint8Array({ maxLength: 48 }).map((b) => Buffer.from(b)),
      ),
    );
    const spec = fc.record({
      time: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(Number),
      priority: fc.nat(255),
      latitude: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((v) => v / 1e7),
      longitude: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((v) => v / 1e7),
      altitude: fc.integer({ min: -32768, max: 32767 }),
      course: fc.nat(0xffff),
      satellites: fc.nat(255),
      speedKmh: fc.nat(0xffff),
      event: fc.nat(255),
      io: fc.array(io, { maxLength: 12 }),
      variableIo: fc.array(variable, { maxLength: 4 }),
    });
    fc.assert(fc.property(fc.constantFrom(CODEC_8, CODEC_8E, CODEC_16), fc.array(spec, { minLength: 1, maxLength: 3 }), (codec, specs) => {
      const records = specs.map((s) => avlRecord(codec, {
        ...s, time: Math.max(-(2 ** 63), Math.min(2 ** 63 - 1025, s.time)),
        io: s.io.map(([id, size, value]) => [codec === CODEC_8 ? id & 0xff : id, size, value] as const),
        variableIo: codec === CODEC_8E ? s.variableIo : [],
      }));
      feed(tcpPacket(avlData(codec, records)), 'tcp');
    }), { numRuns: Math.ceil(RUNS / 2) }); // each input is up to three large records
  });

  it('decode on arbitrary slices (not only what frameLength delimits) stays within FrameError / DecodeError', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), fc.constantFrom('tcp' as const, 'udp' as const), (bytes, transport) => {
      decodeAnything(teltonikaProtocol, Buffer.from(bytes), session(transport), NOW);
    }), { numRuns: RUNS });
  });
});
