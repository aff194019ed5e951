import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { speedLimitFor, updateOverspeed, type OverspeedState } from './overspeed.ts';
import { at, T0 } from './test-helpers.ts';
import type { PositionDraft } from '../processing/position-draft.ts';

function run(speeds: number[], limit: number, opts: { multiplier?: number; minimalS?: number; state?: OverspeedState } = {}) {
  const state = opts.state ?? { state: false, time: null, geofenceId: 0 };
  const events: EventDraft[] = [];
  speeds.forEach((speed, i) => {
    const p = at(i * 10, { speed });
    const e = updateOverspeed(state, p, { limit, geofenceId: 0 }, opts.multiplier ?? 1, (opts.minimalS ?? 0) * 1000);
    if (e) events.push(e);
  });
  return { state, events: events.map((e) => ({ t: (e.eventTime - T0) / 1000, ...e.attributes })) };
}

describe('overspeed', () => {
  it('one event per episode, on the first exceeding position without a minimal duration', () => {
    const { events, state } = run([40, 55, 60, 58, 50, 49, 70, 20], 50);
    expect(events).toEqual([{ t: 10, speed: 55, speedLimit: 50 }, { t: 60, speed: 70, speedLimit: 50 }]);
    expect(state).toEqual({ state: false, time: null, geofenceId: 0 });
  });

  it('the excess must last the minimal duration; a short one raises nothing', () => {
    // positions 10 s apart: over at 10, 20 (20 s > 15 s? 10 s only) then back; later over at 50..80
    const { events } = run([40, 60, 60, 40, 40, 60, 60, 60, 60], 50, { minimalS: 15 });
    expect(events).toEqual([{ t: 70, speed: 60, speedLimit: 50 }]);
  });

  it('threshold multiplier; limit 0 disables and keeps the state', () => {
    expect(run([54, 56], 50, { multiplier: 1.1 }).events).toEqual([{ t: 10, speed: 56, speedLimit: 50 }]);
    const state: OverspeedState = { state: true, time: null, geofenceId: 0 };
    expect(run([90, 10], 0, { state }).events).toEqual([]);
    expect(state.state).toBe(true);
  });

  it('a restored state inside a reported episode raises nothing until it ends', () => {
    const state: OverspeedState = { state: true, time: null, geofenceId: 0 };
    expect(run([70, 70, 40, 70], 50, { state }).events).toEqual([{ t: 30, speed: 70, speedLimit: 50 }]);
  });

  it('a restored pending state raises once the duration is reached', () => {
    const state: OverspeedState = { state: true, time: T0 - 20_000, geofenceId: 0 };
    expect(run([70], 50, { state, minimalS: 15 }).events).toEqual([{ t: 0, speed: 70, speedLimit: 50 }]);
  });

  it('limit: geofence speedLimit wins (highest, or lowest when preferred), then the position attribute, then the device', () => {
    const limits: Record<number, number> = { 1: 30, 2: 60, 3: 0 };
    const g = (id: number) => limits[id] ?? 0;
    const p = (over: Partial<PositionDraft>) => at(0, over);
    expect(speedLimitFor(p({}), 50, g, false)).toEqual({ limit: 50, geofenceId: 0 });
    expect(speedLimitFor(p({ attributes: { speedLimit: 40 } }), 50, g, false)).toEqual({ limit: 40, geofenceId: 0 });
    expect(speedLimitFor(p({ geofenceIds: [1, 2, 3], attributes: { speedLimit: 40 } }), 50, g, false)).toEqual({ limit: 60, geofenceId: 2 });
    expect(speedLimitFor(p({ geofenceIds: [1, 2, 3] }), 50, g, true)).toEqual({ limit: 30, geofenceId: 1 });
    expect(speedLimitFor(p({ geofenceIds: [3] }), 50, g, true)).toEqual({ limit: 50, geofenceId: 0 });
  });

  it('the event carries the geofence whose limit started the episode', () => {
    const state: OverspeedState = { state: false, time: null, geofenceId: 0 };
    const e = updateOverspeed(state, at(0, { speed: 70 }), { limit: 60, geofenceId: 2 }, 1, 0);
    expect(e).toMatchObject({ type: 'deviceOverspeed', geofenceId: 2, attributes: { speed: 70, speedLimit: 60 } });
  });
});
