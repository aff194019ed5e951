// Traccar's ids and ours for the same objects. Both servers number what they create in their
// own way (our administrator is not necessarily 1, our positions and events interleave
// differently), so an id in Traccar's answer is compared with the id we gave the same object.

/** What an id refers to. */
export type IdKind =
  | 'device' | 'group' | 'user' | 'geofence' | 'command' | 'calendar' | 'maintenance' | 'driver'
  | 'notification' | 'attribute' | 'position' | 'event' | 'queuedCommand';

/**
 * Kinds whose ids only exist once the server made them on its own (positions from reports,
 * events from processing, queued commands from a send): an id of such a kind that the map
 * does not know says nothing, so only its shape (a positive integer) is compared. Every other
 * kind is created by the world calls; an id of those the map does not know is one a request
 * named literally (999999) and must come back as it is.
 */
export const OPAQUE_KINDS: ReadonlySet<IdKind> = new Set(['position', 'event', 'queuedCommand']);

/** Fields that hold the id of another object, by name. */
export const REFERENCE_FIELDS: Readonly<Record<string, IdKind>> = {
  deviceId: 'device',
  groupId: 'group',
  userId: 'user',
  geofenceId: 'geofence',
  commandId: 'command',
  calendarId: 'calendar',
  maintenanceId: 'maintenance',
  driverId: 'driver',
  notificationId: 'notification',
  attributeId: 'attribute',
  positionId: 'position',
  startPositionId: 'position',
  endPositionId: 'position',
};

/** Arrays of ids, by field name. */
export const REFERENCE_LIST_FIELDS: Readonly<Record<string, IdKind>> = {
  geofenceIds: 'geofence',
};

/** Arrays of whole objects nested in an answer (the combined report), by field name. */
export const NESTED_LIST_FIELDS: Readonly<Record<string, IdKind>> = {
  events: 'event',
  positions: 'position',
};

export class IdMap {
  private readonly byKind = new Map<IdKind, Map<number, number>>();

  set(kind: IdKind, traccarId: number, ourId: number): void {
    let ids = this.byKind.get(kind);
    if (!ids) this.byKind.set(kind, (ids = new Map()));
    ids.set(traccarId, ourId);
  }

  /** Our id of the object Traccar numbered `traccarId`, when known. */
  ours(kind: IdKind, traccarId: number): number | undefined {
    return this.byKind.get(kind)?.get(traccarId);
  }

  /** Traccar's id of the object we numbered `ourId`, when known. */
  traccars(kind: IdKind, ourId: number): number | undefined {
    for (const [traccarId, mine] of this.byKind.get(kind) ?? []) if (mine === ourId) return traccarId;
    return undefined;
  }
}
