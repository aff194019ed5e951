import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { maintenanceCrossed, maintenanceEvents, maintenanceValue } from './maintenance.ts';
import { at, T0, track } from './test-helpers.ts';

describe('maintenance', () => {
  it('crossing rule: both values non-zero, new ≥ start, and old < start or a new whole period', () => {
    expect(maintenanceCrossed(900, 1100, 1000, 5000)).toBe(true); // reaches start
    expect(maintenanceCrossed(1100, 5900, 1000, 5000)).toBe(false); // same period
    expect(maintenanceCrossed(5900, 6000, 1000, 5000)).toBe(true); // 1000 + 5000
    expect(maintenanceCrossed(6000, 6100, 1000, 5000)).toBe(false);
    expect(maintenanceCrossed(500, 900, 1000, 5000)).toBe(false); // before start
    expect(maintenanceCrossed(0, 1100, 1000, 5000)).toBe(false); // old 0: no data
    expect(maintenanceCrossed(900, 0, 1000, 5000)).toBe(false);
    expect(maintenanceCrossed(900, 1100, 1000, 0)).toBe(false); // period 0: never
  });

  it('events on a crafted odometer sequence, value attribute named by the type', () => {
    const maintenances = [
      { id: 7, type: 'totalDistance', start: 10_000, period: 10_000 },
      { id: 8, type: 'fixTime', start: T0 + 2500, period: 0 },
      { id: 9, type: 'hours', start: 3_600_000, period: 3_600_000 },
    ];
    const seq = [9_000, 9_900, 10_100, 19_000, 20_000, 31_000].map((totalDistance, i) => at(i, { attributes: { totalDistance } }));
    const events = track<EventDraft>(seq, (out, p, prev) => maintenanceEvents(out, p, prev, maintenances));
    expect(events.map((e) => ({ id: e.maintenanceId, t: (e.eventTime - T0) / 1000, ...e.attributes }))).toEqual([
      { id: 7, t: 2, totalDistance: 10_100 },
      { id: 7, t: 4, totalDistance: 20_000 },
      { id: 7, t: 5, totalDistance: 31_000 },
    ]);
    expect(maintenanceValue(at(3), 'fixTime')).toBe(T0 + 3000);
    expect(maintenanceValue(at(3), 'odometer')).toBe(0);
  });
});
