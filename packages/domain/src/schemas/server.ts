// Body of PUT /api/server (administrators): Traccar clients send the whole Server object;
// computed fields (version, emailEnabled, newServer...) are ignored, fields left out keep
// their stored value, and a body with no writable field is refused.
import { z } from '../zod.ts';
import { attributesObject, numberIn, OBJECT_EXPECTED, optionalText, strictBool } from './fields.ts';

const text = optionalText().optional();

export const serverUpdateSchema = z.object(
  {
    registration: strictBool.optional(),
    readonly: strictBool.optional(),
    deviceReadonly: strictBool.optional(),
    limitCommands: strictBool.optional(),
    disableReports: strictBool.optional(),
    fixedEmail: strictBool.optional(),
    twelveHourFormat: strictBool.optional(),
    forceSettings: strictBool.optional(),
    map: text,
    bingKey: text,
    mapUrl: text,
    overlayUrl: text,
    poiLayer: text,
    announcement: text,
    coordinateFormat: text,
    // Traccar sends every number; null means "unchanged".
    latitude: numberIn('latitude').nullable().optional(),
    longitude: numberIn('longitude').nullable().optional(),
    zoom: numberIn('zoom', { integer: true }).nullable().optional(),
    attributes: attributesObject().optional(),
  },
  { error: OBJECT_EXPECTED },
);

export const SERVER_WRITABLE_FIELDS = Object.keys(serverUpdateSchema.shape);

export type ServerUpdate = z.output<typeof serverUpdateSchema>;
