// Events are numbered by each server as its processing makes them, so Traccar's event 6 is not
// ours 6. They are paired through what they are: same device, same type, same time (and, among
// several such, the same geofence). An event of one side without such a twin stays unpaired and
// shows as a missing or extra element.
import type { IdMap } from './id-map.ts';

interface EventJson {
  id: number;
  deviceId: number;
  type: string;
  eventTime: string;
  geofenceId?: number;
}

function events(list: unknown): EventJson[] {
  return Array.isArray(list) ? (list as EventJson[]).filter((e) => typeof e?.id === 'number') : [];
}

/** Adds to `ids` the pairs of Traccar's events with ours (both: the same events report). */
export function pairEvents(traccar: unknown, ours: unknown, ids: IdMap): void {
  const mine = events(ours);
  const used = new Set<EventJson>();
  for (const event of events(traccar)) {
    const deviceId = ids.ours('device', event.deviceId);
    const geofenceId = event.geofenceId ? ids.ours('geofence', event.geofenceId) : 0;
    const twins = mine.filter(
      (e) => !used.has(e) && e.deviceId === deviceId && e.type === event.type && Date.parse(e.eventTime) === Date.parse(event.eventTime),
    );
    const twin = twins.find((e) => (e.geofenceId ?? 0) === geofenceId) ?? twins[0];
    if (!twin) continue;
    used.add(twin);
    ids.set('event', event.id, twin.id);
  }
}
