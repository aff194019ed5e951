import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { driverEvents } from './driver.ts';
import { at, T0, track } from './test-helpers.ts';

const brief = (events: EventDraft[]) => events.map((e) => ({ type: e.type, t: (e.eventTime - T0) / 1000, ...e.attributes }));

describe('driver', () => {
  it('driverChanged on first appearance and on every change, not on repeats', () => {
    const events = track<EventDraft>([
      at(0),
      at(1, { attributes: { driverUniqueId: 'A1' } }),
      at(2, { attributes: { driverUniqueId: 'A1' } }),
      at(3, { attributes: { driverUniqueId: 'B2' } }),
      at(4),
      at(5, { attributes: { driverUniqueId: 'B2' } }),
    ], driverEvents);
    expect(brief(events)).toEqual([
      { type: 'driverChanged', t: 1, driverUniqueId: 'A1' },
      { type: 'driverChanged', t: 3, driverUniqueId: 'B2' },
      { type: 'driverChanged', t: 5, driverUniqueId: 'B2' },
    ]);
  });
});
