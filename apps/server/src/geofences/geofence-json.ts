// Row -> API JSON for geofences. `calendarId` is 0 when there is none, as Traccar sends it.
import type { Geofence } from '@rastro/domain/geofence-area';
import type { Selectable } from 'kysely';
import type { GeofenceTable } from '../storage/schema.ts';
import { parseAttributes } from '../http/json.ts';

export type GeofenceRow = Selectable<GeofenceTable>;

export function geofenceToJson(row: GeofenceRow): Geofence {
  return {
    id: Number(row.id),
    name: row.name,
    description: row.description,
    area: row.area,
    calendarId: row.calendarId === null ? 0 : Number(row.calendarId),
    attributes: parseAttributes(row.attributes, 'geofence.attributes', Number(row.id)),
  };
}
