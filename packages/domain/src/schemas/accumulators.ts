// Body of PUT /api/devices/{id}/accumulators: the odometer (`totalDistance`, metres) and engine
// hours (`hours`, milliseconds); at least one of them. `deviceId`, when sent, must be the
// device of the address (checked by the server).
import { z } from '../zod.ts';
import { amountIn, OBJECT_EXPECTED } from './fields.ts';

const NEITHER = 'Invalid accumulators - give totalDistance (metres) or hours (milliseconds)';

export const accumulatorsSchema = z
  .object(
    {
      deviceId: z.union([z.number(), z.string(), z.null()], { error: 'a device id is expected' }).optional(),
      totalDistance: amountIn('odometer').nullable().optional(),
      hours: amountIn('hours')
        .transform((ms) => Math.round(ms))
        .nullable()
        .optional(),
    },
    { error: OBJECT_EXPECTED },
  )
  .check((ctx) => {
    if (ctx.value.totalDistance == null && ctx.value.hours == null) {
      ctx.issues.push({ code: 'custom', message: NEITHER, input: ctx.value });
    }
  });

export type AccumulatorsInput = z.output<typeof accumulatorsSchema>;
