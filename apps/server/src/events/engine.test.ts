import { describe, expect, it } from 'vitest';
import { Changes } from '../realtime/changes.ts';
import type { DeviceEntry } from '../processing/device-cache.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import type { Work } from '../processing/work.ts';
import { AttributeLookup } from './attribute-lookup.ts';
import { EventsEngine } from './engine.ts';
import { at } from './test-helpers.ts';

const ctx = { changes: new Changes() } as unknown as ConstructorParameters<typeof EventsEngine>[0];

function engine(config: Record<string, number | boolean> = {}) {
  const lookup = new AttributeLookup(ctx, config);
  lookup.load([], { speedLimit: 50 });
  const e = new EventsEngine(ctx, lookup);
  e.geofences.set({
    geofences: [{ id: 5, area: 'CIRCLE (10 10, 1000)', calendarId: null, attributes: '{"speedLimit":30}' }],
    deviceLinks: [[1, 5]], groupLinks: [], groups: [],
  });
  return e;
}

function entry(row: Partial<DeviceEntry['row']> = {}): DeviceEntry {
  return {
    id: 1, uniqueId: 'x', json: { attributes: {}, groupId: null }, status: 'online', lastUpdate: 0, positionId: null, last: null, lastLoaded: true,
    row: { overspeedState: 0, overspeedTime: null, overspeedGeofenceId: 0, ...row },
  } as unknown as DeviceEntry;
}

/** Runs both steps over positions like the pipeline (previous = last in-order position). */
function run(e: EventsEngine, device: DeviceEntry, positions: PositionDraft[]) {
  const works: Work[] = [];
  let previous: PositionDraft | null = null;
  for (const position of positions) {
    const work: Work = { entry: device, position, previous, latest: previous === null || position.fixTime >= previous.fixTime, events: [], dropped: null, now: position.fixTime };
    e.geofencesStep.run(work);
    e.eventsStep.run(work);
    if (work.latest) previous = position;
    works.push(work);
  }
  return works;
}

describe('events engine', () => {
  it('sets geofenceIds, raises events in Traccar order, overspeed against the geofence limit', () => {
    const e = engine();
    const works = run(e, entry(), [
      at(0, { latitude: 0, longitude: 0, speed: 40, attributes: { ignition: false } }),
      at(10, { latitude: 10, longitude: 10, speed: 40, attributes: { ignition: true, alarm: 'sos', driverUniqueId: 'D1', result: 'done' } }),
    ]);
    expect(works[0]!.events).toEqual([]);
    expect(works[1]!.position.geofenceIds).toEqual([5]);
    expect(works[1]!.events.map((x) => x.type)).toEqual(['commandResult', 'deviceOverspeed', 'geofenceEnter', 'alarm', 'ignitionOn', 'driverChanged']);
    expect(works[1]!.events[1]).toMatchObject({ geofenceId: 5, attributes: { speed: 40, speedLimit: 30 } });
    // episode reported: overspeedTime cleared, written to the device row
    expect(works[1]!.deviceColumns).toEqual({ overspeedState: 1, overspeedTime: null, overspeedGeofenceId: 0 });
    expect(works[0]!.deviceColumns).toBeUndefined();
  });

  it('out-of-order positions raise no event and leave the overspeed state alone', () => {
    const e = engine();
    const works = run(e, entry(), [
      at(100, { speed: 10 }),
      at(50, { speed: 90, attributes: { alarm: 'sos', result: 'late answer', ignition: true } }),
    ]);
    expect(works[1]!.latest).toBe(false);
    expect(works[1]!.events).toEqual([]);
    expect(works[1]!.deviceColumns).toBeUndefined();
  });

  it('restores the overspeed episode from the device row', () => {
    const e = engine();
    const works = run(e, entry({ overspeedState: 1, overspeedTime: null }), [at(0, { speed: 90 }), at(10, { speed: 10 })]);
    expect(works[0]!.events).toEqual([]); // already reported before the restart
    expect(works[1]!.deviceColumns).toEqual({ overspeedState: 0, overspeedTime: null, overspeedGeofenceId: 0 });
  });

  it('minimal duration and multiplier come from the config keys', () => {
    const e = engine({ 'event.overspeed.minimalDuration': 15, 'event.overspeed.thresholdMultiplier': 1.2 });
    const works = run(e, entry(), [at(0, { speed: 59 }), at(10, { speed: 61 }), at(20, { speed: 61 }), at(30, { speed: 61 })]);
    expect(works.map((w) => w.events.length)).toEqual([0, 0, 0, 1]);
  });
});

describe('events engine, geofence segment crossing', () => {
  it('a jump over a linked geofence raises geofenceEnter then geofenceExit; Traccar\'s geofenceCrossed only with event.geofence.segmentCrossing', () => {
    const jump = () => [at(0, { latitude: 9.995, longitude: 9.95 }), at(10, { latitude: 9.995, longitude: 10.05 })];
    expect(run(engine(), entry(), jump())[1]!.events.map((x) => [x.type, x.geofenceId])).toEqual([['geofenceEnter', 5], ['geofenceExit', 5]]);
    const on = run(engine({ 'event.geofence.segmentCrossing': true }), entry(), jump());
    expect(on[1]!.events.map((x) => [x.type, x.geofenceId])).toEqual([['geofenceEnter', 5], ['geofenceExit', 5], ['geofenceCrossed', 5]]);
  });
});
