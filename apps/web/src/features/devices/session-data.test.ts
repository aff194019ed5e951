import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { anchoredDevices, anchorIn, GEOFENCES_KEY, updateAnchorCache, type GeofenceLike } from './session-data.ts';

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

  it('finds one device anchor', () => {
    const list: GeofenceLike[] = [{ id: 1, attributes: { deviceId: 7 } }, { id: 2, attributes: { isAnchor: true, deviceId: 7 } }];
    expect(anchorIn(list, 7)?.id).toBe(2);
    expect(anchorIn(list, 8)).toBeNull();
    expect(anchorIn(undefined, 7)).toBeNull();
  });

  it('the cached geofence list follows anchor creation and removal', () => {
    const client = new QueryClient();
    client.setQueryData<GeofenceLike[]>(GEOFENCES_KEY, [{ id: 1, attributes: {} }, { id: 2, attributes: { isAnchor: true, deviceId: 3 } }]);
    updateAnchorCache(client, 7, { id: 9, attributes: { isAnchor: true, deviceId: 7 } });
    expect(anchoredDevices(client.getQueryData<GeofenceLike[]>(GEOFENCES_KEY)!)).toEqual(new Set([3, 7]));
    updateAnchorCache(client, 3, null);
    expect(client.getQueryData<GeofenceLike[]>(GEOFENCES_KEY)!.map((g) => g.id)).toEqual([1, 9]);
  });
});
