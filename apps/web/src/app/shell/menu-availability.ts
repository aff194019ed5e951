// Which menu entries have a screen yet — the ONE place to switch an entry on when its screen
// lands (set it to true, and give user-menu entries their route in USER_MENU_ROUTES).
// Who may see an entry is decided by packages/domain/src/menus.ts; the shell shows an entry only
// when both agree, so no entry ever leads to a screen that does not exist.
import {
  sideMenuEntries, userMenuEntries, type MenuContext, type SideMenuEntry, type SideMenuId, type UserMenuEntry, type UserMenuId,
} from '@rastro/domain/menus';
import type { ShellDialog } from './shell-dialogs.ts';

export const SIDE_MENU_AVAILABLE: Record<SideMenuId, boolean> = {
  devices: true,
  reports: true,
  geofence: false,
  commands: false,
  groups: false,
  notifications: false,
};

export const USER_MENU_AVAILABLE: Record<UserMenuId, boolean> = {
  account: true,
  logs: true,
  integrations: false,
  billing: false,
  invoices: false,
  theme: false,
  users: true,
  computedAttributes: false,
  server: true,
  notifications: false,
  events: false,
  drivers: false,
  calendars: true,
  maintenance: false,
  reseller: true,
  logout: true,
};

/** Where a user-menu entry leads once available (routes of spec §2; dialogs in USER_MENU_DIALOGS). */
export const USER_MENU_ROUTES: Partial<Record<UserMenuId, string>> = {
  users: '/users',
  computedAttributes: '/computed',
  notifications: '/notifications',
};

/** The user-menu entries that open a shell dialog (shell-dialogs.ts) instead of a route. */
export const USER_MENU_DIALOGS: Partial<Record<UserMenuId, ShellDialog>> = {
  account: { kind: 'account' },
  logs: { kind: 'logs', scope: { kind: 'all' } },
  server: { kind: 'server' },
  reseller: { kind: 'reseller' },
  calendars: { kind: 'calendars' },
};

export function visibleSideEntries(ctx: MenuContext, available = SIDE_MENU_AVAILABLE): SideMenuEntry[] {
  return sideMenuEntries(ctx).filter((e) => available[e.id]);
}

export function visibleUserEntries(ctx: MenuContext, available = USER_MENU_AVAILABLE): UserMenuEntry[] {
  return userMenuEntries(ctx).filter((e) => available[e.id]);
}
