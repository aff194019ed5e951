// Which menu entries have a screen yet — the ONE place to switch an entry on when its screen
// lands (set it to true, and give user-menu entries their route in USER_MENU_ROUTES).
// Who may see an entry is decided by packages/domain/src/menus.ts; the shell shows an entry only
// when both agree, so no entry ever leads to a screen that does not exist.
import {
  sideMenuEntries, userMenuEntries, type MenuContext, type SideMenuEntry, type SideMenuId, type UserMenuEntry, type UserMenuId,
} from '@rastro/domain/menus';

export const SIDE_MENU_AVAILABLE: Record<SideMenuId, boolean> = {
  devices: true,
  reports: true,
  geofence: false,
  commands: false,
  groups: false,
  notifications: false,
};

export const USER_MENU_AVAILABLE: Record<UserMenuId, boolean> = {
  account: false,
  logs: false,
  integrations: false,
  billing: false,
  invoices: false,
  theme: false,
  users: false,
  computedAttributes: false,
  server: false,
  notifications: false,
  events: false,
  drivers: false,
  calendars: false,
  maintenance: false,
  reseller: false,
  logout: true,
};

/** Where a user-menu entry leads once available (routes of spec §2; dialogs add theirs). */
export const USER_MENU_ROUTES: Partial<Record<UserMenuId, string>> = {
  users: '/users',
  computedAttributes: '/computed',
  notifications: '/notifications',
};

export function visibleSideEntries(ctx: MenuContext, available = SIDE_MENU_AVAILABLE): SideMenuEntry[] {
  return sideMenuEntries(ctx).filter((e) => available[e.id]);
}

export function visibleUserEntries(ctx: MenuContext, available = USER_MENU_AVAILABLE): UserMenuEntry[] {
  return userMenuEntries(ctx).filter((e) => available[e.id]);
}
