// Fuzzing the Suntech framing and decoder (fast-check): random bytes and random `;`-separated
// text, valid text and zip frames with bit flips, truncations, insertions, overwritten bytes
// and damaged fields, zip frames with lying length fields, back to back in one stream.
// Whatever comes in, `frameLength` and `decode` only ever throw FrameError or DecodeError,
// finish quickly, never ask to buffer beyond the frame cap, answer only with a keep-alive's
// own text, and every fix they return passes the domain's ranges and can be stored.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FrameResult, ProtocolSession } from '../protocol.ts';
import { decodeAnything, feed, fieldMutations, mutations } from '../protocol-fuzz.ts';
import { LAYOUT_VECTORS, REFERENCE_VECTORS } from './suntech-vectors.ts';
import { suntechProtocol } from './suntech.ts';

const RUNS = Number(process.env.TEST_FUZZ_RUNS ?? 1500);
const NOW = Date.UTC(2025, 6, 1);
/** A frame takes well under a millisecond; the margin absorbs GC pauses on a busy 2-core machine, a hang would blow it. */
const MAX_MS_PER_INPUT = 1000;

const zip = (hex: string) => Buffer.from(hex, 'hex');
const text = (report: string) => Buffer.from(`${report}\r`, 'latin1');
const TEXT_FRAMES = [...Object.values(REFERENCE_VECTORS).filter((v) => !v.startsWith('02')), ...Object.values(LAYOUT_VECTORS)].map(text);
const FRAMES = [...TEXT_FRAMES, zip(REFERENCE_VECTORS[12])];

const session = (): ProtocolSession => ({ transport: 'tcp', remote: '127.0.0.1:1', uniqueId: null, deviceAttributes: null, state: {} });

function checkAnswer(result: FrameResult): void {
  if (result.ack) expect(result.ack.toString('latin1')).toMatch(/^([A-Za-z0-9]{2,9})?ALV;[0-9A-Za-z]{1,20}\r$/);
}

const run = (bytes: Buffer) => feed(suntechProtocol, bytes, { session, now: NOW, maxMs: MAX_MS_PER_INPUT, checkResult: checkAnswer });

const damaged = fc.tuple(fc.constantFrom(...FRAMES), fc.array(mutations([0x02, 0x03, 0x3b, 0x0d, 0x0a, 0x2b, 0x2d, 0x2e, 0x7c, 0x00, 0xff]), { minLength: 1, maxLength: 4 }))
  .map(([frame, ms]) => ms.reduce<Buffer>((f, m) => m(f), frame));
const damagedFields = fc.tuple(fc.constantFrom(...TEXT_FRAMES), fc.array(fieldMutations(';', '0123456789.-+:|ABCDEFGLRSTUVX'), { minLength: 1, maxLength: 4 }))
  .map(([frame, ms]) => ms.reduce<Buffer>((f, m) => m(f), frame));

describe('Suntech fuzz', () => {
  it('random bytes, alone and behind a zip STX or a report header', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), fc.constantFrom('', '\x02', 'STT;', 'ST300STT;', 'RES;'), (bytes, head) => {
      run(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(bytes)]));
    }), { numRuns: RUNS });
  });

  it('random `;`-separated text reports', () => {
    const field = fc.string({ unit: fc.constantFrom(...'0123456789.+-:|ABCDEFGLSTUX'.split('')), maxLength: 12 });
    const header = fc.constantFrom('STT', 'ALT', 'EMG', 'EVT', 'UEX', 'ALV', 'RES', 'ST300STT', 'SA200ALT', 'ST300UEX', 'ST600STT', 'ST910', 'ST300CMD');
    fc.assert(fc.property(fc.array(fc.tuple(header, fc.array(field, { maxLength: 30 })), { minLength: 1, maxLength: 3 }), (reports) => {
      run(Buffer.from(reports.map(([h, fields]) => `${[h, ...fields].join(';')}\r`).join(''), 'latin1'));
    }), { numRuns: RUNS });
  });

  it('valid frames damaged (bit flips, truncation, insertion, overwrites), back to back', () => {
    fc.assert(fc.property(fc.array(damaged, { minLength: 1, maxLength: 4 }), (frames) => run(Buffer.concat(frames))), { numRuns: RUNS });
  });

  it('valid text reports with fields replaced, emptied or repeated', () => {
    fc.assert(fc.property(fc.array(damagedFields, { minLength: 1, maxLength: 3 }), (frames) => run(Buffer.concat(frames))), { numRuns: RUNS });
  });

  it('zip frames with lying length fields and random bodies', () => {
    fc.assert(fc.property(fc.nat(0xffff), fc.uint8Array({ maxLength: 80 }), fc.boolean(), (length, body, keepEtx) => {
      const frame = Buffer.concat([Buffer.from([0x02, length >> 8, length & 0xff]), Buffer.from(body), Buffer.from(keepEtx ? [0x03] : [])]);
      run(frame);
      const resized = zip(REFERENCE_VECTORS[12]);
      resized.writeUInt16BE(length, 1);
      run(resized);
    }), { numRuns: RUNS });
  });

  it('decode on arbitrary slices stays within FrameError / DecodeError', () => {
    fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), damaged, damagedFields), (bytes) => {
      decodeAnything(suntechProtocol, bytes, session(), NOW);
    }), { numRuns: RUNS });
  });
});
