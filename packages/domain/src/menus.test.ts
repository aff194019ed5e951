import { describe, expect, it } from 'vitest';
import { encodeAdvancedPerms, PERMISSION_BITS } from './permissions.ts';
import {
  canManageUsers, isBillingEnabled, isReseller, sideMenuEntries, SIDE_MENU_IDS, userMenuEntries, USER_MENU_IDS,
  type MenuContext, type MenuUser,
} from './menus.ts';
import type { PermissionServer } from './permissions.ts';

const perms = (...bits: number[]) => encodeAdvancedPerms(Array.from({ length: 128 }, (_, i) => bits.includes(i)));

const basic: PermissionServer = { plus: false, attributes: {} };
const plus: PermissionServer = { plus: true, attributes: {} };
const plusPerms: PermissionServer = { plus: true, attributes: { 'tarkan.enableAdvancedPerms': true } };
const plusBilling: PermissionServer = { plus: true, attributes: { 'tarkan.enableBilling': true } };
const basicBilling: PermissionServer = { plus: false, attributes: { 'tarkan.enableBilling': 'true' } };

const adminUser: MenuUser = { administrator: true, userLimit: 0, attributes: {} };
const regular: MenuUser = { administrator: false, userLimit: 0, attributes: {} };
const shared: MenuUser = { administrator: false, userLimit: 0, attributes: { isShared: true } };
const driver: MenuUser = { administrator: false, userLimit: 0, attributes: { 'tarkan.isQrDriverId': 'D1' } };
const withBits = (...bits: number[]): MenuUser => ({ ...regular, attributes: { 'tarkan.advancedPerms': perms(...bits) } });

const side = (user: MenuUser, server: PermissionServer) => sideMenuEntries({ user, server }).map((e) => e.id);
const menu = (user: MenuUser, server: PermissionServer) => userMenuEntries({ user, server }).map((e) => e.id);
const has = (user: MenuUser, server: PermissionServer, id: string) => menu(user, server).includes(id as never);

describe('side menu (spec §2)', () => {
  it('gives administrators every entry, in order, with its route', () => {
    expect(sideMenuEntries({ user: adminUser, server: plusPerms })).toEqual([
      { id: 'devices', path: '/devices' },
      { id: 'reports', path: '/reports' },
      { id: 'geofence', path: '/geofence' },
      { id: 'commands', path: '/commands' },
      { id: 'groups', path: '/groups' },
      { id: 'notifications', path: '/notifications' },
    ]);
  });

  it('gives everyone every entry without the plus licence', () => {
    expect(side(regular, basic)).toEqual([...SIDE_MENU_IDS]);
  });

  it.each([
    ['devices', PERMISSION_BITS.devices, 8],
    ['reports', PERMISSION_BITS.reports, 72],
    ['geofence', PERMISSION_BITS.geofences, 40],
    ['commands', PERMISSION_BITS.commands, 56],
    ['groups', PERMISSION_BITS.groups, 48],
  ])('shows %s only with bit %i under advanced permissions', (id, bitIndex, expected) => {
    expect(bitIndex).toBe(expected);
    expect(side(withBits(bitIndex), plusPerms)).toEqual([id, 'notifications']);
    expect(side(withBits(), plusPerms)).not.toContain(id);
  });

  it('always shows notifications, even with no bit at all', () => {
    expect(side(withBits(), plusPerms)).toEqual(['notifications']);
  });

  it('gives shared users and QR drivers no side menu', () => {
    expect(side(shared, basic)).toEqual([]);
    expect(side({ ...shared, attributes: { isShared: true, 'tarkan.advancedPerms': perms(8, 72) } }, plusPerms)).toEqual([]);
    expect(side(driver, basic)).toEqual([]);
  });
});

