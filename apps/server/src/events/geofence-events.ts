// geofenceEnter / geofenceExit: compare the geofenceIds of the previous and the current
// position (set by the geofences step from the geofences linked to the device or its groups).
// Exits first, then enters; a geofence no longer known (deleted) raises nothing; a geofence
// with a calendar raises only inside it (calendars.ts hook).
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';
import type { CalendarCheck } from './calendars.ts';
import { positionEvent } from './event.ts';

export interface GeofenceInfo {
  calendarId: number;
}

export function geofenceEvents(
  out: EventDraft[], position: PositionDraft, previous: PositionDraft | null,
  geofence: (id: number) => GeofenceInfo | undefined, inCalendar: CalendarCheck,
): void {
  const now = position.geofenceIds ?? [];
  const before = previous?.geofenceIds ?? [];
  if (now.length === 0 && before.length === 0) return;
  const allowed = (id: number) => {
    const g = geofence(id);
    return g !== undefined && (g.calendarId === 0 || inCalendar(g.calendarId, position.fixTime));
  };
  for (const id of before) {
    if (!now.includes(id) && allowed(id)) out.push(positionEvent('geofenceExit', position, {}, id));
  }
  for (const id of now) {
    if (!before.includes(id) && allowed(id)) out.push(positionEvent('geofenceEnter', position, {}, id));
  }
}

/**
 * A zone crossed between two fixes that neither lies in (geofence-tracker.ts): geofenceEnter
 * then geofenceExit at the current position, so the geofence report pairs them and a
 * notification on either fires. Same gates as above (known geofence, calendar).
 */
export function geofencePassEvents(
  out: EventDraft[], position: PositionDraft, crossed: readonly number[],
  geofence: (id: number) => GeofenceInfo | undefined, inCalendar: CalendarCheck,
): void {
  for (const id of crossed) {
    const g = geofence(id);
    if (!g || (g.calendarId !== 0 && !inCalendar(g.calendarId, position.fixTime))) continue;
    out.push(positionEvent('geofenceEnter', position, {}, id), positionEvent('geofenceExit', position, {}, id));
  }
}
