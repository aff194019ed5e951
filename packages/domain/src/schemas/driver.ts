// Body of POST /api/drivers and PUT /api/drivers/{id}: a name and the identifier trackers
// report as the position attribute `driverUniqueId` (an RFID card, an iButton...), unique
// among drivers.
import { z } from '../zod.ts';
import { attributesOrEmpty, OBJECT_EXPECTED, requiredText } from './fields.ts';

export const driverSchema = z.object(
  {
    name: requiredText('name', 'Name'),
    uniqueId: requiredText('uniqueId', 'Unique identifier'),
    attributes: attributesOrEmpty.optional(),
  },
  { error: OBJECT_EXPECTED },
);

export const driverUpdateSchema = driverSchema.partial();

export const DRIVER_WRITABLE_FIELDS = Object.keys(driverSchema.shape);

export type DriverInput = z.output<typeof driverSchema>;
export type DriverUpdate = z.output<typeof driverUpdateSchema>;
