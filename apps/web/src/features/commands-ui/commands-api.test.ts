import { describe, expect, it } from 'vitest';
import { anchorGeofence, isAnchorOf, lockCommand, type SavedCommand } from './commands-api.ts';

describe('lock/unlock and anchor rules', () => {
  it('a saved command with tarkan.changeNative overrides the native type', () => {
    const saved: SavedCommand[] = [
      { id: 4, description: 'Corta', type: 'custom', attributes: { data: 'STOP', 'tarkan.changeNative': 'engineStop' } },
    ];
    expect(lockCommand('lock', 9, saved)).toMatchObject({ id: 4, deviceId: 9, type: 'custom' });
    expect(lockCommand('unlock', 9, saved)).toEqual({ deviceId: 9, type: 'engineResume', attributes: {} });
  });
  it('the anchor is a 150 m circle, latitude first, named after the device', () => {
    expect(anchorGeofence(3, 'Truck', { latitude: -23.5, longitude: -46.6 })).toMatchObject({
      name: 'Anchor Truck', area: 'CIRCLE (-23.5 -46.6, 150)', attributes: { isAnchor: true, deviceId: 3 },
    });
    expect(anchorGeofence(3, 'Truck', { latitude: -23.5, longitude: -46.6 }, 7).attributes).toEqual({ isAnchor: true, deviceId: 3, groupId: 7 });
    expect(isAnchorOf(3)({ id: 1, name: 'x', area: '', attributes: { isAnchor: true, deviceId: 3 } })).toBe(true);
    expect(isAnchorOf(3)({ id: 1, name: 'x', area: '', attributes: { isAnchor: true, deviceId: 4 } })).toBe(false);
  });
});
