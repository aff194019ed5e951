import { describe, expect, it } from 'vitest';
import { SIDE_MENU_IDS, USER_MENU_IDS, type MenuContext } from '@rastro/domain/menus';
import { isMobileLayout, isMobileUserAgent } from './layout.ts';
import { SIDE_MENU_AVAILABLE, USER_MENU_AVAILABLE, visibleSideEntries, visibleUserEntries } from './menu-availability.ts';

const admin: MenuContext = { user: { administrator: true, userLimit: -1, attributes: {} }, server: { plus: true, attributes: { 'tarkan.enableBilling': true } } };
const shared: MenuContext = { user: { administrator: false, attributes: { isShared: true } }, server: { plus: true, attributes: {} } };

describe('menu availability', () => {
  it('has a switch for every entry of the menu rules', () => {
    expect(Object.keys(SIDE_MENU_AVAILABLE).sort()).toEqual([...SIDE_MENU_IDS].sort());
    expect(Object.keys(USER_MENU_AVAILABLE).sort()).toEqual([...USER_MENU_IDS].sort());
  });

  it('shows only entries whose screens exist (today: sign-out; devices and reports in the side menu)', () => {
    expect(visibleUserEntries(admin)).toEqual([{ id: 'logout' }]);
    expect(visibleUserEntries(shared)).toEqual([{ id: 'logout' }]);
    expect(visibleSideEntries(admin).map((e) => e.id)).toEqual(['devices', 'reports']);
    expect(visibleSideEntries(shared)).toEqual([]);
  });

  it('intersects availability with the permission rules', () => {
    const all = { ...USER_MENU_AVAILABLE, account: true, server: true, logs: true };
    expect(visibleUserEntries(admin, all).map((e) => e.id)).toEqual(['account', 'logs', 'server', 'logout']);
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
