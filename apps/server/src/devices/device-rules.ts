// Who may disable a device or change its expiration. Administrators always may. Managers may on
// the devices they see, within their own expiration, but not lift a restriction an
// administrator or their own manager set (access/restriction-rules.ts). Other users may not
// change either field at all; sending the stored value back (a whole-object PUT) is fine.
// Pure: the route passes the caller, the device's state before and after, and the setter.
import { badRequest, forbidden } from '../http/errors.ts';
import type { UserRow } from '../users/user-json.ts';
import { isManager } from '../users/user-json.ts';
import { decideRestriction, restrictionChanged, type RestrictionState, type Setter } from '../access/restriction-rules.ts';

export const deviceTexts = {
  restrictionDenied: 'Write access denied - only an administrator or a manager can disable a device or change its expiration',
  restrictedBySuperior: 'Write access denied - an administrator or your manager restricted this device; only they can re-enable it or extend its expiration',
  expiration: 'Expiration time limit - a device cannot expire later than your own account',
  duplicateUniqueId: (uniqueId: string) => `Duplicate unique identifier - another device already uses ${uniqueId}`,
};

export const duplicateUniqueId = (uniqueId: string) => badRequest(deviceTexts.duplicateUniqueId(uniqueId));

/**
 * Checks `caller`'s change of a device's restriction from `before` to `after` (`setter`: who
 * set `before`'s restriction, null if unknown) and answers who owns it afterwards: undefined =
 * unchanged, null = none, else the caller's id.
 */
export function deviceRestrictionChange(caller: UserRow, before: RestrictionState, after: RestrictionState, setter: Setter | null): number | null | undefined {
  if (!restrictionChanged(before, after)) return undefined;
  const administrator = caller.administrator === 1;
  if (!isManager(caller)) throw forbidden(deviceTexts.restrictionDenied);
  const owner = decideRestriction({ id: caller.id, administrator }, before, after, setter, () => forbidden(deviceTexts.restrictedBySuperior));
  if (!administrator && after.expirationTime !== before.expirationTime && caller.expirationTime !== null) {
    // Like the users a manager creates: nothing they manage outlives their own account.
    if (after.expirationTime === null || after.expirationTime > caller.expirationTime) throw forbidden(deviceTexts.expiration);
  }
  return owner;
}
