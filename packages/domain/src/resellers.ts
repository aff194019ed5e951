// Resellers (spec §3 "User: Reseller", §6) and the rules that keep a manager from handing out
// more than it holds. A reseller is a manager (Traccar `userLimit` != 0) flagged with user
// attributes; its users, and their users, form its tree at any depth. Both the server (which
// enforces these rules) and the user editor (which shows them) use this one module.
import { USER_BILLING_KEYS } from './billing-keys.ts';
import { z } from './zod.ts';
import { decodeAdvancedPerms, type PermissionServer } from './permissions.ts';

/** The user attributes a reseller is made of. */
export const RESELLER_KEYS = {
  /** boolean: this user is a reseller. */
  reseller: 'tarkan.reseller',
  /** boolean: this reseller may make its own users resellers. */
  subReseller: 'tarkan.subReseller',
  /** host name of its white-label site (the theme, a later issue, reads it). */
  domain: 'tarkan.domainReseller',
  /** integer: how many users its whole tree may hold, -1 = unlimited; absent = only userLimit applies. */
  limit: 'tarkan.limitReseller',
} as const;

export const RESELLER_ATTRIBUTE_KEYS: readonly string[] = Object.values(RESELLER_KEYS);

/** The attribute holding the 128 advanced permission bits (permissions.ts). */
export const ADVANCED_PERMS_KEY = 'tarkan.advancedPerms';

/**
 * User columns a non-administrator can never change on themselves (their own privileges),
 * and the attributes with the same standing.
 */
export const PRIVILEGE_FIELDS = [
  'administrator', 'deviceLimit', 'userLimit', 'readonly', 'deviceReadonly', 'limitCommands', 'expirationTime', 'disabled',
] as const;
export const PRIVILEGE_ATTRIBUTES: readonly string[] = [ADVANCED_PERMS_KEY, ...RESELLER_ATTRIBUTE_KEYS, ...Object.values(USER_BILLING_KEYS)];

type Attributes = Record<string, unknown> | undefined;

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A DNS host name of at least two labels (`track.example.com`), lower case; no port, no scheme. */
export function isHostName(text: string): boolean {
  if (text.length === 0 || text.length > 253) return false;
  const labels = text.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((label) => HOST_LABEL.test(label))) return false;
  // A top-level label is never all digits: that is an IP address, not a name.
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

/** null removes an attribute, as "" does for the domain (clients send null for a cleared field). */
const dropNull = <T,>(value: T | null): T | undefined => (value === null ? undefined : value);

const flagSchema = z.boolean({ error: 'true or false is expected' }).nullable().transform(dropNull).optional();

/**
 * The reseller attributes of a user body (other attributes pass through untouched). The domain
 * is trimmed and lower-cased; "" removes it; null removes any of them. Used inside a body's `attributes`, so a
 * refusal names `attributes.tarkan.domainReseller` and so on.
 */
export const resellerAttributesSchema = z.looseObject({
  [RESELLER_KEYS.reseller]: flagSchema,
  [RESELLER_KEYS.subReseller]: flagSchema,
  [RESELLER_KEYS.domain]: z
    .union([z.string(), z.null()], { error: 'must be a host name like track.example.com' })
    .transform((value, ctx) => {
      const host = (value ?? '').trim().toLowerCase();
      if (host === '') return undefined;
      if (!isHostName(host)) {
        ctx.addIssue({ code: 'custom', message: 'must be a host name like track.example.com (no scheme, port or path)' });
        return z.NEVER;
      }
      return host;
    })
    .optional(),
  [RESELLER_KEYS.limit]: z
    .number({ error: 'must be a whole number, -1 for unlimited' })
    .int({ error: 'must be a whole number, -1 for unlimited' })
    .min(-1, { error: 'must be a whole number, -1 for unlimited' })
    .max(1_000_000_000, { error: 'must be at most 1000000000' })
    .nullable()
    .transform(dropNull)
    .optional(),
});

/** A user body's `attributes` with its reseller keys checked (wrap so messages name the path). */
export const userResellerBodySchema = z.object({ attributes: resellerAttributesSchema });

