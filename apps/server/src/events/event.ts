// Shared helpers of the event handlers: building an EventDraft, reading typed attributes.
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionDraft } from '../processing/position-draft.ts';

/** A new event (not stored yet). */
export function newEvent(type: string, eventTime: number, attributes: Record<string, unknown> = {}, geofenceId = 0, maintenanceId = 0): EventDraft {
  return { type, eventTime, geofenceId, maintenanceId, attributes, id: null };
}

/** A position event: Traccar dates it with the position's deviceTime (reference A.3 Event). */
export function positionEvent(type: string, position: PositionDraft, attributes: Record<string, unknown> = {}, geofenceId = 0, maintenanceId = 0): EventDraft {
  return newEvent(type, position.deviceTime, attributes, geofenceId, maintenanceId);
}

export { asBoolean, asNumber } from './attribute-lookup.ts';
