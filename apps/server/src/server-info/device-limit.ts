// The server-wide device limit (RASTRO_DEVICE_LIMIT): how many more devices may be added.
// Devices whose uniqueId starts with `deleted-` were removed in the product's "safe mode"
// (kept for their history) and do not count.
import type { AppContext } from '../context.ts';

/** Devices still allowed, never below 0; null when no server-wide limit is configured. */
export async function remainingDeviceSlots(ctx: AppContext): Promise<number | null> {
  const limit = ctx.config.deviceLimit;
  if (limit === null) return null;
  const row = await ctx.storage.db
    .selectFrom('devices')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('uniqueId', 'not like', 'deleted-%')
    .executeTakeFirstOrThrow();
  return Math.max(0, limit - Number(row.n));
}
