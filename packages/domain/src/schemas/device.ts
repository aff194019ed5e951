// Body of POST /api/devices and PUT /api/devices/{id} (Traccar's Device). status, lastUpdate
// and positionId belong to the server (the ingest pipeline) and are ignored, as Traccar
// ignores them in generic writes; unknown keys are dropped.
import { z } from '../zod.ts';
import { attributesOrEmpty, flag, instant, OBJECT_EXPECTED, optionalText, ref, requiredText } from './fields.ts';

export const deviceSchema = z.object(
  {
    name: requiredText('name', 'Name'),
    uniqueId: requiredText('uniqueId', 'Unique identifier'),
    disabled: flag.optional(),
    groupId: ref.optional(),
    calendarId: ref.optional(),
    phone: optionalText().optional(),
    model: optionalText().optional(),
    contact: optionalText().optional(),
    category: optionalText().optional(),
    expirationTime: instant.optional(),
    attributes: attributesOrEmpty.optional(),
  },
  { error: OBJECT_EXPECTED },
);

/** A PUT carries the whole object in Traccar, but fields left out keep their stored value. */
export const deviceUpdateSchema = deviceSchema.partial();

export const DEVICE_WRITABLE_FIELDS = Object.keys(deviceSchema.shape);

export type DeviceInput = z.output<typeof deviceSchema>;
export type DeviceUpdate = z.output<typeof deviceUpdateSchema>;
