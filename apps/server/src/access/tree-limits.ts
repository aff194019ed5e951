// Limits add up down the user tree: a user created anywhere under a manager counts against
// that manager's user capacity (Traccar userLimit, and the reseller limit `tarkan.limitReseller`
// when set, the lower applying), and a device added anywhere under it against its deviceLimit
// — so no limit leaks through a sub-account. These are the limit scopes (limit-scopes.ts) of
// the managers above a user, found inside the creating transaction once the server row is
// locked (tree changes take the same lock, permissions/), top of the tree first.
//
// Only managers count: an administrator above has no limits, and a user above whose userLimit
// went back to 0 no longer manages that tree (visibility.ts agrees).
import type { Kysely } from 'kysely';
import { deviceCapacity, userCapacity } from '@rastro/domain/resellers';
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';
import type { Database } from '../storage/schema.ts';
import { forbidden } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import { lockUserRow, type FixedScope, type LockedUser, type ScopeGroup } from './limit-scopes.ts';
import { ancestorIds, countDescendants } from './user-tree.ts';
import { countVisibleDevices } from './visibility.ts';

type Db = Kysely<Database>;

export const treeLimitTexts = {
  own: 'Manager user limit reached - you cannot create more users',
  above: 'Manager user limit reached - an account above you has no room for more users',
};

const isManagerRow = (row: LockedUser): boolean => row.administrator !== 1 && row.userLimit !== 0;

/**
 * One manager's user capacity over its whole tree. `creator`: the manager creating the user,
 * whose userLimit 0 refuses (Traccar); a user above who is no manager (any more) sets no limit.
 */
function usersScope(managerId: number, creator: boolean): FixedScope {
  return {
    async lock(trx) {
      const row = await lockUserRow(trx, managerId);
      if (!row) return creator ? 0 : null;
      if (row.administrator === 1) return null;
      if (row.userLimit === 0) return creator ? 0 : null;
      return userCapacity({ userLimit: row.userLimit, attributes: parseAttributes(row.attributes) });
    },
    count: (trx) => countDescendants(trx, managerId),
    refusal: () => forbidden(creator ? treeLimitTexts.own : treeLimitTexts.above),
  };
}

/**
 * The scopes a user created by manager `managerId` counts against: every manager above it
 * (top first), then the creating manager itself.
 */
export function newUserScopes(managerId: number): ScopeGroup {
  return {
    async expand(trx: Db) {
      const above = (await ancestorIds(trx, managerId)).map((id) => usersScope(id, false));
      return [...above, usersScope(managerId, true)];
    },
  };
}

/**
 * The scopes of the managers above `userId` for a device `userId` adds (its own deviceLimit is
 * the devices feature's scope, after these): each counts every device its tree sees.
 */
export function treeDeviceScopes(userId: number): ScopeGroup {
  return {
    async expand(trx: Db) {
      const scopes: FixedScope[] = [];
      for (const id of await ancestorIds(trx, userId)) {
        scopes.push({
          async lock(t) {
            const row = await lockUserRow(t, id);
            if (!row || !isManagerRow(row)) return null;
            return deviceCapacity(row.deviceLimit);
          },
          count: (t) => countVisibleDevices(t, id),
          refusal: () => forbidden(SERVER_ERROR_TEXTS.deviceLimit),
        });
      }
      return scopes;
    },
  };
}

/**
 * After users were linked below `managerId` (a manager's /api/permissions link), its tree and
 * the trees above it must still fit their user capacity: called inside the linking
 * transaction, which then rolls back.
 */
export async function assertTreesFit(trx: Db, managerId: number): Promise<void> {
  const ids = [...(await ancestorIds(trx, managerId)), managerId];
  for (const id of ids) {
    const row = await lockUserRow(trx, id);
    if (!row || !isManagerRow(row)) continue;
    const capacity = userCapacity({ userLimit: row.userLimit, attributes: parseAttributes(row.attributes) });
    if (capacity !== null && (await countDescendants(trx, id)) > capacity) {
      throw forbidden(id === managerId ? 'Manager user limit reached - that manager has no room for these users' : treeLimitTexts.above);
    }
  }
}
