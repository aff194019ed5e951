import { describe, expect, it } from 'vitest';
import { badRequest } from '../http/errors.ts';
import {
  binds, decideRestriction, isRestricted, lifts, restrictionAfter, restrictionOf, UNRESTRICTED, type RestrictionState, type Setter,
} from './restriction-rules.ts';

const state = (disabled: boolean, expirationTime: number | null = null): RestrictionState => ({ disabled, expirationTime });
const admin: Setter = { id: 1, administrator: true, managesCaller: false };
const boss: Setter = { id: 2, administrator: false, managesCaller: true };
const peer: Setter = { id: 3, administrator: false, managesCaller: false };
const manager = { id: 4, administrator: false };
const refusal = () => badRequest('Refused - test');
const decide = (before: RestrictionState, after: RestrictionState, setter: Setter | null, caller = manager) => {
  try {
    return decideRestriction(caller, before, after, setter, refusal);
  } catch {
    return 'refused';
  }
};

describe('restriction rules', () => {
  it('reads rows and writes that leave fields out', () => {
    expect(restrictionOf({ disabled: 1, expirationTime: 5 })).toEqual(state(true, 5));
    expect(restrictionAfter(state(true, 5), {})).toEqual(state(true, 5));
    expect(restrictionAfter(state(true, 5), { disabled: 0, expirationTime: null })).toEqual(state(false, null));
    expect(isRestricted(UNRESTRICTED)).toBe(false);
    expect(isRestricted(state(false, 1))).toBe(true);
  });

  it('knows a lift: re-enabling, removing the expiration or moving it later', () => {
    expect(lifts(state(true), state(false))).toBe(true);
    expect(lifts(state(false, 100), state(false, null))).toBe(true);
    expect(lifts(state(false, 100), state(false, 200))).toBe(true);
    expect(lifts(state(false, 100), state(false, 50))).toBe(false);
    expect(lifts(state(false), state(true, 50))).toBe(false);
    expect(lifts(state(true, 100), state(true, 100))).toBe(false);
  });

  it('binds everyone but administrators and the setter, when an administrator, the caller\'s manager or nobody known set it', () => {
    expect(binds(manager, admin)).toBe(true);
    expect(binds(manager, boss)).toBe(true);
    expect(binds(manager, null)).toBe(true);
    expect(binds(manager, peer)).toBe(false);
    expect(binds(manager, { ...admin, id: manager.id })).toBe(false);
    expect(binds({ id: 9, administrator: true }, admin)).toBe(false);
    expect(binds({ id: 9, administrator: true }, null)).toBe(false);
  });

  it('refuses a bound caller any lift but lets them tighten, keeping the restriction its setter\'s', () => {
    expect(decide(state(true), state(false), admin)).toBe('refused');
    expect(decide(state(false, 100), state(false, 200), boss)).toBe('refused');
    expect(decide(state(false, 100), state(false, null), null)).toBe('refused');
    expect(decide(state(true, 100), state(false, 50), admin)).toBe('refused');
    // Stricter: allowed, and the record stays the administrator's (undefined = unchanged).
    expect(decide(state(false, 100), state(true, 50), admin)).toBeUndefined();
  });

  it('gives the restriction to whoever sets it when nothing binds them, and clears it when lifted', () => {
    expect(decide(UNRESTRICTED, state(true), null)).toBe(manager.id);
    expect(decide(state(true), state(false), peer)).toBeNull();
    expect(decide(state(true), state(true, 10), peer)).toBe(manager.id);
    expect(decide(state(true), state(false), admin, { id: 9, administrator: true })).toBeNull();
    expect(decide(state(true), state(true, 10), admin, { id: 9, administrator: true })).toBe(9);
    // No change: no decision to make, even when bound.
    expect(decide(state(true, 5), state(true, 5), admin)).toBeUndefined();
  });
});
