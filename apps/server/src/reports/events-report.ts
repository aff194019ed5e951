// GET /api/reports/events: the events of each device in the period by eventTime, filtered by
// `type` and `alarm` (repeatable or comma-separated), events of geofences the caller cannot see
// left out (reference A.4, OpenAPI Event).
import { many } from '../access/list-params.ts';
import { parseAttributes } from '../http/json.ts';
import { eventToJson } from '../events/event-json.ts';
import type { ReportKind } from './report-kind.ts';
import { eventChunks, geofenceNames, visibleGeofenceIds, type EventRow } from './reports-repo.ts';

/** Values of a repeatable parameter that may also be comma-separated (`type=a&type=b` or `type=a,b`). */
function listParam(query: Record<string, string | string[] | undefined>, name: string): string[] {
  return many(query, name).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

/** `type` absent, `allEvents` or `%` → every type. */
export function eventTypesFilter(types: string[]): Set<string> | null {
  if (types.length === 0 || types.some((t) => t === 'allEvents' || t === '%')) return null;
  return new Set(types);
}

/** An event with the name of its geofence (for the spreadsheet). */
export type EventItem = EventRow & { geofenceName?: string };

export const eventsReport: ReportKind<EventItem> = {
  name: 'events',
  async open(request) {
    const db = request.ctx.storage.db;
    const types = eventTypesFilter(listParam(request.query, 'type'));
    const alarmList = listParam(request.query, 'alarm');
    const alarms = alarmList.length > 0 ? new Set(alarmList) : null;
    // Events about a geofence the caller cannot see are dropped (administrators see all).
    const geofences = request.user.administrator === 1 ? null : await visibleGeofenceIds(db, request.user.id);
    const names = new Map<number, string>();
    return async function* (device) {
      for await (const chunk of eventChunks(db, device.id, request.from, request.to, types)) {
        const kept = chunk.filter((e) => {
          if (geofences && e.geofenceId !== 0 && !geofences.has(e.geofenceId)) return false;
          return !(alarms && e.type === 'alarm' && !alarms.has(String(parseAttributes(e.attributes).alarm)));
        });
        const unknown = [...new Set(kept.map((e) => e.geofenceId).filter((id) => id !== 0 && !names.has(id)))];
        if (unknown.length > 0) for (const g of await geofenceNames(db, unknown)) names.set(g.id, g.name);
        for (const e of kept) yield e.geofenceId !== 0 ? { ...e, geofenceName: names.get(e.geofenceId) ?? String(e.geofenceId) } : e;
      }
    };
  },
  toJson: eventToJson,
  sheet: {
    title: 'reportEvents',
    perDevice: true,
    columns: [
      { header: 'time', kind: 'time', value: (e, f) => f.time(e.eventTime) },
      { header: 'eventType', kind: 'text', value: (e, f) => f.eventType(e.type) },
      {
        header: 'alarm', kind: 'text',
        value: (e) => {
          const alarm = parseAttributes(e.attributes).alarm;
          return typeof alarm === 'string' ? alarm : null;
        },
      },
      { header: 'geofence', kind: 'text', value: (e) => e.geofenceName ?? null },
    ],
  },
};
