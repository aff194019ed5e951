// The roles the authorization table is written for, and the outcomes a row may expect of each.
// Every row gives an outcome for every role (the Record type makes a missing role a compile
// error), so a reader sees for each route who may do what.
import type { World } from './world.ts';

export const ROLES = [
  'admin', // user 1, the first administrator
  'admin2', // a second administrator: may not edit or delete the first (superior) one
  'reseller', // R: manager (userLimit -1), tarkan.reseller + tarkan.subReseller
  'subReseller', // S: managed by R, tarkan.reseller
  'customer', // C: managed by S, manages its own staff (readonly operator, QR driver, staff)
  'unrelated', // U: a customer nobody but the administrators manages
  'readonly', // C's operator, readonly
  'deviceReadonly', // R's customer, deviceReadonly
  'limitCommands', // R's customer, limitCommands
  'disabled', // S's customer, disabled (comes with a Bearer token it made before: refused)
  'expired', // S's customer, expirationTime in the past (comes with a session opened before: refused)
  'shared', // a share visitor of C's first vehicle (isShared, expiring)
  'driver', // C's QR driver (tarkan.isQrDriverId), linked to C's second vehicle
  'anonymous', // no credentials at all
] as const;

export type Role = (typeof ROLES)[number];
export type SignedInRole = Exclude<Role, 'anonymous'>;

/** Ids the answer must hold, read from the fixture world. */
export type Ids = (w: World) => number[];

/**
 * What a role gets:
 * - 'ok': any 2xx;
 * - 'denied': a refusal, any 4xx except 401 (the caller is known but may not);
 * - 'unauth': 401 (no valid credentials: signed out, disabled, expired);
 * - a number: exactly that status;
 * - { ids }: 2xx with a JSON array whose items' `id`s are exactly these (lists);
 * - { deviceIds }: 2xx with a JSON array whose items' `deviceId`s, as a set, are exactly these
 *   (positions, reports, the socket's first message);
 * - { id }: 2xx with a JSON object of this `id`;
 * - { keys }: 2xx with a JSON object whose keys are exactly these ids (maps by id).
 */
export type Outcome = 'ok' | 'denied' | 'unauth' | number | { ids: Ids } | { deviceIds: Ids } | { id: (w: World) => number } | { keys: Ids };

export type Expect = Record<Role, Outcome>;

export const OK = 'ok' as const;
export const NO = 'denied' as const;
export const OUT = 'unauth' as const;

export const ids = (fn: Ids): Outcome => ({ ids: fn });
export const deviceIds = (fn: Ids): Outcome => ({ deviceIds: fn });
export const objectId = (fn: (w: World) => number): Outcome => ({ id: fn });
export const keys = (fn: Ids): Outcome => ({ keys: fn });
export const none: Ids = () => [];

/** Routes that need a session: the three roles without valid credentials get 401. */
export const SIGNED_OUT = { disabled: OUT, expired: OUT, anonymous: OUT } as const;

/** Is this outcome a success of some kind? */
export function passes(outcome: Outcome): boolean {
  if (outcome === 'denied' || outcome === 'unauth') return false;
  if (typeof outcome === 'number') return outcome >= 200 && outcome < 300;
  return true;
}

export function describeOutcome(outcome: Outcome): string {
  if (typeof outcome === 'string') return outcome;
  if (typeof outcome === 'number') return String(outcome);
  if ('ids' in outcome) return 'ok (exact ids)';
  if ('deviceIds' in outcome) return 'ok (exact devices)';
  if ('keys' in outcome) return 'ok (exact keys)';
  return 'ok (object)';
}
