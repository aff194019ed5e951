import { describe, expect, it } from 'vitest';
import type { User } from '@rastro/domain/entities';
import { encodeAdvancedPerms, PERMISSION_BITS as B } from '@rastro/domain/permissions';
import { editorAccess, isSuperiorAdmin } from './editor-rules.ts';
import { allGranted, EDITABLE_BITS, PERMISSION_TREE, toggle } from './permission-tree.ts';
import { tabOf } from './form-tabs.ts';

const u = (id: number, fields: Partial<User> = {}) => ({ id, administrator: false, userLimit: 0, attributes: {}, ...fields }) as User;
const plain = { plus: false, attributes: {} };
const advanced = { plus: true, attributes: { 'tarkan.enableAdvancedPerms': true } };

describe('who may change what in the user editor', () => {
  it('a superior administrator (lower id) is locked; a later one is not; a manager may not touch administrators', () => {
    const admin = u(5, { administrator: true });
    expect(isSuperiorAdmin(admin, u(2, { administrator: true }))).toBe(true);
    expect(editorAccess(admin, u(2, { administrator: true }), plain)).toMatchObject({ lock: 'superior', account: false, restrictions: false, limits: false });
    expect(editorAccess(admin, u(9, { administrator: true }), plain)).toMatchObject({ lock: null, account: true, administrator: true });
    expect(editorAccess(u(7, { userLimit: 3 }), u(9, { administrator: true }), plain).lock).toBe('administrator');
  });

  it('on oneself: details yes, privileges no (administrators keep theirs, but never the administrator switch)', () => {
    const manager = u(7, { userLimit: 3, attributes: { 'tarkan.reseller': true, 'tarkan.subReseller': true } });
    expect(editorAccess(manager, manager, plain)).toMatchObject({
      self: true, account: true, administrator: false, restrictions: false, limits: false, resellerShown: true, reseller: false, advanced: false,
      billing: false, token: true,
    });
    const admin = u(5, { administrator: true });
    expect(editorAccess(admin, admin, plain)).toMatchObject({ administrator: false, restrictions: true, limits: true, reseller: true, billing: true });
  });

  it('a manager over its users: restrictions and limits, no administrator switch; resellers only when allowed sub-resellers', () => {
    const manager = u(7, { userLimit: 3 });
    expect(editorAccess(manager, u(20), plain)).toMatchObject({ administrator: false, restrictions: true, limits: true, resellerShown: false, token: false });
    expect(editorAccess(manager, null, plain)).toMatchObject({ self: false, lock: null, account: true });
  });

  it('the self-edit bit guards one\'s own details when advanced permissions apply', () => {
    const none = u(7, { attributes: { 'tarkan.advancedPerms': encodeAdvancedPerms([]) } });
    expect(editorAccess(none, none, advanced)).toMatchObject({ account: false, advancedShown: true });
    const flags = Array.from({ length: 128 }, (_, i) => i === B.selfEdit);
    const allowed = u(7, { attributes: { 'tarkan.advancedPerms': encodeAdvancedPerms(flags) } });
    expect(editorAccess(allowed, allowed, advanced).account).toBe(true);
    expect(editorAccess(allowed, allowed, { ...advanced, plus: false }).advancedShown).toBe(false);
  });

  it('each field lives on one tab', () => {
    expect(['name', 'latitude', 'city', 'deviceLimit', 'billingPrice', 'telegramChatId', 'advancedPerms'].map(tabOf))
      .toEqual(['account', 'preferences', 'address', 'permissions', 'billing', 'communication', 'permissions']);
  });
});

describe('the permission tree (tarkan-reference §5.1)', () => {
  it('nests each area\'s actions under it', () => {
    const byName = Object.fromEntries(PERMISSION_TREE.map((a) => [a.name, a.actions.map((x) => `${x.action}:${x.bit}`)]));
    expect(byName.devices).toEqual(['anchor:9', 'lock:10', 'unlock:11', 'command:12', 'create:13', 'edit:14', 'delete:15']);
    expect(byName.reports).toEqual(['route:73', 'stops:74', 'trips:75', 'events:76']);
    expect(byName.computedAttributes).toEqual(['create:65', 'edit:66', 'delete:67']);
    expect(PERMISSION_TREE.map((a) => a.bit)).toEqual([8, 16, 24, 32, 36, 40, 48, 56, 64, 72, 80, 88, 96]);
  });

  it('all granted means every shown switch; an area turned off takes its actions', () => {
    const all = allGranted();
    expect(all.filter(Boolean)).toHaveLength(EDITABLE_BITS.length);
    expect(all[B.reseller]).toBe(false);
    const off = toggle(all, B.devices, false);
    expect([B.devices, B.devicesLock, B.devicesDelete].map((b) => off[b])).toEqual([false, false, false]);
    expect(off[B.users]).toBe(true);
    expect(toggle(off, B.devices, true)[B.devicesLock]).toBe(false);
  });
});
