// May this user add one more device? Every refusal carries the USER_DEVICE_LIMIT_REACHED text
// so the client shows the same message whichever limit was hit. Checked in this order:
// the user's own deviceLimit (0 = none allowed, N = at most N visible devices; administrators
// are exempt), the operator's RASTRO_DEVICE_LIMIT, then the server attribute tarkan.deviceLimit.
// Lazily deleted devices count for nobody.
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { forbidden } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import type { ServerRow } from '../server-info/server-repo.ts';
import type { DevicesRepo } from './devices-repo.ts';

/** `tarkan.deviceLimit` as a number (the client saves it as text or number); 0 when unset. */
export function serverDeviceLimit(server: ServerRow): number {
  const value = parseAttributes(server.attributes)['tarkan.deviceLimit'];
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof n === 'number' && Number.isFinite(n) ? Math.trunc(n) : 0;
}

export async function assertCanAddDevice(ctx: AppContext, user: UserRow, server: ServerRow, devices: DevicesRepo): Promise<void> {
  const refused = () => forbidden(SERVER_ERROR_TEXTS.deviceLimit);
  if (user.administrator !== 1 && user.deviceLimit !== -1) {
    if (user.deviceLimit <= 0) throw refused();
    if ((await ctx.visibility.countDevices(user.id)) >= user.deviceLimit) throw refused();
  }
  const configLimit = ctx.config.deviceLimit;
  const attributeLimit = serverDeviceLimit(server);
  if (configLimit === null && attributeLimit <= 0) return;
  const total = await devices.countActive();
  if (configLimit !== null && total >= configLimit) throw refused();
  if (attributeLimit > 0 && total >= attributeLimit) throw refused();
}
