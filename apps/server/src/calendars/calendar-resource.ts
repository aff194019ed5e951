// /api/calendars as a resource (resources/resource-routes.ts): name, `data` (iCalendar text,
// base64 in JSON, stored decoded) and attributes. Only users link to calendars; devices,
// geofences and notifications name one in their `calendarId`, which deleting the calendar
// clears (Traccar's foreign keys set it null). This is the stored object: checking whether a
// moment lies inside a calendar is the calendar engine's work (events/calendars.ts hook).
import type { Calendar } from '@rastro/domain/entities';
import { encodeCalendarData } from '@rastro/domain/icalendar';
import { CALENDAR_WRITABLE_FIELDS, calendarSchema, calendarUpdateSchema } from '@rastro/domain/schemas/calendar';
import type { Change } from '../realtime/changes.ts';
import { parseAttributes } from '../http/json.ts';
import { parseUpdate, parseWith } from '../http/validate.ts';
import type { ResourceDefinition, ResourceRow } from '../resources/resource.ts';

export function calendarToJson(row: ResourceRow<'calendars'>): Calendar {
  const id = Number(row.id);
  return { id, name: row.name, data: encodeCalendarData(row.data), attributes: parseAttributes(row.attributes, 'calendar.attributes', id) };
}

export const calendarResource: ResourceDefinition<'calendars'> = {
  table: 'calendars',
  label: 'calendar',
  path: '/api/calendars',
  key: 'calendarId',
  kind: 'calendar',
  links: { user: 'userCalendar' },
  columns: ['name', 'data'],
  hasAttributes: true,
  orderBy: 'name',
  search: ['name'],
  simpleList: true,
  toJson: calendarToJson,
  fromCreate(body) {
    const b = parseWith(calendarSchema, body);
    return { name: b.name, data: b.data, attributes: JSON.stringify(b.attributes ?? {}) };
  },
  fromUpdate(body, current) {
    const b = parseUpdate(calendarUpdateSchema, body, CALENDAR_WRITABLE_FIELDS);
    return {
      name: b.name ?? current.name,
      data: b.data ?? current.data,
      attributes: b.attributes !== undefined ? JSON.stringify(b.attributes) : current.attributes,
    };
  },
  // What named the calendar now names none; each changed object is published so the device
  // cache, the geofence cache and the sockets ({devices}) follow.
  async beforeDelete(trx, id) {
    const devices = await trx.updateTable('devices').set({ calendarId: null }).where('calendarId', '=', id).returning('id').execute();
    const geofences = await trx.updateTable('geofences').set({ calendarId: null }).where('calendarId', '=', id).returning('id').execute();
    const notifications = await trx.updateTable('notifications').set({ calendarId: null }).where('calendarId', '=', id).returning('id').execute();
    return [
      ...devices.map((r): Change => ({ kind: 'device', id: Number(r.id) })),
      ...geofences.map((r): Change => ({ kind: 'geofence', id: Number(r.id) })),
      ...notifications.map((r): Change => ({ kind: 'notification', id: Number(r.id) })),
    ];
  },
};