describe('user menu (spec §2, §6)', () => {
  it('lists the administrator entries in the spec order (plus, billing on)', () => {
    expect(menu({ ...adminUser, userLimit: -1 }, { plus: true, attributes: { 'tarkan.enableBilling': true } })).toEqual([...USER_MENU_IDS]);
  });

  it('gives shared users only logout, whatever their flags', () => {
    expect(menu(shared, basic)).toEqual(['logout']);
    expect(menu({ ...shared, administrator: true, attributes: { isShared: '1' } }, plusBilling)).toEqual(['logout']);
    expect(menu(driver, plusBilling)).toEqual(['logout']);
  });

  it('always has my account and logout (first and last)', () => {
    for (const server of [basic, plus, plusPerms]) {
      const entries = menu(withBits(), server);
      expect(entries[0]).toBe('account');
      expect(entries.at(-1)).toBe('logout');
    }
  });

  it('logs: administrator with plus only', () => {
    expect(has(adminUser, plus, 'logs')).toBe(true);
    expect(has(adminUser, basic, 'logs')).toBe(false);
    expect(has(regular, plus, 'logs')).toBe(false);
  });

  it('integrations and billing management: administrator, plus and billing enabled', () => {
    for (const id of ['integrations', 'billing']) {
      expect(has(adminUser, plusBilling, id)).toBe(true);
      expect(has(adminUser, plus, id)).toBe(false);
      expect(has(adminUser, basicBilling, id)).toBe(false);
      expect(has(regular, plusBilling, id)).toBe(false);
    }
  });

  it('my invoices: whenever billing is enabled', () => {
    expect(has(regular, basicBilling, 'invoices')).toBe(true);
    expect(has(regular, plusBilling, 'invoices')).toBe(true);
    expect(has(adminUser, plus, 'invoices')).toBe(false);
    expect(has(regular, { plus: true, attributes: { 'tarkan.enableBilling': false } }, 'invoices')).toBe(false);
    expect(isBillingEnabled({ plus: false, attributes: { 'tarkan.enableBilling': 'false' } })).toBe(false);
    expect(isBillingEnabled({ plus: false })).toBe(false);
  });

  it('theme: administrator with plus only', () => {
    expect(has(adminUser, plus, 'theme')).toBe(true);
    expect(has(adminUser, basic, 'theme')).toBe(false);
    expect(has(regular, plus, 'theme')).toBe(false);
  });

  it('users: bit 16 and (administrator, userLimit -1 or above 0)', () => {
    expect(has(adminUser, plusPerms, 'users')).toBe(true);
    expect(has({ ...regular, userLimit: -1 }, basic, 'users')).toBe(true);
    expect(has({ ...regular, userLimit: 5 }, basic, 'users')).toBe(true);
    expect(has({ ...regular, userLimit: 0 }, basic, 'users')).toBe(false);
    expect(has({ ...regular, userLimit: undefined }, basic, 'users')).toBe(false);
    expect(has({ ...withBits(PERMISSION_BITS.users), userLimit: 3 }, plusPerms, 'users')).toBe(true);
    expect(has({ ...withBits(), userLimit: 3 }, plusPerms, 'users')).toBe(false);
    expect(canManageUsers({ user: { ...withBits(16), userLimit: 0 }, server: plusPerms })).toBe(false);
  });

  it('server: administrators only', () => {
    expect(has(adminUser, basic, 'server')).toBe(true);
    expect(has(regular, basic, 'server')).toBe(false);
  });

  it.each([
    ['computedAttributes', 64],
    ['notifications', 32],
    ['events', 36],
    ['drivers', 80],
    ['calendars', 88],
    ['maintenance', 96],
  ] as const)('%s follows bit %i', (id, bitIndex) => {
    expect(has(withBits(bitIndex), plusPerms, id)).toBe(true);
    expect(has(withBits(), plusPerms, id)).toBe(false);
    // Without advanced permissions (or without plus) the ordered check lets users pass.
    expect(has(regular, plus, id)).toBe(true);
    expect(has(regular, basic, id)).toBe(true);
    expect(has(adminUser, plusPerms, id)).toBe(true);
    // The one bit does not grant its neighbours.
    const others = menu(withBits(bitIndex), plusPerms).filter((e) => !['account', 'logout', id].includes(e));
    expect(others).toEqual([]);
  });

  it('reseller: plus, and administrator or the tarkan.reseller attribute', () => {
    const reseller: MenuUser = { ...regular, userLimit: -1, attributes: { 'tarkan.reseller': true } };
    expect(has(adminUser, plus, 'reseller')).toBe(true);
    expect(has(adminUser, basic, 'reseller')).toBe(false);
    expect(has(regular, basic, 'reseller')).toBe(false);
    expect(has(regular, plus, 'reseller')).toBe(false);
    expect(has(reseller, plus, 'reseller')).toBe(true);
    expect(has(reseller, plusPerms, 'reseller')).toBe(true);
    expect(has(reseller, basic, 'reseller')).toBe(false);
    // Only a real true counts; the sub-reseller flag alone is not a reseller.
    expect(has({ ...reseller, attributes: { 'tarkan.reseller': 'true' } }, plus, 'reseller')).toBe(false);
    expect(isReseller({ user: { ...regular, attributes: { 'tarkan.subReseller': true } }, server: plus } as MenuContext)).toBe(false);
    // The old advanced bits 104/105 grant nothing.
    expect(has(withBits(PERMISSION_BITS.reseller, PERMISSION_BITS.subReseller), plusPerms, 'reseller')).toBe(false);
    // Shared users and QR drivers never, even flagged.
    expect(has({ ...shared, attributes: { isShared: true, 'tarkan.reseller': true } }, plus, 'reseller')).toBe(false);
  });

  it('gives a regular user on a basic server every bit-based entry but no admin or billing ones', () => {
    expect(menu({ ...regular, userLimit: -1 }, basic)).toEqual([
      'account', 'users', 'computedAttributes', 'notifications', 'events', 'drivers', 'calendars', 'maintenance', 'logout',
    ]);
  });
});
