// Fuzzing the H02 framing and decoder (fast-check): random bytes and random text behind the
// `*` and `$` markers, valid frames with bit flips, truncations, insertions, overwritten bytes
// and damaged fields, back to back in one stream, over TCP and UDP sessions. Whatever comes
// in, `frameLength` and `decode` only ever throw FrameError or DecodeError, finish quickly,
// never ask to buffer beyond the frame cap, answer only with well-formed `*HQ,…#` text, and
// every fix they return passes the domain's ranges and can be stored.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FrameResult, ProtocolSession } from '../protocol.ts';
import { decodeAnything, feed, fieldMutations, mutations } from '../protocol-fuzz.ts';
import { h02Protocol } from './h02.ts';
import { LAYOUT_VECTORS, REFERENCE_VECTORS, binaryFrame, textFrame } from './h02-vectors.ts';

const RUNS = Number(process.env.TEST_FUZZ_RUNS ?? 1500);
const NOW = Date.UTC(2025, 6, 1);
/** A frame takes well under a millisecond; the margin absorbs GC pauses on a busy 2-core machine, a hang would blow it. */
const MAX_MS_PER_INPUT = 1000;

const FRAMES = [...Object.values(REFERENCE_VECTORS), ...Object.values(LAYOUT_VECTORS)].map((v) => (/^[0-9a-fA-F]+$/.test(v) ? binaryFrame(v) : textFrame(v)));
const TEXT_FRAMES = FRAMES.filter((f) => f[0] === 0x2a);

const sessionFor = (transport: 'tcp' | 'udp') => (): ProtocolSession => ({ transport, remote: '127.0.0.1:1', uniqueId: null, deviceAttributes: null, state: {} });

function checkAnswer(result: FrameResult): void {
  if (result.ack) expect(result.ack.toString('latin1')).toMatch(/^\*HQ,[0-9A-Za-z]{1,20},[A-Z0-9]+(,[A-Z0-9]+)*#$/);
}

const run = (bytes: Buffer, transport: 'tcp' | 'udp') =>
  feed(h02Protocol, bytes, { session: sessionFor(transport), now: NOW, maxMs: MAX_MS_PER_INPUT, checkResult: checkAnswer });

const transport = fc.constantFrom<'tcp' | 'udp'>('tcp', 'udp');
const damaged = fc.tuple(fc.constantFrom(...FRAMES), fc.array(mutations([0x2a, 0x24, 0x23, 0x2c, 0x0d, 0x0a, 0x2d, 0x2e, 0x41, 0x56]), { minLength: 1, maxLength: 4 }))
  .map(([frame, ms]) => ms.reduce<Buffer>((f, m) => m(f), frame));
const damagedFields = fc.tuple(fc.constantFrom(...TEXT_FRAMES), fc.array(fieldMutations(',', '0123456789.-+ ABCDEFNSWVXYhq#*'), { minLength: 1, maxLength: 4 }))
  .map(([frame, ms]) => ms.reduce<Buffer>((f, m) => m(f), frame));

describe('H02 fuzz', () => {
  it('random bytes, alone and behind a `*` or `$` marker', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), fc.constantFrom(null, 0x2a, 0x24), transport, (bytes, marker, t) => {
      run(Buffer.concat([Buffer.from(marker === null ? [] : [marker]), Buffer.from(bytes)]), t);
    }), { numRuns: RUNS });
  });

  it('random text of H02 characters between `*` and `#`', () => {
    const body = fc.string({ unit: fc.constantFrom(...'0123456789,.-ABCDEFHNQSTVW'.split('')), maxLength: 200 });
    fc.assert(fc.property(fc.array(body, { minLength: 1, maxLength: 3 }), transport, (bodies, t) => {
      run(Buffer.from(bodies.map((b) => `*${b}#`).join(''), 'latin1'), t);
    }), { numRuns: RUNS });
  });

  it('valid frames damaged (bit flips, truncation, insertion, overwrites), back to back', () => {
    fc.assert(fc.property(fc.array(damaged, { minLength: 1, maxLength: 4 }), transport, (frames, t) => run(Buffer.concat(frames), t)), { numRuns: RUNS });
  });

  it('valid text frames with fields replaced, emptied or repeated', () => {
    fc.assert(fc.property(fc.array(damagedFields, { minLength: 1, maxLength: 3 }), transport, (frames, t) => run(Buffer.concat(frames), t)), { numRuns: RUNS });
  });

  it('decode on arbitrary slices stays within FrameError / DecodeError', () => {
    fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)), damaged, damagedFields), (bytes) => {
      decodeAnything(h02Protocol, bytes, sessionFor('tcp')(), NOW);
    }), { numRuns: RUNS });
  });
});
