// Who may change what on a user (Traccar's rules plus the product's hierarchy, spec §5/§6 and
// tarkan §5.2, and resellers, issue 13). Pure functions over rows, so the routes stay thin and
// the rules are testable; what they need from the database (how much a manager may still hand
// out, its advanced permission bits) arrives as a Grants value (user-grants.ts).
//
// Nobody but an administrator raises their own privileges: limits, restriction flags, the
// expiration, advanced permissions and the reseller attributes never change on oneself. A
// manager acts on the users of its tree but never makes one above itself: no administrator,
// limits within what its own leave, no later expiration, no restriction it has itself lifted,
// advanced bits only among its own, reseller attributes only as a reseller allowed sub-resellers.
import { ADVANCED_PERMS_KEY, changedKeys, limitGrantProblem, maySetResellerFields, permsWithin, PRIVILEGE_ATTRIBUTES, RESELLER_ATTRIBUTE_KEYS, RESELLER_KEYS } from '@rastro/domain/resellers';
import type { UserRow } from './user-json.ts';
import type { UserValues } from './user-input.ts';
import { accessDenied, forbidden } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import type { ServerFlags } from '../auth/guards.ts';
import { decideRestriction, type RestrictionState, type Setter } from '../access/restriction-rules.ts';
import { treeLimitTexts } from '../access/tree-limits.ts';

/** Columns nobody but an administrator changes on themselves (spec §6: no raising one's own privileges). */
const SELF_FIELDS = ['administrator', 'deviceLimit', 'userLimit', 'readonly', 'deviceReadonly', 'disabled', 'limitCommands',
  'disableReports', 'fixedEmail', 'expirationTime', 'temporary'] as const;
/** Restrictions a manager may not lift on its users while its own account carries them. */
const INHERITED_RESTRICTIONS = ['deviceReadonly', 'limitCommands', 'disableReports'] as const;
/** What a readonly user may still change on themselves (push tokens, accepting the terms). */
const READONLY_ATTRIBUTES = new Set(['notificationTokens', 'termsAccepted']);

export const texts = {
  superior: 'Superior administrator - you cannot change an administrator above you',
  self: 'Cannot delete yourself - ask another administrator or manager',
  fixedEmail: 'Email is fixed - only an administrator can change this e-mail',
  expiration: 'Expiration time limit - a user you manage cannot expire later than you',
  userLimit: treeLimitTexts.own,
  ownPrivileges: 'Administrator access required - you cannot change your own permissions, limits or reseller settings',
  resellerFields: 'Reseller access required - only an administrator or a reseller allowed sub-resellers sets reseller fields',
  advancedPerms: 'Permissions above your own - you can only give the advanced permissions you have',
  lastAdmin: 'Last administrator - at least one active administrator must remain',
  duplicate: 'Duplicate email - another user already signs in with this e-mail or login',
  restrictedBySuperior: 'Write access denied - an administrator or your manager restricted this user; only they can re-enable the account or extend its expiration',
};

const on = (v: number | boolean): boolean => v === true || v === 1;
const isAdmin = (u: UserRow) => u.administrator === 1;

/** A superior administrator: an administrator created before the caller (lower id). */
export function isSuperior(caller: UserRow, target: UserRow): boolean {
  return target.administrator === 1 && target.id < caller.id;
}

/** Hierarchy checks before changing or deleting `target` (permission to manage it is checked first). */
export function assertMayTouch(caller: UserRow, target: UserRow): void {
  if (target.id === caller.id) return;
  if (isAdmin(target) && !isAdmin(caller)) throw accessDenied.user();
  if (isSuperior(caller, target)) throw forbidden(texts.superior);
}

function changed(before: UserRow, after: UserValues, key: keyof UserValues): boolean {
  const value = after[key];
  return value !== undefined && value !== before[key as keyof UserRow];
}

function attributesDiffOnlyIn(before: string, after: string | undefined, allowed: Set<string>): boolean {
  if (after === undefined) return true;
  const a = safeObject(before);
  const b = safeObject(after);
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (allowed.has(key)) continue;
    if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) return false;
  }
  return true;
}

