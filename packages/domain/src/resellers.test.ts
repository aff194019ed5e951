import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { errorText } from './schemas/messages.ts';
import { encodeAdvancedPerms, type PermissionServer } from './permissions.ts';
import {
  advancedFlagsInEffect, changedKeys, deviceCapacity, grantableLimit, isHostName, isResellerUser, limitGrantProblem,
  maySetResellerFields, permsWithin, resellerFields, userCapacity, userResellerBodySchema, RESELLER_KEYS,
} from './resellers.ts';

const perms = (...bits: number[]) => encodeAdvancedPerms(Array.from({ length: 128 }, (_, i) => bits.includes(i)));
const parse = (attributes: Record<string, unknown>) => {
  const result = userResellerBodySchema.safeParse({ attributes });
  return result.success ? result.data.attributes : errorText(result.error);
};

describe('reseller attributes', () => {
  it('accepts the four keys, keeps other attributes and normalises the domain', () => {
    expect(parse({ 'tarkan.reseller': true, 'tarkan.subReseller': false, 'tarkan.domainReseller': ' Track.Example.COM ', 'tarkan.limitReseller': 50, other: 'x' }))
      .toEqual({ 'tarkan.reseller': true, 'tarkan.subReseller': false, 'tarkan.domainReseller': 'track.example.com', 'tarkan.limitReseller': 50, other: 'x' });
    expect(parse({ 'tarkan.domainReseller': '' })).toEqual({});
    expect(parse({ 'tarkan.domainReseller': null })).toEqual({});
    expect(JSON.parse(JSON.stringify(parse({ 'tarkan.reseller': null, 'tarkan.subReseller': null, 'tarkan.limitReseller': null, other: null })))).toEqual({ other: null });
    expect(parse({ 'tarkan.limitReseller': -1 })).toEqual({ 'tarkan.limitReseller': -1 });
  });

  it('refuses wrong types, bad host names and bad limits, naming the attribute', () => {
    expect(parse({ 'tarkan.reseller': 'yes' })).toBe('Invalid attributes.tarkan.reseller - true or false is expected');
    expect(parse({ 'tarkan.subReseller': 1 })).toMatch(/^Invalid attributes.tarkan.subReseller - /);
    for (const bad of ['https://track.example.com', 'track.example.com:8080', 'localhost', '-a.example.com', 'a..b', '10.0.0.1', 'track example.com', 7]) {
      expect(parse({ 'tarkan.domainReseller': bad }), String(bad)).toMatch(/^Invalid attributes.tarkan.domainReseller - must be a host name/);
    }
    for (const bad of [-2, 1.5, '10', true]) {
      expect(parse({ 'tarkan.limitReseller': bad }), String(bad)).toMatch(/^Invalid attributes.tarkan.limitReseller - /);
    }
  });

  it('recognises host names', () => {
    expect(isHostName('a.io')).toBe(true);
    expect(isHostName('rastreio.cliente-1.com.br')).toBe(true);
    expect(isHostName(`${'a'.repeat(64)}.com`)).toBe(false);
    expect(isHostName('Upper.com')).toBe(false);
  });

  it('reads stored fields leniently: only true is true, a bad limit is absent', () => {
    expect(resellerFields(undefined)).toEqual({ reseller: false, subReseller: false, domain: null, limit: null });
    expect(resellerFields({ 'tarkan.reseller': 'true', 'tarkan.limitReseller': -1, 'tarkan.domainReseller': '' }))
      .toEqual({ reseller: false, subReseller: false, domain: null, limit: null });
    expect(resellerFields({ 'tarkan.reseller': true, 'tarkan.subReseller': true, 'tarkan.domainReseller': 'a.io', 'tarkan.limitReseller': 3 }))
      .toEqual({ reseller: true, subReseller: true, domain: 'a.io', limit: 3 });
    expect(isResellerUser({ attributes: { [RESELLER_KEYS.reseller]: true } })).toBe(true);
  });
});

