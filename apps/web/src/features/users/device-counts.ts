// How many devices each listed user has, from GET /tarkan/users/device-counts (one query for
// the whole list, users without devices left out). Kept under the users collection's key, so
// whatever re-reads the users (a save, a delete) re-reads the counts too; a link change made
// from the manager invalidates it as well. Over a plain Traccar server the endpoint does not
// exist: the column then shows a dash instead of a wrong number.
import { useQuery } from '@tanstack/react-query';
import { extension } from '../../api/http.ts';
import { collectionKey } from '../../ui/collection/use-collection.ts';

export const deviceCountsKey = [...collectionKey('users'), 'device-counts'] as const;

export type DeviceCounts = ReadonlyMap<number, number>;

export async function fetchDeviceCounts(signal?: AbortSignal): Promise<DeviceCounts> {
  const { data } = await extension.raw<Record<string, number>>('/users/device-counts', { signal });
  return new Map(Object.entries(data).map(([id, n]) => [Number(id), n]));
}

/** The counts, or null while unknown (loading, failed, or a server without the endpoint). */
export function useDeviceCounts(enabled: boolean): DeviceCounts | null {
  const query = useQuery({
    queryKey: deviceCountsKey,
    queryFn: ({ signal }) => fetchDeviceCounts(signal),
    enabled,
    retry: false,
  });
  return query.data ?? null;
}

/** One user's count: 0 when the answer does not name them, null when the answer is unknown. */
export const deviceCountOf = (counts: DeviceCounts | null, userId: number): number | null =>
  counts === null ? null : (counts.get(userId) ?? 0);
