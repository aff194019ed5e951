// Which menu entries a signed-in person gets (spec §2 "Menus", §6). The one place that
// decides it: the shell draws whatever these functions return (and hides entries whose
// screen does not exist yet), so every rule here has a unit test.
import { hasPermission, isQrDriver, isSharedUser, PERMISSION_BITS, type PermissionServer } from './permissions.ts';
import { isResellerUser } from './resellers.ts';

export interface MenuUser {
  administrator?: boolean;
  /** -1 = unlimited, 0 = may not manage users, n > 0 = may create up to n. */
  userLimit?: number;
  attributes?: Record<string, unknown>;
}

export interface MenuContext {
  user: MenuUser;
  /** Licence mode (`licensemode` header: plus) and the server's attributes. */
  server: PermissionServer;
}

export type SideMenuId = 'devices' | 'reports' | 'geofence' | 'commands' | 'groups' | 'notifications';

export type UserMenuId =
  | 'account'
  | 'logs'
  | 'integrations'
  | 'billing'
  | 'invoices'
  | 'theme'
  | 'users'
  | 'computedAttributes'
  | 'server'
  | 'notifications'
  | 'events'
  | 'drivers'
  | 'calendars'
  | 'maintenance'
  | 'reseller'
  | 'logout';

export interface SideMenuEntry {
  id: SideMenuId;
  /** The route it opens (spec §2 route table). */
  path: string;
}

export interface UserMenuEntry {
  id: UserMenuId;
}

const truthy = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';

/** Server attribute `tarkan.enableBilling`: invoices, billing management and integrations. */
export const isBillingEnabled = (server: PermissionServer): boolean => truthy(server.attributes?.['tarkan.enableBilling']);

/** Visitors of a share link and QR drivers get no navigation at all. */
const isRestricted = (user: MenuUser) => isSharedUser(user) || isQrDriver(user);

const SIDE_MENU: ReadonlyArray<{ id: SideMenuId; path: string; bit: number | null }> = [
  { id: 'devices', path: '/devices', bit: PERMISSION_BITS.devices },
  { id: 'reports', path: '/reports', bit: PERMISSION_BITS.reports },
  { id: 'geofence', path: '/geofence', bit: PERMISSION_BITS.geofences },
  { id: 'commands', path: '/commands', bit: PERMISSION_BITS.commands },
  { id: 'groups', path: '/groups', bit: PERMISSION_BITS.groups },
  // Always shown (to everyone who has a side menu).
  { id: 'notifications', path: '/notifications', bit: null },
];

/** Side menu, in order: each entry when its area bit passes; notifications always; none for shared users. */
export function sideMenuEntries({ user, server }: MenuContext): SideMenuEntry[] {
  if (isRestricted(user)) return [];
  return SIDE_MENU.filter((e) => e.bit === null || hasPermission(user, server, e.bit)).map(({ id, path }) => ({ id, path }));
}

/**
 * Users are managed by administrators, and by people with the users bit whose userLimit lets
 * them have users (-1 unlimited or above 0).
 */
export function canManageUsers({ user, server }: MenuContext): boolean {
  if (!hasPermission(user, server, PERMISSION_BITS.users)) return false;
  const limit = user.userLimit ?? 0;
  return user.administrator === true || limit === -1 || limit > 0;
}

/**
 * Resellers are a plus feature granted explicitly: administrators, or a user flagged with the
 * `tarkan.reseller` attribute (resellers.ts). Nothing grants it by default: no plus licence, or
 * no flag, makes no one a reseller, and advanced permission bits play no part.
 */
export function isReseller({ user, server }: MenuContext): boolean {
  if (!server.plus || isRestricted(user)) return false;
  return user.administrator === true || isResellerUser(user);
}

type Rule = (ctx: MenuContext) => boolean;

const bit = (n: number): Rule => ({ user, server }) => hasPermission(user, server, n);
const admin: Rule = ({ user }) => user.administrator === true;
const adminPlus: Rule = (ctx) => admin(ctx) && ctx.server.plus;

/** User menu, in the spec's order, each with its condition. */
const USER_MENU: ReadonlyArray<{ id: UserMenuId; allowed: Rule }> = [
  { id: 'account', allowed: () => true },
  { id: 'logs', allowed: adminPlus },
  { id: 'integrations', allowed: (ctx) => adminPlus(ctx) && isBillingEnabled(ctx.server) },
  { id: 'billing', allowed: (ctx) => adminPlus(ctx) && isBillingEnabled(ctx.server) },
  { id: 'invoices', allowed: (ctx) => isBillingEnabled(ctx.server) },
  { id: 'theme', allowed: adminPlus },
  { id: 'users', allowed: canManageUsers },
  { id: 'computedAttributes', allowed: bit(PERMISSION_BITS.computedAttributes) },
  { id: 'server', allowed: admin },
  { id: 'notifications', allowed: bit(PERMISSION_BITS.notifications) },
  { id: 'events', allowed: bit(PERMISSION_BITS.events) },
  { id: 'drivers', allowed: bit(PERMISSION_BITS.drivers) },
  { id: 'calendars', allowed: bit(PERMISSION_BITS.calendars) },
  { id: 'maintenance', allowed: bit(PERMISSION_BITS.maintenance) },
  { id: 'reseller', allowed: isReseller },
  { id: 'logout', allowed: () => true },
];

/** The user menu entries this person may see; shared users (and QR drivers) only get logout. */
export function userMenuEntries(ctx: MenuContext): UserMenuEntry[] {
  if (isRestricted(ctx.user)) return [{ id: 'logout' }];
  return USER_MENU.filter((e) => e.allowed(ctx)).map(({ id }) => ({ id }));
}

/** Every id in menu order (for the shell's availability table and its tests). */
export const SIDE_MENU_IDS: readonly SideMenuId[] = SIDE_MENU.map((e) => e.id);
export const USER_MENU_IDS: readonly UserMenuId[] = USER_MENU.map((e) => e.id);
