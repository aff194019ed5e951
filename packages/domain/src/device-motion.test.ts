import { describe, expect, it } from 'vitest';
import { motionSegments, motionTotals, type MotionPoint } from './device-motion.ts';

const T0 = Date.parse('2026-01-01T10:00:00Z');
const min = (m: number) => T0 + m * 60_000;
const at = (m: number, motion?: boolean | string): MotionPoint => ({ fixTime: new Date(min(m)).toISOString(), attributes: motion === undefined ? {} : { motion } });

describe('motion segments of a window', () => {
  it('unknown before the first position, then a segment per change, the last one up to the end', () => {
    const s = motionSegments([at(30, false), at(40, true), at(50, true), at(70, false)], min(0), min(180));
    expect(s.map((x) => [x.kind, (x.start - T0) / 60_000, (x.end - T0) / 60_000])).toEqual([
      ['none', 0, 30], ['stopped', 30, 40], ['moving', 40, 70], ['stopped', 70, 180],
    ]);
    expect(motionTotals(s)).toEqual({ moving: 30 * 60_000, stopped: 120 * 60_000, none: 30 * 60_000 });
  });
  it('a position before the window gives the state at its start; points after the end are ignored', () => {
    const s = motionSegments([at(200, true), at(-5, 'true'), at(20, false)], min(0), min(180));
    expect(s.map((x) => x.kind)).toEqual(['moving', 'stopped']);
    expect(s[0]!.start).toBe(min(0));
    expect(s[1]!.end).toBe(min(180));
  });
  it('no positions: one unknown segment; an empty window: nothing', () => {
    expect(motionSegments([], min(0), min(180))).toEqual([{ kind: 'none', start: min(0), end: min(180) }]);
    expect(motionSegments([at(1, true)], min(5), min(5))).toEqual([]);
  });
  it('a missing motion attribute counts as stopped; unparsable times are skipped', () => {
    const s = motionSegments([{ fixTime: 'nope', attributes: { motion: true } }, at(0)], min(0), min(10));
    expect(s).toEqual([{ kind: 'stopped', start: min(0), end: min(10) }]);
  });
});
