// One Traccar-style resource (`/api/<resource>`: GET list, POST create, PUT /:id update,
// DELETE /:id) as a TanStack Query collection for list-and-editor screens. Honest states, no
// optimistic writes: the list shows what the server last said, and every write is followed by
// a fresh read of that resource.
//
// When it is read again:
//   - after each of our own writes (create, update, delete), whatever their outcome;
//   - when the socket says objects of that kind changed. Today the socket pushes only devices
//     ({devices}, applied to the live store), so `devices` follows the live store; the other
//     kinds have no push from the server;
//   - when the socket connects again after a drop (whatever changed meanwhile was not pushed);
//   - when the window regains focus (TanStack's refetchOnWindowFocus), for the kinds without push.
import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api, type Query } from '../../api/http.ts';
import { useLive } from '../../live/live-store.ts';

export interface Entity {
  id: number;
}

export type CollectionState = 'loading' | 'error' | 'empty' | 'ready';

/** Every query of one resource (all its filters) starts with this key. */
export const collectionKey = (resource: string) => ['collection', resource] as const;

/** Socket-driven changes are gathered for this long, so a burst of messages costs one read. */
export const SOCKET_SETTLE_MS = 1_000;

/** Reads a resource again without cancelling a read already under way. */
export function invalidateCollection(client: QueryClient, resource?: string): Promise<void> {
  return client.invalidateQueries({ queryKey: resource ? collectionKey(resource) : ['collection'] }, { cancelRefetch: false });
}

/** The kinds the socket pushes, each with how to hear of a change (see the header). */
const SOCKET_KINDS: Record<string, (changed: () => void) => () => void> = {
  devices: (changed) => useLive.subscribe((state, previous) => {
    if (state.devices !== previous.devices) changed();
  }),
};

/** True for the resources the socket keeps current (they need no focus refetch). */
export const isPushed = (resource: string) => resource in SOCKET_KINDS;

function useSocketInvalidation(client: QueryClient, resource: string): void {
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const changed = () => {
      if (timer === null) timer = setTimeout(() => { timer = null; void invalidateCollection(client, resource); }, SOCKET_SETTLE_MS);
    };
    const unsubscribeKind = SOCKET_KINDS[resource]?.(changed);
    let dropped = false;
    const unsubscribeSocket = useLive.subscribe((state, previous) => {
      if (previous.socket === 'open' && state.socket !== 'open') dropped = true;
      else if (state.socket === 'open' && dropped) {
        dropped = false;
        void invalidateCollection(client, resource);
      }
    });
    return () => {
      if (timer !== null) clearTimeout(timer);
      unsubscribeKind?.();
      unsubscribeSocket();
    };
  }, [client, resource]);
}

export function collectionState(query: { isPending: boolean; isError: boolean; data?: readonly unknown[] }): CollectionState {
  if (query.isError && !query.data) return 'error';
  if (query.isPending) return 'loading';
  return query.data && query.data.length > 0 ? 'ready' : 'empty';
}

/** New objects carry id -1 (Traccar's convention) until the server gives them one. */
export const NEW_ID = -1;

export function useCollection<T extends Entity>(resource: string, filter?: Query) {
  const client = useQueryClient();
  useSocketInvalidation(client, resource);
  const list = useQuery({
    queryKey: [...collectionKey(resource), filter ?? {}],
    queryFn: async ({ signal }) => (await api.raw<T[]>(`/${resource}`, { query: filter, signal })).data,
    refetchOnWindowFocus: !isPushed(resource),
  });
  const settle = () => invalidateCollection(client, resource);
  const save = useMutation({
    mutationFn: (item: T) => (item.id > 0 ? api.put<T>(`/${resource}/${item.id}`, item) : api.post<T>(`/${resource}`, { ...item, id: undefined })),
    onSettled: settle,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api.delete(`/${resource}/${id}`),
    onSettled: settle,
  });
  return {
    items: list.data ?? [],
    state: collectionState(list),
    error: list.error,
    /** True while a read is under way over data already shown. */
    refreshing: list.isFetching && !list.isPending,
    retry: () => void list.refetch(),
    /** Creates (id ≤ 0) or updates the object; resolves to what the server stored. */
    save: save.mutateAsync,
    remove: remove.mutateAsync,
    saving: save.isPending,
  };
}
