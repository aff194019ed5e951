// Unit tests of the simple handlers on crafted position sequences.
import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { alarmEvents, alarmValues } from './alarm.ts';
import { commandResultEvent } from './command-result.ts';
import { driverEvents } from './driver.ts';
import { fuelEvents } from './fuel.ts';
import { ignitionEvents } from './ignition.ts';
import { statusEvent } from './status-events.ts';
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

describe('commandResult', () => {
  it('a position with a result attribute', () => {
    const out: EventDraft[] = [];
    commandResultEvent(out, at(0));
    commandResultEvent(out, at(1, { attributes: { result: 'OK relay 1' } }));
    commandResultEvent(out, at(2, { attributes: { result: '' } }));
    expect(brief(out)).toEqual([{ type: 'commandResult', t: 1, result: 'OK relay 1' }]);
  });
});

describe('status events', () => {
  it('one per change; null counts as offline', () => {
    expect(statusEvent(null, 'online', T0)).toMatchObject({ type: 'deviceOnline', eventTime: T0, geofenceId: 0 });
    expect(statusEvent('online', 'unknown', T0)?.type).toBe('deviceUnknown');
    expect(statusEvent('online', 'offline', T0)?.type).toBe('deviceOffline');
    expect(statusEvent(null, 'offline', T0)).toBeNull();
    expect(statusEvent('online', 'online', T0)).toBeNull();
  });
});
