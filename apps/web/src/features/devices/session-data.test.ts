import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { anchoredDevices, anchoredGroups, anchorIn, GEOFENCES_KEY, groupAnchors, patchGeofenceCache, updateAnchorCache, type GeofenceLike } from './session-data.ts';

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

  it('group anchors: anchored groups, their anchors, cache patches', () => {
    const list: GeofenceLike[] = [
      { id: 1, attributes: { isAnchor: true, deviceId: 3, groupId: 5 } },
      { id: 2, attributes: { isAnchor: true, deviceId: 4, groupId: 5 } },
      { id: 3, attributes: { isAnchor: true, deviceId: 6 } },
      { id: 4, attributes: { groupId: 8 } },
    ];
    expect(anchoredGroups(list)).toEqual(new Set([5]));
    expect(groupAnchors(list, 5).map((g) => g.id)).toEqual([1, 2]);
    const client = new QueryClient();
    client.setQueryData(GEOFENCES_KEY, list);
    patchGeofenceCache(client, [{ id: 9, attributes: { isAnchor: true, deviceId: 7, groupId: 8 } }], [1, 2]);
    expect(anchoredGroups(client.getQueryData<GeofenceLike[]>(GEOFENCES_KEY))).toEqual(new Set([8]));
  });
});
