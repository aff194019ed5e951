import { describe, expect, it } from 'vitest';
import { anchoredDevices } from './devices-data.ts';

describe('anchored devices', () => {
  it('devices named by anchor geofences (isAnchor true or "true")', () => {
    expect(anchoredDevices([
      { id: 1, attributes: { isAnchor: true, deviceId: 7 } },
      { id: 2, attributes: { isAnchor: 'true', deviceId: '9' } },
      { id: 3, attributes: { deviceId: 11 } },
      { id: 4, attributes: { isAnchor: true } },
      { id: 5 },
    ])).toEqual(new Set([7, 9]));
  });
});
