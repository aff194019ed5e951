import { describe, expect, it } from 'vitest';
import type { UserRow } from './user-json.ts';
import { encodeAdvancedPerms } from '@rastro/domain/permissions';
import {
  assertCreateAllowed, assertMayTouch, assertReadonlyUpdateAllowed, assertUpdateAllowed, inheritedRestrictions, isSuperior, texts,
  userRestrictionChange, type Grants,
} from './user-rules.ts';
import { parseUserInput } from './user-input.ts';

const row = (fields: Partial<UserRow> = {}): UserRow => ({
  id: 5, name: 'User', login: null, email: 'u@x.com', phone: null, readonly: 0, administrator: 0, map: null, latitude: 0,
  longitude: 0, zoom: 0, twelveHourFormat: 0, coordinateFormat: null, disabled: 0, expirationTime: null, deviceLimit: -1,
  userLimit: 0, deviceReadonly: 0, limitCommands: 0, disableReports: 0, fixedEmail: 0, poiLayer: null, temporary: 0,
  totpKey: null, hashedPassword: null, salt: null, attributes: '{}', ...fields,
});
const open = { readonly: 0, deviceReadonly: 0 };
const throws = (fn: () => void): string => {
  try {
    fn();
    return 'ok';
  } catch (error) {
    return (error as Error).message.split(' - ')[0]!;
  }
};

