// Test support for the protocols' vector tests: the checks Traccar's harness makes on a
// decoded position (its vector tables give coordinates to five decimals). Not for production
// code: it asserts with Vitest.
import { expect } from 'vitest';
import type { DecodedFix } from './decoded.ts';
import type { FrameResult } from './protocol.ts';

/** The one fix a frame decoded to. */
export function onlyFix(result: FrameResult): DecodedFix {
  expect(result.fixes).toHaveLength(1);
  const [fix] = result.fixes ?? [];
  if (!fix) throw new Error('no fix');
  return fix;
}

/** Within Traccar's tolerance for coordinates in its vector tables (0.00001°). */
export function expectDegrees(actual: number, expected: number): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(0.00001);
}

/** A located fix at `time` (ISO, UTC, without zone), its validity, coordinates and clock. */
export function expectPosition(fix: DecodedFix, expected: { time: string; valid: boolean; latitude: number; longitude: number; clock?: 'device' }): void {
  expect(fix.outdated).toBe(false);
  expect(new Date(fix.fixTime).toISOString()).toBe(new Date(`${expected.time}Z`).toISOString());
  expect(fix.deviceTime).toBe(fix.fixTime);
  expect(fix.clock).toBe(expected.clock);
  expect(fix.valid).toBe(expected.valid);
  expectDegrees(fix.latitude, expected.latitude);
  expectDegrees(fix.longitude, expected.longitude);
}
