import { describe, expect, it } from 'vitest';
import type { EventDraft } from '../processing/event-draft.ts';
import { geofenceEvents } from './geofence-events.ts';
import { noCalendars } from './calendars.ts';
import { at, T0, track } from './test-helpers.ts';

const known: Record<number, { calendarId: number }> = { 1: { calendarId: 0 }, 2: { calendarId: 0 }, 3: { calendarId: 99 } };
const lookup = (id: number) => known[id];
const brief = (events: EventDraft[]) => events.map((e) => `${(e.eventTime - T0) / 1000}:${e.type}:${e.geofenceId}`);

describe('geofence enter/exit', () => {
  it('compares the geofenceIds of consecutive positions, exits before enters', () => {
    const seq = [null, [1], [1, 2], [2], null, [1]].map((geofenceIds, i) => at(i, { geofenceIds }));
    const events = track<EventDraft>(seq, (out, p, prev) => geofenceEvents(out, p, prev, lookup, noCalendars));
    expect(brief(events)).toEqual(['1:geofenceEnter:1', '2:geofenceEnter:2', '3:geofenceExit:1', '4:geofenceExit:2', '5:geofenceEnter:1']);
  });

  it('the first position inside enters; a deleted geofence raises nothing', () => {
    const events = track<EventDraft>([at(0, { geofenceIds: [1, 42] }), at(1, { geofenceIds: null })], (out, p, prev) =>
      geofenceEvents(out, p, prev, lookup, noCalendars));
    expect(brief(events)).toEqual(['0:geofenceEnter:1', '1:geofenceExit:1']);
  });

  it('a geofence with a calendar raises only inside it (calendar hook)', () => {
    const seq = [at(0, { geofenceIds: [3] }), at(1, { geofenceIds: null }), at(2, { geofenceIds: [3] })];
    const onlyEven = (_calendarId: number, time: number) => ((time - T0) / 1000) % 2 === 0;
    const events = track<EventDraft>(seq, (out, p, prev) => geofenceEvents(out, p, prev, lookup, onlyEven));
    expect(brief(events)).toEqual(['0:geofenceEnter:3', '2:geofenceEnter:3']);
  });
});