describe('who may make resellers', () => {
  it('is an administrator or a reseller allowed sub-resellers', () => {
    expect(maySetResellerFields({ administrator: true })).toBe(true);
    expect(maySetResellerFields({ attributes: { 'tarkan.reseller': true, 'tarkan.subReseller': true } })).toBe(true);
    expect(maySetResellerFields({ attributes: { 'tarkan.reseller': true } })).toBe(false);
    expect(maySetResellerFields({ attributes: { 'tarkan.subReseller': true } })).toBe(false);
    expect(maySetResellerFields({})).toBe(false);
  });

  it('finds the keys a change touches', () => {
    expect(changedKeys({ a: 1, b: [1] }, { a: 1, b: [1] }, ['a', 'b'])).toEqual([]);
    expect(changedKeys({ a: 1 }, { a: 2, c: 3 }, ['a', 'b', 'c'])).toEqual(['a', 'c']);
    expect(changedKeys(undefined, {}, ['a'])).toEqual([]);
  });
});

describe('limits add up', () => {
  it('takes the lower of userLimit and the reseller limit', () => {
    expect(userCapacity({ userLimit: -1 })).toBeNull();
    expect(userCapacity({ userLimit: 10 })).toBe(10);
    expect(userCapacity({ userLimit: -1, attributes: { 'tarkan.limitReseller': 4 } })).toBe(4);
    expect(userCapacity({ userLimit: 3, attributes: { 'tarkan.limitReseller': 40 } })).toBe(3);
    expect(userCapacity({ userLimit: -1, attributes: { 'tarkan.limitReseller': -1 } })).toBeNull();
    expect(userCapacity({ userLimit: 0 })).toBe(0);
    expect(deviceCapacity(-1)).toBeNull();
    expect(deviceCapacity(7)).toBe(7);
  });

  it('never grants more than the capacity leaves, nor unlimited under a capacity', () => {
    expect(grantableLimit(null, 1000)).toBeNull();
    expect(grantableLimit(10, 4)).toBe(6);
    expect(grantableLimit(10, 12)).toBe(0);
    expect(limitGrantProblem(-1, null)).toBeNull();
    expect(limitGrantProblem(-1, 6)).toBe('unlimited');
    expect(limitGrantProblem(7, 6)).toBe('above');
    expect(limitGrantProblem(6, 6)).toBeNull();
    expect(limitGrantProblem(0, 0)).toBeNull();
  });

  it('what is granted plus what is used never exceeds the capacity (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: -1, max: 20_000 }), (capacity, used, asked) => {
        const grant = grantableLimit(capacity, used)!;
        expect(grant).toBeGreaterThanOrEqual(0);
        if (used <= capacity) expect(grant + used).toBe(capacity);
        // Whatever is asked passes only when it fits what is left.
        expect(limitGrantProblem(asked, grant) === null).toBe(asked !== -1 && asked <= grant);
      }),
    );
  });
});

describe('advanced permission bits', () => {
  const plusOn: PermissionServer = { plus: true, attributes: { 'tarkan.enableAdvancedPerms': true } };

  it('are in effect only with plus, the server switch and flags, never for administrators', () => {
    const user = { attributes: { 'tarkan.advancedPerms': perms(8, 13) } };
    expect(advancedFlagsInEffect(user, plusOn)?.[13]).toBe(true);
    expect(advancedFlagsInEffect(user, { plus: false, attributes: plusOn.attributes })).toBeNull();
    expect(advancedFlagsInEffect(user, { plus: true, attributes: {} })).toBeNull();
    expect(advancedFlagsInEffect({ ...user, administrator: true }, plusOn)).toBeNull();
    expect(advancedFlagsInEffect({ attributes: {} }, plusOn)).toBeNull();
  });

  it('may only be handed out as a subset of the caller\'s own', () => {
    const mine = advancedFlagsInEffect({ attributes: { 'tarkan.advancedPerms': perms(8, 13, 16) } }, plusOn);
    expect(permsWithin(mine, perms(8, 13))).toBe(true);
    expect(permsWithin(mine, perms())).toBe(true);
    expect(permsWithin(mine, perms(8, 14))).toBe(false);
    // No flags at all would pass every check: more than a limited caller has.
    expect(permsWithin(mine, undefined)).toBe(false);
    expect(permsWithin(null, perms(1, 2, 3))).toBe(true);
    expect(permsWithin(null, undefined)).toBe(true);
  });

  it('subset holds exactly when every granted bit is held (property)', () => {
    const bits = fc.uniqueArray(fc.integer({ min: 0, max: 127 }), { maxLength: 20 });
    fc.assert(
      fc.property(bits, bits, (held, given) => {
        const caller = advancedFlagsInEffect({ attributes: { 'tarkan.advancedPerms': perms(...held) } }, plusOn);
        expect(permsWithin(caller, perms(...given))).toBe(given.every((b) => held.includes(b)));
      }),
    );
  });
});
