import type { Migration } from 'kysely';

// 005 belongs to the events engine (apps/server/src/events/). It needs no new schema, and this
// migration records that decision (and keeps the numbering in order for 006 and later):
//  - events are stored in `events` (001: type, eventTime, deviceId, positionId, geofenceId,
//    maintenanceId, attributes; index deviceId + eventTime);
//  - the overspeed episode lives where Traccar keeps it, in the hidden device columns
//    overspeedState / overspeedTime / overspeedGeofenceId (001), written by the position writer
//    in the position's transaction (Work.deviceColumns);
//  - alarm, ignition, fuel, driver and current-geofence state is the device's latest position
//    (positions.attributes, positions.geofenceIds), as in Traccar, restored with it at start.
export const events: Migration = {
  async up() {},
  async down() {},
};
