// The writable fields of a device body, read with the domain's device schema. status,
// lastUpdate and positionId are managed by the server (the ingest pipeline) and ignored here,
// as Traccar ignores them in generic writes.
import type { Insertable, Updateable } from 'kysely';
import { DEVICE_WRITABLE_FIELDS, deviceSchema, deviceUpdateSchema, type DeviceUpdate } from '@rastro/domain/schemas/device';
import type { DeviceTable } from '../storage/schema.ts';
import { badRequest } from '../http/errors.ts';
import { fromBool } from '../http/json.ts';
import { parseUpdate, parseWith } from '../http/validate.ts';
import { isDeletedUniqueId } from '../access/visibility.ts';

function assertLiveUniqueId(uniqueId: string | undefined): void {
  // Lazily deleted devices are recognised by this form; a live device must never take it.
  if (uniqueId !== undefined && isDeletedUniqueId(uniqueId)) {
    throw badRequest('Invalid unique identifier - the form deleted-x-y is reserved for deleted devices');
  }
}

/** A new device: name and uniqueId are required. */
export function newDeviceValues(raw: unknown): Insertable<DeviceTable> {
  const body = parseWith(deviceSchema, raw);
  assertLiveUniqueId(body.uniqueId);
  return {
    name: body.name,
    uniqueId: body.uniqueId,
    status: null,
    disabled: fromBool(body.disabled),
    lastUpdate: null,
    positionId: null,
    groupId: body.groupId ?? null,
    calendarId: body.calendarId ?? null,
    phone: body.phone ?? null,
    model: body.model ?? null,
    contact: body.contact ?? null,
    category: body.category ?? null,
    expirationTime: body.expirationTime ?? null,
    attributes: JSON.stringify(body.attributes ?? {}),
    // Processing state starts empty.
    motionState: 0, motionStreak: 0, motionPositionId: null, motionTime: null, motionDistance: 0,
    motionLatitude: 0, motionLongitude: 0, overspeedState: 0, overspeedTime: null, overspeedGeofenceId: 0,
  };
}

/**
 * Changes to an existing device. Traccar's PUT carries the whole object; fields a client
 * leaves out keep their stored value instead of being wiped. A body with no writable field
 * is refused (400).
 */
export function deviceChanges(raw: unknown): Updateable<DeviceTable> {
  const body: DeviceUpdate = parseUpdate(deviceUpdateSchema, raw, DEVICE_WRITABLE_FIELDS);
  assertLiveUniqueId(body.uniqueId);
  const { disabled, attributes, ...rest } = body;
  const changes: Updateable<DeviceTable> = { ...rest };
  if (disabled !== undefined) changes.disabled = fromBool(disabled);
  if (attributes !== undefined) changes.attributes = JSON.stringify(attributes);
  return changes;
}