describe('user rules', () => {
  it('recognises superior administrators by lower id', () => {
    expect(isSuperior(row({ id: 5, administrator: 1 }), row({ id: 1, administrator: 1 }))).toBe(true);
    expect(isSuperior(row({ id: 1, administrator: 1 }), row({ id: 5, administrator: 1 }))).toBe(false);
    expect(isSuperior(row({ id: 5 }), row({ id: 1 }))).toBe(false);
    expect(throws(() => assertMayTouch(row({ id: 5, administrator: 1 }), row({ id: 1, administrator: 1 })))).toBe('Superior administrator');
    expect(throws(() => assertMayTouch(row({ id: 1, userLimit: 3 }), row({ id: 9, administrator: 1 })))).toBe('User access denied');
    expect(throws(() => assertMayTouch(row({ id: 5, administrator: 1 }), row({ id: 5, administrator: 1 })))).toBe('ok');
  });

  it('lets a readonly user change only push tokens and terms on themselves', () => {
    const me = row({ readonly: 1, attributes: '{"a":1}' });
    const tokens = parseUserInput({ name: 'User', attributes: { a: 1, notificationTokens: 't', termsAccepted: true } });
    expect(throws(() => assertReadonlyUpdateAllowed(me, open, me, tokens.values, null))).toBe('ok');
    const rename = parseUserInput({ name: 'Other', attributes: { a: 1 } });
    expect(throws(() => assertReadonlyUpdateAllowed(me, open, me, rename.values, null))).toBe('Account is readonly');
    expect(throws(() => assertReadonlyUpdateAllowed(me, open, me, tokens.values, 'newpass'))).toBe('Account is readonly');
    expect(throws(() => assertReadonlyUpdateAllowed(me, open, row({ id: 6 }), tokens.values, null))).toBe('Account is readonly');
    expect(throws(() => assertReadonlyUpdateAllowed(row(), { readonly: 1, deviceReadonly: 0 }, row(), rename.values, null))).toBe('Account is readonly');
  });

  it('keeps limits for administrators and restrictions away from the user themselves', () => {
    const me = row();
    expect(throws(() => assertUpdateAllowed(me, me, parseUserInput({ deviceLimit: 3 }).values))).toBe('Administrator access required');
    expect(throws(() => assertUpdateAllowed(me, me, parseUserInput({ deviceLimit: -1, zoom: 4 }).values))).toBe('ok');
    expect(throws(() => assertUpdateAllowed(me, me, parseUserInput({ disabled: true }).values))).toBe('Administrator access required');
    const manager = row({ id: 2, userLimit: 5, expirationTime: 2_000 });
    expect(throws(() => assertUpdateAllowed(manager, me, parseUserInput({ readonly: true }).values))).toBe('ok');
    expect(throws(() => assertUpdateAllowed(manager, me, parseUserInput({ expirationTime: '2099-01-01T00:00:00Z' }).values))).toBe('Expiration time limit');
    expect(throws(() => assertUpdateAllowed(manager, row({ fixedEmail: 1 }), parseUserInput({ email: 'new@x.com' }).values))).toBe('Email is fixed');
    expect(throws(() => assertUpdateAllowed(manager, row({ fixedEmail: 1 }), parseUserInput({ email: 'U@X.com' }).values))).toBe('ok');
  });

  it('keeps a manager off their own restriction, whoever set it', () => {
    const manager = row({ id: 2, userLimit: 5, expirationTime: 2_000 });
    expect(throws(() => assertUpdateAllowed(manager, manager, parseUserInput({ expirationTime: null }).values))).toBe('Administrator access required');
    expect(throws(() => assertUpdateAllowed(manager, manager, parseUserInput({ expirationTime: '2099-01-01T00:00:00Z' }).values))).toBe('Administrator access required');
    expect(throws(() => assertUpdateAllowed(manager, manager, parseUserInput({ disabled: false }).values))).toBe('ok');
  });

  it('lets a manager lift only the restrictions of managed users that no administrator or manager of theirs set', () => {
    const manager = row({ id: 2, userLimit: 5 });
    const decide = (setter: Parameters<typeof userRestrictionChange>[3]) => {
      try {
        return userRestrictionChange(manager, { disabled: true, expirationTime: null }, { disabled: false, expirationTime: null }, setter);
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(decide({ id: 1, administrator: true, managesCaller: false })).toBe(texts.restrictedBySuperior);
    expect(decide({ id: 3, administrator: false, managesCaller: true })).toBe(texts.restrictedBySuperior);
    expect(decide(null)).toBe(texts.restrictedBySuperior);
    expect(decide({ id: 2, administrator: false, managesCaller: false })).toBeNull();
    expect(decide({ id: 4, administrator: false, managesCaller: false })).toBeNull();
  });

  describe('privileges (issue 13)', () => {
    const perms = (...bits: number[]) => encodeAdvancedPerms(Array.from({ length: 128 }, (_, i) => bits.includes(i)));
    const grants = (g: Partial<Grants> = {}): Grants => ({ devices: null, users: null, perms: null, ...g });
    const code = (fn: () => void) => throws(fn);
    const reseller = row({ id: 2, userLimit: -1, attributes: JSON.stringify({ 'tarkan.reseller': true, 'tarkan.subReseller': true }) });
    const plainManager = row({ id: 3, userLimit: 10 });
    const customer = row({ id: 9, deviceLimit: 0 });

    it('never lets a user change a privilege of their own, columns or attributes', () => {
      const me = row({ id: 4, userLimit: 5, attributes: JSON.stringify({ 'tarkan.reseller': true, 'tarkan.limitReseller': 5 }) });
      for (const fields of [{ administrator: true }, { deviceLimit: 3 }, { userLimit: 9 }, { readonly: true }, { deviceReadonly: true }, { limitCommands: true },
        { disabled: true }, { expirationTime: '2099-01-01T00:00:00Z' }]) {
        expect(code(() => assertUpdateAllowed(me, me, parseUserInput(fields).values, grants())), JSON.stringify(fields)).toBe('Administrator access required');
      }
      for (const attributes of [{ 'tarkan.advancedPerms': perms(8) }, { 'tarkan.reseller': true, 'tarkan.subReseller': true }, { 'tarkan.reseller': false },
        { 'tarkan.reseller': true, 'tarkan.limitReseller': 50 }, { 'tarkan.reseller': true, 'tarkan.limitReseller': 5, 'tarkan.domainReseller': 'me.example.com' }]) {
        expect(code(() => assertUpdateAllowed(me, me, parseUserInput({ attributes }).values, grants())), JSON.stringify(attributes)).toBe('Administrator access required');
      }
      // Sending back what it has, or other attributes, is fine.
      expect(code(() => assertUpdateAllowed(me, me, parseUserInput({ attributes: { 'tarkan.reseller': true, 'tarkan.limitReseller': 5, color: 'red' } }).values))).toBe('ok');
      // Administrators may.
      const admin = row({ id: 1, administrator: 1 });
      expect(code(() => assertUpdateAllowed(admin, admin, parseUserInput({ deviceLimit: 3, attributes: { 'tarkan.reseller': true } }).values))).toBe('ok');
    });

    it('lets a manager give limits only within what its own leave', () => {
      const edit = (fields: Record<string, unknown>, g: Partial<Grants>) => code(() => assertUpdateAllowed(plainManager, customer, parseUserInput(fields).values, grants(g)));
      expect(edit({ deviceLimit: 5 }, { devices: 5 })).toBe('ok');
      expect(edit({ deviceLimit: 6 }, { devices: 5 })).toBe('Limit above your own');
      expect(edit({ deviceLimit: -1 }, { devices: 5 })).toBe('Limit above your own');
      expect(edit({ deviceLimit: -1 }, { devices: null })).toBe('ok');
      expect(edit({ userLimit: 3 }, { users: 2 })).toBe('Limit above your own');
      expect(edit({ userLimit: 2 }, { users: 2 })).toBe('ok');
      expect(edit({ administrator: true }, {})).toBe('Administrator access required');
      // An unchanged limit is not a grant.
      expect(code(() => assertUpdateAllowed(plainManager, row({ id: 9, deviceLimit: 50 }), parseUserInput({ deviceLimit: 50 }).values, grants({ devices: 0 })))).toBe('ok');
    });

    it('lets only resellers allowed sub-resellers set reseller fields, within their capacity', () => {
      const attrs = (a: Record<string, unknown>) => parseUserInput({ attributes: a }).values;
      expect(code(() => assertUpdateAllowed(plainManager, customer, attrs({ 'tarkan.reseller': true }), grants()))).toBe('Reseller access required');
      const notSub = row({ id: 5, userLimit: -1, attributes: JSON.stringify({ 'tarkan.reseller': true }) });
      expect(code(() => assertUpdateAllowed(notSub, customer, attrs({ 'tarkan.reseller': true }), grants()))).toBe('Reseller access required');
      expect(code(() => assertUpdateAllowed(notSub, customer, attrs({ 'tarkan.domainReseller': 'x.example.com' }), grants()))).toBe('Reseller access required');
      expect(code(() => assertUpdateAllowed(reseller, customer, attrs({ 'tarkan.reseller': true, 'tarkan.subReseller': true, 'tarkan.domainReseller': 'sub.example.com' }), grants()))).toBe('ok');
      expect(code(() => assertUpdateAllowed(reseller, customer, attrs({ 'tarkan.reseller': true, 'tarkan.limitReseller': 20 }), grants({ users: 10 })))).toBe('Limit above your own');
      expect(code(() => assertUpdateAllowed(reseller, customer, attrs({ 'tarkan.reseller': true, 'tarkan.limitReseller': 10 }), grants({ users: 10 })))).toBe('ok');
    });

    it('lets a manager hand out only advanced bits it holds', () => {
      const mine = [true, ...Array.from({ length: 127 }, (_, i) => i + 1 === 8 || i + 1 === 13)];
      const give = (value: unknown) => code(() => assertUpdateAllowed(plainManager, customer, parseUserInput({ attributes: value === undefined ? {} : { 'tarkan.advancedPerms': value } }).values, grants({ perms: mine })));
      expect(give(perms(0, 8, 13))).toBe('ok');
      expect(give(perms(8, 14))).toBe('Permissions above your own');
      const withBits = row({ id: 9, attributes: JSON.stringify({ 'tarkan.advancedPerms': perms(8) }) });
      // Removing a user's bits gives it every area: more than the manager has.
      expect(code(() => assertUpdateAllowed(plainManager, withBits, parseUserInput({ attributes: {} }).values, grants({ perms: mine })))).toBe('Permissions above your own');
      // Without bits of its own in effect, a manager may give any.
      expect(code(() => assertUpdateAllowed(plainManager, customer, parseUserInput({ attributes: { 'tarkan.advancedPerms': perms(1, 2, 3) } }).values, grants()))).toBe('ok');
    });

    it('keeps the restrictions a manager has on the users it makes and edits', () => {
      const limited = row({ id: 6, userLimit: 5, deviceReadonly: 1, limitCommands: 1 });
      expect(inheritedRestrictions(limited, parseUserInput({}).values)).toEqual({ deviceReadonly: 1, limitCommands: 1 });
      expect(inheritedRestrictions(limited, parseUserInput({ deviceReadonly: true }).values)).toEqual({ limitCommands: 1 });
      const target = row({ id: 9, deviceReadonly: 1 });
      expect(code(() => assertUpdateAllowed(limited, target, parseUserInput({ deviceReadonly: false }).values))).toBe('Restriction above your own');
      expect(code(() => assertCreateAllowed(limited, { deviceReadonly: 0, limitCommands: 1 }, grants()))).toBe('Restriction above your own');
      expect(code(() => assertCreateAllowed(limited, { deviceReadonly: 1, limitCommands: 1 }, grants()))).toBe('ok');
    });

    it('checks a new user like an update from nothing', () => {
      expect(code(() => assertCreateAllowed(plainManager, { administrator: 1 }, grants()))).toBe('Administrator access required');
      expect(code(() => assertCreateAllowed(plainManager, { deviceLimit: -1 }, grants({ devices: 3 })))).toBe('Limit above your own');
      expect(code(() => assertCreateAllowed(plainManager, { deviceLimit: 0, userLimit: 0 }, grants({ devices: 0, users: 0 })))).toBe('ok');
      expect(code(() => assertCreateAllowed(plainManager, { attributes: '{"tarkan.reseller":true}' }, grants()))).toBe('Reseller access required');
      expect(code(() => assertCreateAllowed(reseller, { attributes: '{"tarkan.reseller":true}' }, grants()))).toBe('ok');
      const expiring = row({ id: 7, userLimit: 5, expirationTime: 5_000 });
      expect(code(() => assertCreateAllowed(expiring, { expirationTime: null }, grants()))).toBe('Expiration time limit');
      expect(code(() => assertCreateAllowed(expiring, { expirationTime: 4_000 }, grants()))).toBe('ok');
    });
  });
});
