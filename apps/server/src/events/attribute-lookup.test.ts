import { describe, expect, it } from 'vitest';
import { AttributeLookup } from './attribute-lookup.ts';
import { envName, parseConfigKeys } from './config-keys.ts';
import { Changes } from '../realtime/changes.ts';

const ctx = { changes: new Changes() } as unknown as ConstructorParameters<typeof AttributeLookup>[0];
const device = (attributes: Record<string, unknown>, groupId: number | null = null) => ({ json: { attributes, groupId } });

describe('attribute lookup', () => {
  const lookup = new AttributeLookup(ctx, { 'event.overspeed.minimalDuration': 30, 'report.trip.minDuration': 60 });
  lookup.load(
    [
      { id: 1, groupId: null, attributes: { speedLimit: 50, deviceInactivityStart: 1000 } },
      { id: 2, groupId: 1, attributes: { fuelDropThreshold: '5' } },
      { id: 3, groupId: 2, attributes: {} },
      { id: 4, groupId: 3, attributes: {} },
    ],
    { speedLimit: 70, fuelIncreaseThreshold: 9, 'report.trip.minDuration': 999 },
  );

  it('device first, then its group chain, then server (SERVER keys), then config, then default', () => {
    expect(lookup.number(device({ speedLimit: 40 }, 2), 'speedLimit')).toBe(40);
    expect(lookup.number(device({}, 2), 'speedLimit')).toBe(50);
    expect(lookup.number(device({}, 2), 'fuelDropThreshold')).toBe(5);
    expect(lookup.number(device({}), 'speedLimit')).toBe(70);
    expect(lookup.number(device({}), 'fuelIncreaseThreshold')).toBe(9);
    // report.trip.* is not a SERVER key: the server attribute is ignored, config applies
    expect(lookup.number(device({}), 'report.trip.minDuration')).toBe(60);
    expect(lookup.number(device({ 'report.trip.minDuration': 10 }), 'report.trip.minDuration')).toBe(10);
    expect(lookup.number(device({}), 'report.trip.minDistance')).toBe(200);
    expect(lookup.number(device({}), 'fuelDropThreshold')).toBe(0);
    expect(lookup.boolean(device({}), 'event.overspeed.preferLowest')).toBe(false);
  });

  it('walks 3 group levels by default, the whole chain on request', () => {
    // device in group 4 -> 3 -> 2 -> 1: group 1 is the 4th level
    expect(lookup.number(device({}, 4), 'deviceInactivityStart')).toBe(0);
    expect(lookup.number(device({}, 4), 'deviceInactivityStart', { groupLevels: Infinity })).toBe(1000);
    expect(lookup.number(device({}, 3), 'deviceInactivityStart')).toBe(1000);
  });

  it('survives a group cycle', () => {
    const l = new AttributeLookup(ctx);
    l.load([{ id: 1, groupId: 2, attributes: {} }, { id: 2, groupId: 1, attributes: {} }], {});
    expect(l.number(device({}, 1), 'x', { groupLevels: Infinity, fallback: 7 })).toBe(7);
  });

  it('config keys: env names and parsing', () => {
    expect(envName('event.overspeed.minimalDuration')).toBe('RASTRO_EVENT_OVERSPEED_MINIMAL_DURATION');
    expect(parseConfigKeys({ RASTRO_EVENT_STATUS_ENABLE: 'true', RASTRO_EVENT_OVERSPEED_THRESHOLD_MULTIPLIER: '1.1' })).toEqual({
      values: { 'event.status.enable': true, 'event.overspeed.thresholdMultiplier': 1.1 },
    });
    expect(parseConfigKeys({ RASTRO_EVENT_STATUS_ENABLE: 'maybe' })).toEqual({ error: expect.stringContaining('RASTRO_EVENT_STATUS_ENABLE') });
    expect(parseConfigKeys({ RASTRO_REPORT_TRIP_MIN_DURATION: '-1' })).toHaveProperty('error');
    expect(lookup.config('event.overspeed.minimalDuration')).toBe(30);
    expect(lookup.config('event.ignoreDuplicateAlerts')).toBe(true);
  });
});
