// Body of POST /api/maintenance and PUT /api/maintenance/{id}: a service interval. `type` is
// the position value it follows (an attribute key such as totalDistance, odometer, hours, or
// serverTime / deviceTime / fixTime), `start` where counting begins and `period` the interval,
// in that value's unit (metres, milliseconds). A period of 0 never falls due.
import { z } from '../zod.ts';
import { attributesOrEmpty, OBJECT_EXPECTED, requiredText } from './fields.ts';

/** Longest `type` (a position attribute key). */
export const MAINTENANCE_TYPE_MAX = 128;

/** A finite number (or its decimal text) not below `min`; null and "" count as 0, as Traccar reads them. */
function amount(min: number | null) {
  const message = min === null ? 'must be a number' : `must be a number of at least ${min}`;
  return z.union([z.number(), z.string(), z.null()], { error: message }).transform((value, ctx) => {
    const n = value === null || (typeof value === 'string' && value.trim() === '') ? 0 : Number(value);
    if (!Number.isFinite(n) || (min !== null && n < min)) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return n;
  });
}

export const maintenanceSchema = z.object(
  {
    name: requiredText('name', 'Name'),
    type: requiredText('type', 'Type', MAINTENANCE_TYPE_MAX),
    start: amount(null).optional(),
    period: amount(0).optional(),
    attributes: attributesOrEmpty.optional(),
  },
  { error: OBJECT_EXPECTED },
);

export const maintenanceUpdateSchema = maintenanceSchema.partial();

export const MAINTENANCE_WRITABLE_FIELDS = Object.keys(maintenanceSchema.shape);

export type MaintenanceInput = z.output<typeof maintenanceSchema>;
export type MaintenanceUpdate = z.output<typeof maintenanceUpdateSchema>;
