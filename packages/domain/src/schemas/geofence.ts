// Body of POST /api/geofences and PUT /api/geofences/{id}. The area is latitude-first WKT
// (CIRCLE, POLYGON, LINESTRING) checked by geofence-area.ts and stored trimmed as sent.
import { z } from '../zod.ts';
import { parseArea } from '../geofence-area.ts';
import { attributesOrEmpty, OBJECT_EXPECTED, optionalText, ref, requiredText } from './fields.ts';

const AREA_REQUIRED = 'Area is required - fill in the area field';

export const area = z.string({ error: AREA_REQUIRED }).transform((value, ctx) => {
  const text = value.trim();
  if (text === '') {
    ctx.addIssue({ code: 'custom', message: AREA_REQUIRED });
    return z.NEVER;
  }
  const parsed = parseArea(text);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  }
  return text;
});

export const geofenceSchema = z.object(
  {
    name: requiredText('name', 'Name'),
    description: optionalText().optional(),
    area,
    calendarId: ref.optional(),
    attributes: attributesOrEmpty.optional(),
  },
  { error: OBJECT_EXPECTED },
);

export const geofenceUpdateSchema = geofenceSchema.partial();

export const GEOFENCE_WRITABLE_FIELDS = Object.keys(geofenceSchema.shape);

export type GeofenceInput = z.output<typeof geofenceSchema>;
export type GeofenceUpdate = z.output<typeof geofenceUpdateSchema>;
