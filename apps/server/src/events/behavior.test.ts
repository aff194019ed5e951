import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { behaviorEvents } from './behavior.ts';
import { at, T0, track } from './test-helpers.ts';

const KN = 3600 / 1852; // knots per m/s

describe('behavior', () => {
  it('hardAcceleration / hardBraking from Δspeed/Δt against the thresholds (m/s²)', () => {
    // speeds in m/s, one position per second: +2, +4 (hard), 0, -5 (hard), -2
    const seq = [0, 2, 6, 6, 1, -1].map((mps, i) => at(i, { speed: Math.max(0, mps) * KN }));
    const events = track<EventDraft>(seq, (out, p, prev) => behaviorEvents(out, p, prev, 3, 4));
    expect(events.map((e) => [(e.eventTime - T0) / 1000, e.type, e.attributes.alarm])).toEqual([
      [2, 'alarm', 'hardAcceleration'],
      [4, 'alarm', 'hardBraking'],
    ]);
  });

  it('off at 0; no event without time between positions', () => {
    const seq = [0, 50].map((kn) => at(0, { speed: kn }));
    expect(track<EventDraft>(seq, (out, p, prev) => behaviorEvents(out, p, prev, 1, 1))).toEqual([]);
    expect(track<EventDraft>([at(0), at(1, { speed: 100 })], (out, p, prev) => behaviorEvents(out, p, prev, 0, 0))).toEqual([]);
  });
});