function safeObject(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Readonly callers (user or server flag) may only touch their own push tokens / terms. */
export function assertReadonlyUpdateAllowed(caller: UserRow, server: ServerFlags, target: UserRow, values: UserValues, password: string | null): void {
  if (isAdmin(caller) || (!on(caller.readonly) && !on(server.readonly))) return;
  const onlyAllowed =
    target.id === caller.id &&
    password === null &&
    (Object.keys(values) as Array<keyof UserValues>).every((key) =>
      key === 'attributes' ? attributesDiffOnlyIn(target.attributes, values.attributes, READONLY_ATTRIBUTES) : !changed(target, values, key),
    );
  if (!onlyAllowed) throw accessDenied.readonly();
}

/**
 * What a manager may still hand out (user-grants.ts): the largest deviceLimit / userLimit (and
 * reseller limit) it may give this user (null = anything), and its advanced permission bits in
 * effect (null = not limited by them).
 */
export interface Grants {
  devices: number | null;
  users: number | null;
  perms: boolean[] | null;
}

/** No limit from the caller (administrators). */
export const UNLIMITED_GRANTS: Grants = { devices: null, users: null, perms: null };

function limitAboveText(field: string, problem: 'unlimited' | 'above', grantable: number | null): string {
  return problem === 'unlimited'
    ? `Limit above your own - ${field} cannot be unlimited (-1) while your own limit is not`
    : `Limit above your own - ${field} can be at most ${grantable ?? 0}, what your own limit leaves`;
}

function assertLimitWithin(field: string, requested: number, grantable: number | null): void {
  const problem = limitGrantProblem(requested, grantable);
  if (problem) throw forbidden(limitAboveText(field, problem, grantable));
}

/**
 * What a manager gives in `attributes` (the whole object the user will have) compared with
 * what the user had: reseller fields only as a reseller allowed sub-resellers, its reseller
 * limit within the caller's user capacity, advanced bits only among the caller's.
 */
function assertAttributesGrantable(caller: UserRow, before: Record<string, unknown>, after: Record<string, unknown>, grants: Grants): void {
  const reseller = changedKeys(before, after, RESELLER_ATTRIBUTE_KEYS);
  if (reseller.length > 0) {
    if (!maySetResellerFields({ administrator: isAdmin(caller), attributes: parseAttributes(caller.attributes) })) throw forbidden(texts.resellerFields);
    const limit = after[RESELLER_KEYS.limit];
    if (reseller.includes(RESELLER_KEYS.limit) && typeof limit === 'number') assertLimitWithin(RESELLER_KEYS.limit, limit, grants.users);
  }
  if (changedKeys(before, after, [ADVANCED_PERMS_KEY]).length > 0 && !permsWithin(grants.perms, after[ADVANCED_PERMS_KEY])) {
    throw forbidden(texts.advancedPerms);
  }
}

function assertRestrictionsKept(caller: UserRow, values: Partial<Record<(typeof INHERITED_RESTRICTIONS)[number], number | undefined>>): void {
  for (const key of INHERITED_RESTRICTIONS) {
    if (caller[key] === 1 && values[key] === 0) {
      throw forbidden(`Restriction above your own - you cannot lift ${key}, which your own account has`);
    }
  }
}

/** Field-level rules of an update by `caller` of `target` to `values`. */
export function assertUpdateAllowed(caller: UserRow, target: UserRow, values: UserValues, grants: Grants = UNLIMITED_GRANTS): void {
  if (isAdmin(caller)) return;
  const before = parseAttributes(target.attributes);
  const after = values.attributes === undefined ? before : parseAttributes(values.attributes);
  if (target.id === caller.id) {
    // Users never change their own privileges or lift their own restrictions.
    if (SELF_FIELDS.some((k) => changed(target, values, k))) throw accessDenied.admin();
    if (changedKeys(before, after, PRIVILEGE_ATTRIBUTES).length > 0) throw forbidden(texts.ownPrivileges);
  } else {
    if (changed(target, values, 'administrator')) throw accessDenied.admin();
    if (changed(target, values, 'deviceLimit')) assertLimitWithin('deviceLimit', values.deviceLimit!, grants.devices);
    if (changed(target, values, 'userLimit')) assertLimitWithin('userLimit', values.userLimit!, grants.users);
    assertRestrictionsKept(caller, values);
    assertAttributesGrantable(caller, before, after, grants);
  }
  if (changed(target, values, 'expirationTime')) assertExpirationWithin(caller, values.expirationTime ?? null);
  if (target.fixedEmail === 1 && values.email !== undefined && values.email.toLowerCase() !== target.email.toLowerCase()) {
    throw forbidden(texts.fixedEmail);
  }
}

/**
 * The rules of a user created by a manager (`row`: the columns it will have): never an
 * administrator, limits within what the manager's own leave, no restriction the manager has
 * lifted, no later expiration, reseller fields and advanced bits as on an update.
 */
export function assertCreateAllowed(caller: UserRow, row: { administrator?: number; deviceLimit?: number; userLimit?: number; attributes?: string; expirationTime?: number | null } & Partial<Record<(typeof INHERITED_RESTRICTIONS)[number], number>>, grants: Grants): void {
  if (isAdmin(caller)) return;
  if (row.administrator === 1) throw accessDenied.admin();
  assertLimitWithin('deviceLimit', row.deviceLimit ?? 0, grants.devices);
  assertLimitWithin('userLimit', row.userLimit ?? 0, grants.users);
  assertRestrictionsKept(caller, row);
  assertAttributesGrantable(caller, {}, parseAttributes(row.attributes), grants);
  assertExpirationWithin(caller, row.expirationTime ?? null);
}

/** A manager's restrictions its new users start with when the body leaves them out. */
export function inheritedRestrictions(caller: UserRow, values: UserValues): Partial<Record<(typeof INHERITED_RESTRICTIONS)[number], number>> {
  const out: Partial<Record<(typeof INHERITED_RESTRICTIONS)[number], number>> = {};
  for (const key of INHERITED_RESTRICTIONS) if (caller[key] === 1 && values[key] === undefined) out[key] = 1;
  return out;
}

/**
 * Who owns a user's restriction (disabled, expiration) after `caller` changes it from `before`
 * to `after` (`setter`: who set `before`'s, null if unknown): undefined = unchanged, null =
 * none, else the caller. Users never change their own (assertUpdateAllowed refuses it first);
 * a manager may restrict the users they manage and lift what they or a peer set, but not a
 * restriction an administrator or their own manager put on that user: the manager acts for
 * the administrator over those users, not above them.
 */
export function userRestrictionChange(caller: UserRow, before: RestrictionState, after: RestrictionState, setter: Setter | null): number | null | undefined {
  return decideRestriction({ id: caller.id, administrator: isAdmin(caller) }, before, after, setter, () => forbidden(texts.restrictedBySuperior));
}

/** A non-administrator cannot give anyone a later expiration (or none) than their own. */
export function assertExpirationWithin(caller: UserRow, expiration: number | null): void {
  if (isAdmin(caller) || caller.expirationTime === null) return;
  if (expiration === null || expiration > caller.expirationTime) throw forbidden(texts.expiration);
}
