import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { alarmEvents, alarmValues } from './alarm.ts';
import { at, T0, track } from './test-helpers.ts';

const brief = (events: EventDraft[]) => events.map((e) => ({ type: e.type, t: (e.eventTime - T0) / 1000, ...e.attributes }));

describe('alarm', () => {
  it('one event per new value of the comma list; values repeated from the previous position are skipped', () => {
    const handler = (out: EventDraft[], p: Parameters<typeof alarmEvents>[1], prev: Parameters<typeof alarmEvents>[2]) => alarmEvents(out, p, prev, true);
    const events = track<EventDraft>([
      at(0, { attributes: { alarm: 'sos' } }),
      at(1, { attributes: { alarm: 'sos' } }),
      at(2, { attributes: { alarm: 'sos,lowBattery' } }),
      at(3, {}),
      at(4, { attributes: { alarm: 'sos' } }),
      at(5, { attributes: { alarm: ' door , door,,tow' } }),
    ], handler);
    expect(brief(events)).toEqual([
      { type: 'alarm', t: 0, alarm: 'sos' },
      { type: 'alarm', t: 2, alarm: 'lowBattery' },
      { type: 'alarm', t: 4, alarm: 'sos' },
      { type: 'alarm', t: 5, alarm: 'door' },
      { type: 'alarm', t: 5, alarm: 'tow' },
    ]);
  });

  it('with event.ignoreDuplicateAlerts off every value of every position raises', () => {
    const handler = (out: EventDraft[], p: Parameters<typeof alarmEvents>[1], prev: Parameters<typeof alarmEvents>[2]) => alarmEvents(out, p, prev, false);
    expect(track<EventDraft>([at(0, { attributes: { alarm: 'sos' } }), at(1, { attributes: { alarm: 'sos' } })], handler)).toHaveLength(2);
    expect(alarmValues(5)).toEqual([]);
  });
});
