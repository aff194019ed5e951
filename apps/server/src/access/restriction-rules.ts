// A superior's restriction stands. A device or user is restricted when it is disabled or has an
// expiration; the user who set that restriction is recorded (restrictions-repo.ts). Whoever
// that decision binds may keep it or make it stricter, but not lift it: re-enable, remove the
// expiration or move it later. It binds everyone but administrators and the setter themself
// when the setter was an administrator or a manager above the caller; a restriction whose setter
// is unknown (set before this was recorded, or by a user since deleted) binds every
// non-administrator. Pure functions: users and devices apply them with their own texts.
import type { ApiError } from '../http/errors.ts';

export interface RestrictionState {
  disabled: boolean;
  /** Epoch ms, null for none. */
  expirationTime: number | null;
}

/** Who set a restriction, as seen from the caller. */
export interface Setter {
  id: number;
  administrator: boolean;
  /** The setter manages the caller: the caller is in the setter's user tree (user-tree.ts), at any depth. */
  managesCaller: boolean;
}

export interface Caller {
  id: number;
  administrator: boolean;
}

/** Nothing restricted: what a new object starts from (what its body restricts is its creator's change). */
export const UNRESTRICTED: RestrictionState = { disabled: false, expirationTime: null };

/** The restriction of a stored row (0/1 and epoch ms, as users and devices store them). */
export function restrictionOf(row: { disabled: number; expirationTime: number | null }): RestrictionState {
  return { disabled: row.disabled === 1, expirationTime: row.expirationTime };
}

/** The restriction after a write of `values` (fields it leaves out keep their value). */
export function restrictionAfter(before: RestrictionState, values: { disabled?: number; expirationTime?: number | null }): RestrictionState {
  return {
    disabled: values.disabled === undefined ? before.disabled : values.disabled === 1,
    expirationTime: values.expirationTime === undefined ? before.expirationTime : values.expirationTime,
  };
}

export const isRestricted = (s: RestrictionState): boolean => s.disabled || s.expirationTime !== null;

export const restrictionChanged = (before: RestrictionState, after: RestrictionState): boolean =>
  before.disabled !== after.disabled || before.expirationTime !== after.expirationTime;

/** Re-enables, removes the expiration or moves it later. */
export function lifts(before: RestrictionState, after: RestrictionState): boolean {
  if (before.disabled && !after.disabled) return true;
  return before.expirationTime !== null && (after.expirationTime === null || after.expirationTime > before.expirationTime);
}

/** Does a restriction set by `setter` (null = unknown) bind `caller`? */
export function binds(caller: Caller, setter: Setter | null): boolean {
  if (caller.administrator) return false;
  if (setter === null) return true;
  if (setter.id === caller.id) return false;
  return setter.administrator || setter.managesCaller;
}

/**
 * Checks a change of restriction by `caller` and tells who owns the restriction afterwards:
 * undefined = the record stays as it is, null = no restriction any more, else the caller.
 * A stricter setting made under a binding restriction leaves it its setter's, so it cannot be
 * used to take the restriction over and lift it next.
 */
export function decideRestriction(
  caller: Caller,
  before: RestrictionState,
  after: RestrictionState,
  setter: Setter | null,
  refusal: () => ApiError,
): number | null | undefined {
  if (!restrictionChanged(before, after)) return undefined;
  const bound = isRestricted(before) && binds(caller, setter);
  if (bound && lifts(before, after)) throw refusal();
  if (!isRestricted(after)) return null;
  return bound ? undefined : caller.id;
}
