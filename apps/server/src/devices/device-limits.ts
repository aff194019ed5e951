// The limits a new device counts against, as scopes enforced inside the creating transaction
// (access/limit-scopes.ts; DevicesRepo.insertWithinLimits). Every refusal carries the
// USER_DEVICE_LIMIT_REACHED text so the client shows the same message whichever limit was hit:
// - the server: the operator's RASTRO_DEVICE_LIMIT and the server attribute tarkan.deviceLimit
//   (the lower one applies), over every device of the server;
// - the deviceLimit of every manager above the creating user in the user tree, counting the
//   devices its whole tree sees (access/tree-limits.ts: limits add up down the tree);
// - the creating user's own deviceLimit (-1 = none, 0 = no device allowed, N = at most N
//   visible devices); administrators are exempt.
// Lazily deleted devices count for nobody. Limits are read under the lock, so a change made
// meanwhile by an administrator applies at once.
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { forbidden } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import { countVisibleDevices } from '../access/visibility.ts';
import { lockServerRow, lockUserRow, type LimitScope } from '../access/limit-scopes.ts';
import { treeDeviceScopes } from '../access/tree-limits.ts';
import { DevicesRepo } from './devices-repo.ts';

const refusal = () => forbidden(SERVER_ERROR_TEXTS.deviceLimit);

/** `tarkan.deviceLimit` as a number (the client saves it as text or number); 0 when unset. */
export function serverDeviceLimit(server: { attributes: string }): number {
  const value = parseAttributes(server.attributes)['tarkan.deviceLimit'];
  const n = typeof value === 'string' ? Number(value.trim()) : value;
  return typeof n === 'number' && Number.isFinite(n) ? Math.trunc(n) : 0;
}

/** The scopes a device created by `user` counts against, widest first (the lock order). */
export function deviceLimitScopes(ctx: AppContext, user: UserRow): LimitScope[] {
  const server: LimitScope = {
    async lock(trx) {
      const attributeLimit = serverDeviceLimit(await lockServerRow(trx));
      const limits = [ctx.config.deviceLimit, attributeLimit > 0 ? attributeLimit : null].filter((l) => l !== null);
      return limits.length > 0 ? Math.min(...limits) : null;
    },
    count: (trx) => new DevicesRepo(trx).countActive(),
    refusal,
  };
  if (user.administrator === 1) return [server];
  const own: LimitScope = {
    async lock(trx) {
      const row = await lockUserRow(trx, user.id);
      if (!row) return 0;
      return row.deviceLimit === -1 ? null : row.deviceLimit;
    },
    count: (trx) => countVisibleDevices(trx, user.id),
    refusal,
  };
  return [server, treeDeviceScopes(user.id), own];
}
