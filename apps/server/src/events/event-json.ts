// Row -> API JSON for events (GET /api/events/{id}, the events report, live pushes share it).
import type { Event } from '@rastro/domain/entities';
import type { Selectable } from 'kysely';
import type { EventTable } from '../storage/schema.ts';
import { parseAttributes, toIso } from '../http/json.ts';

export type EventRow = Selectable<EventTable>;

export function eventToJson(row: EventRow): Event {
  return {
    id: Number(row.id),
    type: row.type,
    // An event time no date can hold (a corrupt row) is shown as absent, like every stored instant.
    eventTime: toIso(Number(row.eventTime)),
    deviceId: Number(row.deviceId),
    positionId: Number(row.positionId),
    geofenceId: Number(row.geofenceId),
    maintenanceId: Number(row.maintenanceId),
    attributes: parseAttributes(row.attributes),
  };
}
