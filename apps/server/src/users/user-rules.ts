// Who may change what on a user (Traccar's rules plus the product's hierarchy, spec §5/§6 and
// tarkan §5.2). Pure functions over rows, so the routes stay thin and the rules are testable.
import type { UserRow } from './user-json.ts';
import type { UserValues } from './user-input.ts';
import { accessDenied, forbidden } from '../http/errors.ts';
import type { ServerFlags } from '../auth/guards.ts';
import { decideRestriction, type RestrictionState, type Setter } from '../access/restriction-rules.ts';

/** Fields only administrators may change. */
const ADMIN_FIELDS = ['administrator', 'deviceLimit', 'userLimit'] as const;
/** Restrictions only an administrator or the user's manager may change (never the user). */
const RESTRICTION_FIELDS = ['readonly', 'deviceReadonly', 'disabled', 'limitCommands', 'disableReports', 'fixedEmail',
  'expirationTime', 'temporary'] as const;
/** What a readonly user may still change on themselves (push tokens, accepting the terms). */
const READONLY_ATTRIBUTES = new Set(['notificationTokens', 'termsAccepted']);

export const texts = {
  superior: 'Superior administrator - you cannot change an administrator above you',
  self: 'Cannot delete yourself - ask another administrator or manager',
  fixedEmail: 'Email is fixed - only an administrator can change this e-mail',
  expiration: 'Expiration time limit - a user you manage cannot expire later than you',
  userLimit: 'Manager user limit reached - you cannot create more users',
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

/** Field-level rules of an update by `caller` of `target` to `values`. */
export function assertUpdateAllowed(caller: UserRow, target: UserRow, values: UserValues): void {
  if (isAdmin(caller)) return;
  if (ADMIN_FIELDS.some((k) => changed(target, values, k))) throw accessDenied.admin();
  if (RESTRICTION_FIELDS.some((k) => changed(target, values, k))) {
    // Users never lift their own restrictions; managers may set those of users they manage.
    if (target.id === caller.id) throw accessDenied.admin();
  }
  if (changed(target, values, 'expirationTime')) assertExpirationWithin(caller, values.expirationTime ?? null);
  if (target.fixedEmail === 1 && values.email !== undefined && values.email.toLowerCase() !== target.email.toLowerCase()) {
    throw forbidden(texts.fixedEmail);
  }
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
