import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { parseArea, type GeofenceArea } from '@rastro/domain/geofence-area';
import { geofenceCrossedEvents, segmentCrossesArea, segmentsIntersect } from './geofence-crossing.ts';
import { noCalendars } from './calendars.ts';
import { at, track } from './test-helpers.ts';

const area = (wkt: string): GeofenceArea => {
  const r = parseArea(wkt);
  if (!r.ok) throw new Error(r.error);
  return r.area;
};

describe('geofence crossing', () => {
  it('segment intersection', () => {
    expect(segmentsIntersect([0, 0], [2, 2], [0, 2], [2, 0])).toBe(true);
    expect(segmentsIntersect([0, 0], [1, 1], [2, 2], [3, 0])).toBe(false);
    expect(segmentsIntersect([0, 0], [2, 0], [1, 0], [1, 1])).toBe(true); // touching
  });

  it('circle, polygon and line against a segment whose ends are outside', () => {
    const circle = area('CIRCLE (10 10, 500)');
    expect(segmentCrossesArea(circle, [9.997, 9.9], [9.997, 10.1], 25)).toBe(true); // ~330 m from the centre
    expect(segmentCrossesArea(circle, [9.99, 9.9], [9.99, 9.95], 25)).toBe(false);
    const square = area('POLYGON ((0 0, 0 1, 1 1, 1 0))');
    expect(segmentCrossesArea(square, [0.5, -1], [0.5, 2], 25)).toBe(true);
    expect(segmentCrossesArea(square, [2, -1], [2, 2], 25)).toBe(false);
    const road = area('LINESTRING (0 0, 0 1)');
    expect(segmentCrossesArea(road, [-0.1, 0.5], [0.1, 0.5], 25)).toBe(true);
    expect(segmentCrossesArea(road, [0.001, 2], [-0.001, 2], 25)).toBe(false);
  });

  it('events only for geofences holding neither end', () => {
    const geofences = [
      { id: 1, area: area('POLYGON ((0 0, 0 1, 1 1, 1 0))'), calendarId: 0, polylineDistance: 25 },
      { id: 2, area: area('CIRCLE (5 5, 100)'), calendarId: 0, polylineDistance: 25 },
    ];
    const seq = [
      at(0, { latitude: 0.5, longitude: -1 }),
      at(1, { latitude: 0.5, longitude: 2 }), // through 1
      at(2, { latitude: 0.5, longitude: 0.5, geofenceIds: [1] }), // enters 1: no crossing
      at(3, { latitude: 5, longitude: 4 }),
    ];
    const events = track<EventDraft>(seq, (out, p, prev) => geofenceCrossedEvents(out, p, prev, geofences, noCalendars));
    expect(events.map((e) => [e.type, e.geofenceId])).toEqual([['geofenceCrossed', 1]]);
  });
});
