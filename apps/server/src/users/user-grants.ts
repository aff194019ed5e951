// What a manager may still hand out to one of its users (the Grants of user-rules.ts): limits
// "not above its own remaining capacity" (resellers.ts grantableLimit) and its advanced
// permission bits. Counted only when the change touches a limit, so an ordinary edit costs
// no query. The creating transaction enforces the limits again (tree-limits.ts); this check
// answers early with what is left.
import { advancedFlagsInEffect, deviceCapacity, grantableLimit, RESELLER_KEYS, userCapacity } from '@rastro/domain/resellers';
import type { AppContext } from '../context.ts';
import { parseAttributes } from '../http/json.ts';
import { countDescendants } from '../access/user-tree.ts';
import { countVisibleDevices } from '../access/visibility.ts';
import { permissionServer } from '../access/advanced-perms.ts';
import type { ServerRow } from '../server-info/server-repo.ts';
import type { UserRow } from './user-json.ts';
import type { UserValues } from './user-input.ts';
import { UNLIMITED_GRANTS, type Grants } from './user-rules.ts';

/**
 * Grants of `caller` towards `target` (null: a user being created) for a write of `values`.
 * Administrators are unlimited.
 */
export async function grantsFor(ctx: AppContext, server: ServerRow, caller: UserRow, target: UserRow | null, values: UserValues): Promise<Grants> {
  if (caller.administrator === 1) return UNLIMITED_GRANTS;
  const db = ctx.storage.db;
  const callerAttributes = parseAttributes(caller.attributes);
  const attributes = values.attributes === undefined ? null : parseAttributes(values.attributes);
  // Clients PUT the whole object: only a limit that changes is a grant (and nobody grants to themselves).
  const differs = <T,>(value: T | undefined, stored: T) => value !== undefined && value !== stored;
  const resellerLimit = attributes?.[RESELLER_KEYS.limit];
  const touchesUsers = target === null || (target.id !== caller.id && (differs(values.userLimit, target.userLimit)
    || differs(resellerLimit, parseAttributes(target.attributes)[RESELLER_KEYS.limit])));
  const touchesDevices = target === null || (target.id !== caller.id && differs(values.deviceLimit, target.deviceLimit));

  let users: number | null = null;
  const userCap = userCapacity({ userLimit: caller.userLimit, attributes: callerAttributes });
  if (touchesUsers && userCap !== null) {
    const used = await countDescendants(db, caller.id);
    // A new user takes a place of its own; an existing one keeps its place and frees its part below.
    users = grantableLimit(userCap, target === null ? used + 1 : used - (await countDescendants(db, target.id)));
  }
  let devices: number | null = null;
  const deviceCap = deviceCapacity(caller.deviceLimit);
  if (touchesDevices && deviceCap !== null) {
    const used = await countVisibleDevices(db, caller.id);
    devices = grantableLimit(deviceCap, target === null ? used : used - (await countVisibleDevices(db, target.id)));
  }
  const perms = advancedFlagsInEffect({ administrator: false, attributes: callerAttributes }, permissionServer(ctx, server));
  return { devices, users, perms };
}
