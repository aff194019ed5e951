import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { ignitionEvents } from './ignition.ts';
import { at, T0, track } from './test-helpers.ts';

const brief = (events: EventDraft[]) => events.map((e) => ({ type: e.type, t: (e.eventTime - T0) / 1000, ...e.attributes }));

describe('ignition', () => {
  it('raises on a change between two positions that both carry it', () => {
    const events = track<EventDraft>([
      at(0, { attributes: { ignition: false } }),
      at(1, { attributes: { ignition: true } }),
      at(2, { attributes: { ignition: true } }),
      at(3, {}), // no ignition: nothing, and the next one has no comparable previous
      at(4, { attributes: { ignition: false } }),
      at(5, { attributes: { ignition: 'true' } }),
      at(6, { attributes: { ignition: false } }),
    ], ignitionEvents);
    expect(brief(events)).toEqual([{ type: 'ignitionOn', t: 1 }, { type: 'ignitionOn', t: 5 }, { type: 'ignitionOff', t: 6 }]);
  });

  it('nothing on the first position', () => {
    expect(track<EventDraft>([at(0, { attributes: { ignition: true } })], ignitionEvents)).toEqual([]);
  });
});
