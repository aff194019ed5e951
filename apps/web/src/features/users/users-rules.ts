// What the users manager offers the signed-in person (tarkan-reference §3.13.4, §5.2, spec §6):
// each button under its advanced-permission bit, the linking shortcuts under "edit users" plus
// the area of what is linked, and the deletions the spec refuses before anything is sent.
import type { User } from '@rastro/domain/entities';
import { canManageUsers } from '@rastro/domain/menus';
import { hasPermission, isSharedUser, PERMISSION_BITS, type PermissionServer } from '@rastro/domain/permissions';
import { linkedAreaBit, type LinkedType } from '../../ui/collection/link-kinds.ts';

/** The server flags that make every non-administrator read-only (Traccar refuses their writes). */
export interface ServerFlags extends PermissionServer {
  readonly?: boolean;
}

/** The linking shortcuts, in menu order; each needs "edit users" and the area of what it links. */
export const USER_LINKS: readonly LinkedType[] = [
  'devices', 'groups', 'geofences', 'notifications', 'calendars', 'attributes', 'drivers', 'commands', 'maintenance', 'users',
];

export interface UsersAbilities {
  /** May open the manager at all (administrators; managers with the users area). */
  list: boolean;
  add: boolean;
  edit: boolean;
  remove: boolean;
  /** Per-user advanced logs: administrators with the plus licence. */
  logs: boolean;
  links: LinkedType[];
}

export function usersAbilities(me: User, server: ServerFlags): UsersAbilities {
  const can = (bit: number) => hasPermission(me, server, bit);
  const list = canManageUsers({ user: me, server });
  // A read-only account (its own flag or the server's) changes nothing; administrators always may.
  const writes = list && (me.administrator || !(me.readonly || server.readonly === true));
  const edit = writes && can(PERMISSION_BITS.usersEdit);
  return {
    list,
    add: writes && can(PERMISSION_BITS.usersCreate),
    edit,
    remove: writes && can(PERMISSION_BITS.usersDelete),
    logs: list && me.administrator && server.plus,
    links: edit ? USER_LINKS.filter((type) => can(linkedAreaBit(type))) : [],
  };
}

/** An administrator created before `me` (lower id): neither edited nor deleted by `me`. */
export const isSuperiorAdmin = (me: Pick<User, 'id'>, target: Pick<User, 'id' | 'administrator'>): boolean =>
  target.administrator && target.id < me.id;

/** Why `me` may not delete `target` (spec §5: oneself, a superior administrator), or null. */
export function deleteRefusal(me: Pick<User, 'id'>, target: Pick<User, 'id' | 'administrator'>): 'self' | 'superior' | null {
  if (target.id === me.id) return 'self';
  return isSuperiorAdmin(me, target) ? 'superior' : null;
}

/** The manager lists real accounts: share-link visitors (attribute isShared) are left out. */
export const listedUsers = (users: readonly User[]): User[] => users.filter((u) => !isSharedUser(u));

/** Expiration as a sortable number (ms), null when the account never expires or the date is unreadable. */
export function expiryTime(user: Pick<User, 'expirationTime'>): number | null {
  if (!user.expirationTime) return null;
  const at = Date.parse(user.expirationTime);
  return Number.isNaN(at) ? null : at;
}
