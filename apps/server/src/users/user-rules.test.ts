import { describe, expect, it } from 'vitest';
import type { UserRow } from './user-json.ts';
import { assertMayTouch, assertReadonlyUpdateAllowed, assertUpdateAllowed, isSuperior, texts, userRestrictionChange } from './user-rules.ts';
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
});
