// The event types Traccar 6.14.5 raises (its Event.TYPE_* constants), in the order its
// GET /api/notifications/types lists them. A notification watches one of them; the events
// engine (apps/server/src/events/) raises them. `allEvents` is only a report filter, not a type.

export const EVENT_TYPES = [
  'commandResult',
  'deviceOnline',
  'deviceUnknown',
  'deviceOffline',
  'deviceInactive',
  'queuedCommandSent',
  'deviceMoving',
  'deviceStopped',
  'deviceOverspeed',
  'deviceFuelDrop',
  'deviceFuelIncrease',
  'geofenceEnter',
  'geofenceExit',
  'geofenceCrossed',
  'proximityEnter',
  'proximityExit',
  'unaccompaniedMotion',
  'alarm',
  'ignitionOn',
  'ignitionOff',
  'maintenance',
  'driverChanged',
  'media',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

const KNOWN: ReadonlySet<string> = new Set(EVENT_TYPES);

export function isEventType(value: string): value is EventType {
  return KNOWN.has(value);
}
