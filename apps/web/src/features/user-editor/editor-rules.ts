// Which parts of the user editor the signed-in user may change (tarkan-reference §3.13.3,
// §5.2; issue 13 item 5). The server enforces the same rules (apps/server/src/users); here
// they decide what is shown, what is disabled and when saving is refused before asking.
import type { User } from '@rastro/domain/entities';
import { hasPermission, PERMISSION_BITS, type PermissionServer } from '@rastro/domain/permissions';
import { maySetResellerFields } from '@rastro/domain/resellers';

/** Why an object may not be saved at all. */
export type EditorLock = 'superior' | 'administrator' | null;

export interface EditorAccess {
  /** Editing one's own account. */
  self: boolean;
  lock: EditorLock;
  /** Name, e-mail, phone, password (on oneself: needs the self-edit bit). */
  account: boolean;
  /** The administrator switch: administrators on others only. */
  administrator: boolean;
  /** disabled, readonly, device readonly, limit commands, expiration: never on oneself unless administrator. */
  restrictions: boolean;
  /** Device and user limits: administrators, and managers on the users below them. */
  limits: boolean;
  /** The reseller block is shown (administrators, resellers allowed sub-resellers)… */
  resellerShown: boolean;
  /** …and may be changed (never on oneself unless administrator). */
  reseller: boolean;
  /** The advanced permission editor exists (plus licence, server switch on); the target must also not be an administrator. */
  advancedShown: boolean;
  advanced: boolean;
  /** Billing settings: administrators. */
  billing: boolean;
  /** A login token can be made for oneself only (the API issues tokens to the caller). */
  token: boolean;
}

const truthy = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';

/** "Superior administrator": an administrator created before the caller (lower id), not the caller. */
export function isSuperiorAdmin(caller: Pick<User, 'id'>, target: Pick<User, 'id' | 'administrator'>): boolean {
  return target.administrator && target.id < caller.id;
}

export function editorAccess(caller: User, target: User | null, server: PermissionServer): EditorAccess {
  const self = target !== null && target.id === caller.id;
  const admin = caller.administrator;
  let lock: EditorLock = null;
  if (target && !self && target.administrator) lock = !admin ? 'administrator' : isSuperiorAdmin(caller, target) ? 'superior' : null;
  const open = lock === null;
  const overOthers = open && (admin || !self);
  const resellerShown = maySetResellerFields(caller);
  return {
    self,
    lock,
    account: open && (!self || hasPermission(caller, server, PERMISSION_BITS.selfEdit)),
    administrator: open && admin && !self,
    restrictions: overOthers,
    limits: open && (admin || (!self && caller.userLimit !== 0)),
    resellerShown,
    reseller: resellerShown && overOthers,
    advancedShown: server.plus && truthy(server.attributes?.['tarkan.enableAdvancedPerms']),
    advanced: overOthers,
    billing: admin,
    token: self,
  };
}
