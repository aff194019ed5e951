import { describe, expect, it } from 'vitest';
import { decodeAdvancedPerms, encodeAdvancedPerms, hasPermission, PERMISSION_BITS } from './permissions.ts';

const plusWithPerms = { plus: true, attributes: { 'tarkan.enableAdvancedPerms': true } };

describe('advanced permission flags', () => {
  it('decodes bit 0 as the most significant bit of the first character', () => {
    const flags = decodeAdvancedPerms('80000000000000000000000000000000')!;
    expect(flags).toHaveLength(128);
    expect(flags[0]).toBe(true);
    expect(flags.filter(Boolean)).toHaveLength(1);
  });
  it('decodes the devices bit (8) from the third character', () => {
    const flags = decodeAdvancedPerms('00800000000000000000000000000000')!;
    expect(flags[8]).toBe(true);
    expect(flags[7]).toBe(false);
  });
  it('refuses values that are not 32 hex characters', () => {
    expect(decodeAdvancedPerms('abc')).toBeNull();
    expect(decodeAdvancedPerms(42)).toBeNull();
    expect(decodeAdvancedPerms('g'.repeat(32))).toBeNull();
  });
  it('round-trips any flag set through encode/decode', () => {
    for (let seed = 1; seed < 200; seed++) {
      const flags = Array.from({ length: 128 }, (_, i) => ((i * 7919 + seed * 104729) % 13) < 5);
      const hex = encodeAdvancedPerms(flags);
      expect(hex).toMatch(/^[0-9A-F]{32}$/);
      expect(decodeAdvancedPerms(hex)).toEqual(flags);
      expect(encodeAdvancedPerms(decodeAdvancedPerms(hex.toLowerCase())!)).toBe(hex);
    }
  });
});

describe('hasPermission (spec §6 order)', () => {
  const devices = PERMISSION_BITS.devices;
  const onlyDevices = encodeAdvancedPerms(Array.from({ length: 128 }, (_, i) => i === devices));

  it('lets administrators pass, even as QR drivers and without flags', () => {
    expect(hasPermission({ administrator: true, attributes: { 'tarkan.isQrDriverId': 'D1' } }, plusWithPerms, devices)).toBe(true);
  });
  it('never lets QR drivers pass', () => {
    expect(hasPermission({ attributes: { 'tarkan.isQrDriverId': 'D1' } }, { plus: false }, devices)).toBe(false);
  });
  it('lets everyone pass without the plus licence, shared users too', () => {
    expect(hasPermission({ attributes: { isShared: 3 } }, { plus: false }, devices)).toBe(true);
  });
  it('without advanced permissions, passes non-shared users and denies shared ones', () => {
    expect(hasPermission({ attributes: {} }, { plus: true }, devices)).toBe(true);
    expect(hasPermission({ attributes: { isShared: 3 } }, { plus: true }, devices)).toBe(false);
    expect(hasPermission({ attributes: {} }, plusWithPerms, devices)).toBe(true);
  });
  it('with advanced permissions and flags, the bit decides', () => {
    const user = { attributes: { 'tarkan.advancedPerms': onlyDevices } };
    expect(hasPermission(user, plusWithPerms, devices)).toBe(true);
    expect(hasPermission(user, plusWithPerms, PERMISSION_BITS.reports)).toBe(false);
    // The server switch off ignores the flags.
    expect(hasPermission(user, { plus: true }, PERMISSION_BITS.reports)).toBe(true);
  });
  it('uses the bit table of the spec', () => {
    expect([PERMISSION_BITS.devices, PERMISSION_BITS.users, PERMISSION_BITS.notifications, PERMISSION_BITS.events,
      PERMISSION_BITS.geofences, PERMISSION_BITS.groups, PERMISSION_BITS.commands, PERMISSION_BITS.computedAttributes,
      PERMISSION_BITS.reports, PERMISSION_BITS.drivers, PERMISSION_BITS.calendars, PERMISSION_BITS.maintenance])
      .toEqual([8, 16, 32, 36, 40, 48, 56, 64, 72, 80, 88, 96]);
  });
});
