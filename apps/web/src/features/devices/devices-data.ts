// What the device list reads besides the live store: groups (names for the search and the
// group headers) and anchor geofences (for the anchor filter and sort), loaded once through
// TanStack Query and handed to the filter store, so the map's visible set uses them too.
import { useEffect, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { Attributes, Group } from '@rastro/domain/entities';
import { api } from '../../api/http.ts';
import { setAnchored, setGroupNames } from '../../live/visible-devices.ts';

interface GeofenceLike {
  id: number;
  attributes?: Attributes;
}

/** Devices that have an anchor geofence (attributes isAnchor + deviceId). */
export function anchoredDevices(geofences: readonly GeofenceLike[]): Set<number> {
  const ids = new Set<number>();
  for (const g of geofences) {
    const a = g.attributes ?? {};
    if ((a.isAnchor === true || a.isAnchor === 'true') && Number(a.deviceId) > 0) ids.add(Number(a.deviceId));
  }
  return ids;
}

export function useDeviceListData(): { groups: Group[] } {
  const groups = useQuery({ queryKey: ['groups'], queryFn: () => api.get<Group[]>('/groups'), staleTime: 60_000 });
  const geofences = useQuery({ queryKey: ['geofences'], queryFn: () => api.get<GeofenceLike[]>('/geofences'), staleTime: 60_000 });
  const list = useMemo(() => groups.data ?? [], [groups.data]);
  useEffect(() => {
    setGroupNames(new Map(list.map((g) => [g.id, g.name])));
  }, [list]);
  useEffect(() => {
    if (geofences.data) setAnchored(anchoredDevices(geofences.data));
  }, [geofences.data]);
  return { groups: list };
}
