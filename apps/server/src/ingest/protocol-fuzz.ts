// Test support for fuzzing a ProtocolDefinition (fast-check), used by the protocols' fuzz
// tests: what every decoded fix must satisfy to be stored, a feeder that splits a byte stream
// the way the listener does, and mutations of valid frames (binary and text). Not for
// production code: it asserts with Vitest.
import fc from 'fast-check';
import { expect } from 'vitest';
import { isInstantInRange } from '@rastro/domain/schemas/instant';
import { inRange, type RangeName } from '@rastro/domain/schemas/ranges';
import { textProblem } from '@rastro/domain/schemas/text';
import { DecodeError, type DecodedFix } from './decoded.ts';
import { FrameError, type FrameResult, type ProtocolDefinition, type ProtocolSession } from './protocol.ts';

const ATTRIBUTE_RANGES: Readonly<Record<string, RangeName>> = { batteryLevel: 'battery', odometer: 'odometer', hours: 'hours' };

/** Everything the pipeline and the database need of a fix. */
export function checkFix(fix: DecodedFix): void {
  expect(isInstantInRange(fix.deviceTime) && isInstantInRange(fix.fixTime)).toBe(true);
  if (!fix.outdated) expect(inRange('latitude', fix.latitude) && inRange('longitude', fix.longitude)).toBe(true);
  for (const name of ['speed', 'course', 'altitude', 'accuracy'] as const) expect(inRange(name, fix[name])).toBe(true);
  for (const [key, value] of Object.entries(fix.attributes)) {
    expect(['number', 'string', 'boolean']).toContain(typeof value);
    if (typeof value === 'number') expect(Number.isFinite(value)).toBe(true);
    if (typeof value === 'string') expect(textProblem(value)).toBeNull();
    const range = ATTRIBUTE_RANGES[key];
    if (range) expect(inRange(range, value as number)).toBe(true);
  }
  if (fix.attributes.alarm !== undefined) expect(fix.attributes.alarm).toMatch(/^[a-zA-Z]+(,[a-zA-Z]+)*$/);
  for (const cell of fix.network?.cellTowers ?? []) {
    for (const n of Object.values(cell)) expect(Number.isSafeInteger(n)).toBe(true);
  }
  expect(() => JSON.stringify(fix)).not.toThrow();
}

export interface FeedOptions {
  session: () => ProtocolSession;
  now: number;
  /** Per input; a hang blows it by far. */
  maxMs: number;
  /** Extra checks of each frame's result (acks' shape, …). */
  checkResult?: (result: FrameResult) => void;
}

/** Splits `bytes` as the listener would and decodes every frame, until garbage closes the "connection". */
export function feed(protocol: ProtocolDefinition, bytes: Buffer, options: FeedOptions): void {
  let session = options.session();
  const started = performance.now();
  try {
    for (let offset = 0; offset < bytes.length;) {
      const length = protocol.frameLength(bytes, offset, session);
      expect(Number.isInteger(length) && length >= 0 && length <= protocol.maxFrameBytes).toBe(true);
      if (length === 0 || length > bytes.length - offset) {
        // Waiting for more is fine only while what is buffered is below the cap.
        expect(bytes.length - offset).toBeLessThan(protocol.maxFrameBytes);
        break;
      }
      const result = protocol.decode(bytes.subarray(offset, offset + length), session, options.now);
      if (result.uniqueId && session.uniqueId === null) session = { ...session, uniqueId: result.uniqueId, deviceAttributes: {} };
      for (const fix of result.fixes ?? []) checkFix(fix);
      options.checkResult?.(result);
      offset += length;
    }
  } catch (error) {
    if (!(error instanceof FrameError || error instanceof DecodeError)) throw error;
  }
  expect(performance.now() - started).toBeLessThan(options.maxMs);
}

/** `decode` on an arbitrary slice (not only what frameLength delimits) stays within FrameError / DecodeError. */
export function decodeAnything(protocol: ProtocolDefinition, bytes: Buffer, session: ProtocolSession, now: number): void {
  try {
    for (const fix of protocol.decode(bytes, session, now).fixes ?? []) checkFix(fix);
  } catch (error) {
    if (!(error instanceof FrameError || error instanceof DecodeError)) throw error;
  }
}

export type Mutation = (frame: Buffer) => Buffer;

/**
 * Damage to a valid frame: a bit flipped, a truncation, random bytes inserted, a byte
 * overwritten with one of `special` (the protocol's markers and separators).
 */
export function mutations(special: readonly number[]): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.tuple(fc.nat(), fc.integer({ min: 0, max: 7 })).map(([at, bit]): Mutation => (f) => {
      const out = Buffer.from(f);
      if (out.length > 0) out[at % out.length]! ^= 1 << bit;
      return out;
    }),
    fc.nat().map((at): Mutation => (f) => f.subarray(0, at % (f.length + 1))),
    fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 16 })).map(([at, bytes]): Mutation => (f) => {
      const i = at % (f.length + 1);
      return Buffer.concat([f.subarray(0, i), Buffer.from(bytes), f.subarray(i)]);
    }),
    fc.tuple(fc.nat(), fc.constantFrom(...special)).map(([at, value]): Mutation => (f) => {
      const out = Buffer.from(f);
      if (out.length > 0) out[at % out.length] = value;
      return out;
    }),
  );
}

/**
 * Damage to one field of a text frame split by `separator`: replaced by random text of
 * `alphabet` (digits, signs, points, letters a layout expects), emptied, or repeated.
 */
export function fieldMutations(separator: string, alphabet: string): fc.Arbitrary<Mutation> {
  const chars = fc.constantFrom(...alphabet.split(''));
  return fc.tuple(fc.nat(), fc.oneof(fc.string({ unit: chars, maxLength: 24 }), fc.constant(''), fc.constant(null))).map(([at, value]): Mutation => (f) => {
    const fields = f.toString('latin1').split(separator);
    const i = at % fields.length;
    if (value === null) fields.splice(i, 0, fields[i]!);
    else fields[i] = value;
    return Buffer.from(fields.join(separator), 'latin1');
  });
}
