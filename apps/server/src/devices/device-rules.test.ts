import { describe, expect, it } from 'vitest';
import type { UserRow } from '../users/user-json.ts';
import type { RestrictionState, Setter } from '../access/restriction-rules.ts';
import { deviceRestrictionChange, deviceTexts } from './device-rules.ts';

const user = (fields: Partial<UserRow> = {}): UserRow => ({
  id: 5, name: 'User', login: null, email: 'u@x.com', phone: null, readonly: 0, administrator: 0, map: null, latitude: 0,
  longitude: 0, zoom: 0, twelveHourFormat: 0, coordinateFormat: null, disabled: 0, expirationTime: null, deviceLimit: -1,
  userLimit: 0, deviceReadonly: 0, limitCommands: 0, disableReports: 0, fixedEmail: 0, poiLayer: null, temporary: 0,
  totpKey: null, hashedPassword: null, salt: null, attributes: '{}', ...fields,
});
const state = (disabled: boolean, expirationTime: number | null = null): RestrictionState => ({ disabled, expirationTime });
const admin: Setter = { id: 1, administrator: true, managesCaller: false };
const outcome = (caller: UserRow, before: RestrictionState, after: RestrictionState, setter: Setter | null = null) => {
  try {
    return deviceRestrictionChange(caller, before, after, setter);
  } catch (error) {
    return (error as Error).message;
  }
};

describe('device restriction rules', () => {
  const plain = user();
  const manager = user({ id: 6, userLimit: 3 });
  const administrator = user({ id: 1, administrator: 1 });

  it('lets an ordinary user send the stored values back but change neither', () => {
    expect(outcome(plain, state(true, 10), state(true, 10))).toBeUndefined();
    expect(outcome(plain, state(true), state(false), admin)).toBe(deviceTexts.restrictionDenied);
    expect(outcome(plain, state(false), state(true))).toBe(deviceTexts.restrictionDenied);
    expect(outcome(plain, state(false), state(false, 10))).toBe(deviceTexts.restrictionDenied);
  });

  it('lets a manager restrict and lift their own restrictions, not an administrator\'s', () => {
    expect(outcome(manager, state(false), state(true))).toBe(manager.id);
    expect(outcome(manager, state(true), state(false), { id: manager.id, administrator: false, managesCaller: false })).toBeNull();
    expect(outcome(manager, state(true), state(false), admin)).toBe(deviceTexts.restrictedBySuperior);
    expect(outcome(manager, state(false, 100), state(false, 200), admin)).toBe(deviceTexts.restrictedBySuperior);
    expect(outcome(manager, state(false, 100), state(false, 50), admin)).toBeUndefined();
  });

  it('keeps a manager\'s devices within the manager\'s own expiration', () => {
    const expiring = user({ id: 7, userLimit: 3, expirationTime: 1_000 });
    expect(outcome(expiring, state(false), state(false, 2_000))).toBe(deviceTexts.expiration);
    expect(outcome(expiring, state(false), state(false, 1_000))).toBe(expiring.id);
    expect(outcome(expiring, state(false, 500), state(false, null), { id: 7, administrator: false, managesCaller: false })).toBe(deviceTexts.expiration);
    // Disabling alone says nothing about the expiration.
    expect(outcome(expiring, state(false), state(true))).toBe(expiring.id);
  });

  it('lets an administrator do anything', () => {
    expect(outcome(administrator, state(true, 5), state(false), admin)).toBeNull();
    expect(outcome(administrator, state(false), state(false, 9_999_999))).toBe(administrator.id);
  });
});