export interface ResellerFields {
  reseller: boolean;
  subReseller: boolean;
  domain: string | null;
  /** null when absent (only the Traccar userLimit applies) or -1. */
  limit: number | null;
}

/** The reseller fields as stored (anything but `true` is false; a bad limit counts as absent). */
export function resellerFields(attributes: Attributes): ResellerFields {
  const limit = attributes?.[RESELLER_KEYS.limit];
  const domain = attributes?.[RESELLER_KEYS.domain];
  return {
    reseller: attributes?.[RESELLER_KEYS.reseller] === true,
    subReseller: attributes?.[RESELLER_KEYS.subReseller] === true,
    domain: typeof domain === 'string' && domain !== '' ? domain : null,
    limit: typeof limit === 'number' && Number.isInteger(limit) && limit >= 0 ? limit : null,
  };
}

export interface ResellerSubject {
  administrator?: boolean;
  attributes?: Attributes;
}

export const isResellerUser = (user: ResellerSubject): boolean => resellerFields(user.attributes).reseller;

/** Who may set or change anyone's reseller attributes: administrators, and resellers allowed sub-resellers. */
export function maySetResellerFields(caller: ResellerSubject): boolean {
  if (caller.administrator) return true;
  const fields = resellerFields(caller.attributes);
  return fields.reseller && fields.subReseller;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The attribute keys among `keys` whose value differs between two attribute objects. */
export function changedKeys(before: Attributes, after: Attributes, keys: readonly string[]): string[] {
  return keys.filter((key) => !same(before?.[key], after?.[key]));
}

/**
 * How many users a manager's whole tree may hold: the lower of its Traccar userLimit and its
 * reseller limit, null = unlimited. userLimit 0 means it is no manager at all.
 */
export function userCapacity(user: { userLimit: number; attributes?: Attributes }): number | null {
  const limits: number[] = [];
  if (user.userLimit !== -1) limits.push(Math.max(0, user.userLimit));
  const reseller = resellerFields(user.attributes).limit;
  if (reseller !== null) limits.push(reseller);
  return limits.length === 0 ? null : Math.min(...limits);
}

/** Traccar's deviceLimit as a capacity: -1 = unlimited (null), else the number of devices. */
export const deviceCapacity = (deviceLimit: number): number | null => (deviceLimit === -1 ? null : Math.max(0, deviceLimit));

/**
 * The largest limit a manager may give one of its users: what its capacity leaves once
 * everything else it holds is counted (`usedElsewhere`: for a user being created, the tree plus
 * the new user's own place; for an existing user, the tree less what that user's part holds).
 * null = anything (the manager is unlimited).
 */
export function grantableLimit(capacity: number | null, usedElsewhere: number): number | null {
  return capacity === null ? null : Math.max(0, capacity - usedElsewhere);
}

/** Why `requested` (a limit, -1 = unlimited) cannot be given under `grantable`, or null. */
export function limitGrantProblem(requested: number, grantable: number | null): 'unlimited' | 'above' | null {
  if (grantable === null) return null;
  if (requested === -1) return 'unlimited';
  return requested > grantable ? 'above' : null;
}

/**
 * The advanced permission bits in effect for a caller: its decoded flags when the licence is
 * plus, the server switch is on and it has flags; null when they do not apply (the caller then
 * passes every area check, so it may hand out any bits).
 */
export function advancedFlagsInEffect(user: ResellerSubject, server: PermissionServer): boolean[] | null {
  if (user.administrator || !server.plus) return null;
  const on = server.attributes?.['tarkan.enableAdvancedPerms'];
  if (!(on === true || on === 'true' || on === 1 || on === '1')) return null;
  return decodeAdvancedPerms(user.attributes?.[ADVANCED_PERMS_KEY]);
}

/**
 * May a caller whose flags are `callerFlags` give a user the stored value `target`? Only bits it
 * holds itself; a user without flags passes every check, so giving none is more than a limited
 * caller has.
 */
export function permsWithin(callerFlags: readonly boolean[] | null, target: unknown): boolean {
  if (callerFlags === null) return true;
  const flags = decodeAdvancedPerms(target);
  if (flags === null) return false;
  return flags.every((on, bit) => !on || callerFlags[bit] === true);
}
