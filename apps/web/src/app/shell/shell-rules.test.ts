import { describe, expect, it } from 'vitest';
import { SIDE_MENU_IDS, USER_MENU_IDS, type MenuContext } from '@rastro/domain/menus';
import { isMobileLayout, isMobileUserAgent } from './layout.ts';
import { SIDE_MENU_AVAILABLE, USER_MENU_AVAILABLE, USER_MENU_DIALOGS, visibleSideEntries, visibleUserEntries } from './menu-availability.ts';
import { DIALOGS } from './shell-dialogs-host.tsx';

const admin: MenuContext = { user: { administrator: true, userLimit: -1, attributes: {} }, server: { plus: true, attributes: { 'tarkan.enableBilling': true } } };
const shared: MenuContext = { user: { administrator: false, attributes: { isShared: true } }, server: { plus: true, attributes: {} } };

describe('menu availability', () => {
  it('has a switch for every entry of the menu rules', () => {
    expect(Object.keys(SIDE_MENU_AVAILABLE).sort()).toEqual([...SIDE_MENU_IDS].sort());
    expect(Object.keys(USER_MENU_AVAILABLE).sort()).toEqual([...USER_MENU_IDS].sort());
  });

  it('shows only entries whose screens exist (today: my account, logs, users, server, calendars, reseller, sign-out; devices and reports in the side menu)', () => {
    expect(visibleUserEntries(admin).map((e) => e.id)).toEqual(['account', 'logs', 'users', 'server', 'calendars', 'reseller', 'logout']);
    expect(visibleUserEntries(shared)).toEqual([{ id: 'logout' }]);
    expect(visibleSideEntries(admin).map((e) => e.id)).toEqual(['devices', 'reports']);
    expect(visibleSideEntries(shared)).toEqual([]);
  });

  it('gives a reseller its users and reseller entries, a customer neither, a shared user only sign-out', () => {
    const server = { plus: true, attributes: {} };
    const reseller: MenuContext = { user: { administrator: false, userLimit: 10, attributes: { 'tarkan.reseller': true } }, server };
    const customer: MenuContext = { user: { administrator: false, userLimit: 0, attributes: {} }, server };
    const sharedManager: MenuContext = { user: { administrator: false, userLimit: 10, attributes: { isShared: true, 'tarkan.reseller': true } }, server };
    expect(visibleUserEntries(reseller).map((e) => e.id)).toEqual(['account', 'users', 'calendars', 'reseller', 'logout']);
    expect(visibleUserEntries(customer).map((e) => e.id)).not.toContain('users');
    expect(visibleUserEntries(customer).map((e) => e.id)).not.toContain('reseller');
    expect(visibleUserEntries(sharedManager)).toEqual([{ id: 'logout' }]);
  });

  it('registers a dialog for every available entry that opens one', () => {
    for (const [id, dialog] of Object.entries(USER_MENU_DIALOGS)) {
      if (USER_MENU_AVAILABLE[id as keyof typeof USER_MENU_AVAILABLE]) expect(DIALOGS[dialog.kind], id).toBeDefined();
    }
  });

  it('intersects availability with the permission rules', () => {
    const all = { ...USER_MENU_AVAILABLE, account: true, server: true, logs: true };
    expect(visibleUserEntries(admin, all).map((e) => e.id)).toEqual(['account', 'logs', 'users', 'server', 'calendars', 'reseller', 'logout']);
    expect(visibleUserEntries(shared, all).map((e) => e.id)).toEqual(['logout']);
    const side = { ...SIDE_MENU_AVAILABLE, devices: true, notifications: true };
    expect(visibleSideEntries(admin, side).map((e) => e.id)).toEqual(['devices', 'reports', 'notifications']);
    expect(visibleSideEntries(shared, side)).toEqual([]);
  });
});

describe('layout', () => {
  it('is mobile at 768 px or less, or on a mobile browser', () => {
    expect(isMobileLayout(768, 'Mozilla/5.0 (X11; Linux x86_64)')).toBe(true);
    expect(isMobileLayout(769, 'Mozilla/5.0 (X11; Linux x86_64)')).toBe(false);
    expect(isMobileLayout(1280, 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) Mobile/15E148')).toBe(true);
    expect(isMobileUserAgent('Mozilla/5.0 (Linux; Android 14; Pixel 8)')).toBe(true);
    expect(isMobileUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/130')).toBe(false);
  });
});
