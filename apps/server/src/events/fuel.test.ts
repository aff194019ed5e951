import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { fuelEvents } from './fuel.ts';
import { at, T0, track } from './test-helpers.ts';

const brief = (events: EventDraft[]) => events.map((e) => ({ type: e.type, t: (e.eventTime - T0) / 1000, ...e.attributes }));

describe('fuel', () => {
  const handler = (drop: number, inc: number) => (out: EventDraft[], p: Parameters<typeof fuelEvents>[1], prev: Parameters<typeof fuelEvents>[2]) =>
    fuelEvents(out, p, prev, drop, inc);

  it('deviceFuelDrop / deviceFuelIncrease at or over the thresholds, with before/after', () => {
    const seq = [50, 45, 44.5, 40, 60, 61].map((fuel, i) => at(i, { attributes: { fuel } }));
    expect(brief(track<EventDraft>(seq, handler(5, 10)))).toEqual([
      { type: 'deviceFuelDrop', t: 1, before: 50, after: 45 },
      { type: 'deviceFuelIncrease', t: 4, before: 40, after: 60 },
    ]);
  });

  it('thresholds 0 are off; positions without fuel compare with nothing', () => {
    const seq = [50, 10, 90].map((fuel, i) => at(i, { attributes: { fuel } }));
    expect(track<EventDraft>(seq, handler(0, 0))).toEqual([]);
    expect(track<EventDraft>([at(0, { attributes: { fuel: 50 } }), at(1), at(2, { attributes: { fuel: 10 } })], handler(5, 5))).toEqual([]);
  });
});
