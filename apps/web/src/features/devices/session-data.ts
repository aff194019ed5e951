// Server data the device screens share with the map, loaded once with the session (the shell
// mounts <DeviceSessionData/>): group names (search by group name, group headers) and anchor
// geofences (anchor filter/sort, anchor flag, the detail's anchor button). One TanStack Query
// entry each, never stale on its own; the anchor action writes the geofence list back into the
// cache, so the filters follow without a refetch.
import { useEffect } from 'react';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Attributes, Group } from '@rastro/domain/entities';
import { api } from '../../api/http.ts';
import { setAnchored, setGroupNames } from '../../live/visible-devices.ts';

export interface GeofenceLike {
  id: number;
  name?: string;
  area?: string;
  attributes?: Attributes;
}

export const GROUPS_KEY = ['groups'] as const;
export const GEOFENCES_KEY = ['geofences'] as const;

export const groupsQuery = {
  queryKey: GROUPS_KEY,
  queryFn: () => api.get<Group[]>('/groups'),
  staleTime: Infinity,
} as const;

export const geofencesQuery = {
  queryKey: GEOFENCES_KEY,
  queryFn: () => api.get<GeofenceLike[]>('/geofences'),
  staleTime: Infinity,
} as const;

const isTrue = (v: unknown) => v === true || v === 'true';

/** True when the geofence is the anchor of a device (attributes isAnchor + deviceId). */
export const isAnchor = (g: GeofenceLike): boolean => isTrue(g.attributes?.isAnchor) && Number(g.attributes?.deviceId) > 0;

/** Devices that have an anchor geofence. */
export function anchoredDevices(geofences: readonly GeofenceLike[]): Set<number> {
  const ids = new Set<number>();
  for (const g of geofences) if (isAnchor(g)) ids.add(Number(g.attributes!.deviceId));
  return ids;
}

/** The anchor geofence of one device in a list, or null. */
export const anchorIn = (geofences: readonly GeofenceLike[] | undefined, deviceId: number): GeofenceLike | null =>
  geofences?.find((g) => isAnchor(g) && Number(g.attributes!.deviceId) === deviceId) ?? null;

/** Groups anchored as a group: some anchor names the group (attributes.groupId). */
export function anchoredGroups(geofences: readonly GeofenceLike[] | undefined): Set<number> {
  const ids = new Set<number>();
  for (const g of geofences ?? []) if (isAnchor(g) && Number(g.attributes!.groupId) > 0) ids.add(Number(g.attributes!.groupId));
  return ids;
}

/** The anchors of a group anchor. */
export const groupAnchors = (geofences: readonly GeofenceLike[] | undefined, groupId: number): GeofenceLike[] =>
  (geofences ?? []).filter((g) => isAnchor(g) && Number(g.attributes!.groupId) === groupId);

/** After geofences were created or deleted, keeps the cached list in step. */
export function patchGeofenceCache(client: QueryClient, added: readonly GeofenceLike[], removedIds: readonly number[]): void {
  const removed = new Set(removedIds);
  client.setQueryData<GeofenceLike[]>(GEOFENCES_KEY, (list) => [...(list ?? []).filter((g) => !removed.has(g.id)), ...added]);
}

/** After an anchor was created (geofence) or removed (null), keeps the cached list in step. */
export function updateAnchorCache(client: QueryClient, deviceId: number, geofence: GeofenceLike | null): void {
  client.setQueryData<GeofenceLike[]>(GEOFENCES_KEY, (list) => {
    const rest = (list ?? []).filter((g) => !(isAnchor(g) && Number(g.attributes!.deviceId) === deviceId));
    return geofence ? [...rest, geofence] : rest;
  });
}

/** Loads groups and geofences once per session and hands them to the filter store. */
export function useDeviceSessionData(enabled = true): { groups: Group[] | undefined; geofences: GeofenceLike[] | undefined } {
  const groups = useQuery({ ...groupsQuery, enabled });
  const geofences = useQuery({ ...geofencesQuery, enabled });
  useEffect(() => {
    if (groups.data) setGroupNames(new Map(groups.data.map((g) => [g.id, g.name])));
  }, [groups.data]);
  useEffect(() => {
    if (geofences.data) setAnchored(anchoredDevices(geofences.data));
  }, [geofences.data]);
  return { groups: groups.data, geofences: geofences.data };
}

/** Mounted by the shell for the whole session. */
export function DeviceSessionData({ enabled }: { enabled: boolean }) {
  useDeviceSessionData(enabled);
  return null;
}
