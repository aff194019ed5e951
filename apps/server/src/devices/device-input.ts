// The writable fields of a device body. status, lastUpdate and positionId are managed by the
// server (the ingest pipeline) and ignored here, as Traccar ignores them in generic writes.
import type { Insertable, Updateable } from 'kysely';
import type { DeviceTable } from '../storage/schema.ts';
import { badRequest } from '../http/errors.ts';
import {
  attributesText, has, objectBody, optionalBool, optionalInstant, optionalRef, optionalText, requiredText, type Body,
} from '../access/body-fields.ts';
import { isDeletedUniqueId } from '../access/visibility.ts';

function uniqueIdOf(body: Body): string {
  const uniqueId = requiredText(body, 'uniqueId', 'Unique identifier');
  // Lazily deleted devices are recognised by this form; a live device must never take it.
  if (isDeletedUniqueId(uniqueId)) throw badRequest('Invalid unique identifier - the form deleted-x-y is reserved for deleted devices');
  return uniqueId;
}

/** A new device: name and uniqueId are required. */
export function newDeviceValues(raw: unknown): Insertable<DeviceTable> {
  const body = objectBody(raw);
  return {
    name: requiredText(body, 'name', 'Name'),
    uniqueId: uniqueIdOf(body),
    status: null,
    disabled: optionalBool(body, 'disabled'),
    lastUpdate: null,
    positionId: null,
    groupId: optionalRef(body, 'groupId'),
    calendarId: optionalRef(body, 'calendarId'),
    phone: optionalText(body, 'phone'),
    model: optionalText(body, 'model'),
    contact: optionalText(body, 'contact'),
    category: optionalText(body, 'category'),
    expirationTime: optionalInstant(body, 'expirationTime'),
    attributes: attributesText(body),
    // Processing state starts empty.
    motionState: 0, motionStreak: 0, motionPositionId: null, motionTime: null, motionDistance: 0,
    motionLatitude: 0, motionLongitude: 0, overspeedState: 0, overspeedTime: null, overspeedGeofenceId: 0,
  };
}

/**
 * Changes to an existing device. Traccar's PUT carries the whole object; fields a client
 * leaves out keep their stored value instead of being wiped.
 */
export function deviceChanges(raw: unknown): Updateable<DeviceTable> {
  const body = objectBody(raw);
  const changes: Updateable<DeviceTable> = {};
  if (has(body, 'name')) changes.name = requiredText(body, 'name', 'Name');
  if (has(body, 'uniqueId')) changes.uniqueId = uniqueIdOf(body);
  if (has(body, 'disabled')) changes.disabled = optionalBool(body, 'disabled');
  if (has(body, 'groupId')) changes.groupId = optionalRef(body, 'groupId');
  if (has(body, 'calendarId')) changes.calendarId = optionalRef(body, 'calendarId');
  for (const key of ['phone', 'model', 'contact', 'category'] as const) {
    if (has(body, key)) changes[key] = optionalText(body, key);
  }
  if (has(body, 'expirationTime')) changes.expirationTime = optionalInstant(body, 'expirationTime');
  if (has(body, 'attributes')) changes.attributes = attributesText(body);
  return changes;
}
