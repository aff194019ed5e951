import { describe, expect, it } from 'vitest';
import { canAddDevice, showsAddDevice } from './device-limits.ts';

describe('device-add limits', () => {
  const base = { allowedLimit: null, serverAttributes: {}, userDeviceLimit: -1, deviceCount: 10 };
  it('allows with no limits', () => expect(canAddDevice(base)).toBe(true));
  it('server header limit zero or negative refuses', () => {
    expect(canAddDevice({ ...base, allowedLimit: 0 })).toBe(false);
    expect(canAddDevice({ ...base, allowedLimit: -3 })).toBe(false);
    expect(canAddDevice({ ...base, allowedLimit: 2 })).toBe(true);
  });
  it('server attribute tarkan.deviceLimit when above 0', () => {
    expect(canAddDevice({ ...base, serverAttributes: { 'tarkan.deviceLimit': 10 } })).toBe(false);
    expect(canAddDevice({ ...base, serverAttributes: { 'tarkan.deviceLimit': '11' } })).toBe(true);
    expect(canAddDevice({ ...base, serverAttributes: { 'tarkan.deviceLimit': 0 } })).toBe(true);
  });
  it('user deviceLimit: -1 unlimited, else the count must be below it', () => {
    expect(canAddDevice({ ...base, userDeviceLimit: 10 })).toBe(false);
    expect(canAddDevice({ ...base, userDeviceLimit: 11 })).toBe(true);
    expect(canAddDevice({ ...base, userDeviceLimit: 0, deviceCount: 0 })).toBe(false);
  });
  it('add button shows for -1 or above 0', () => {
    expect([-1, 0, 1].map(showsAddDevice)).toEqual([true, false, true]);
  });
});
