// The calls of the user editor: the user being edited, the time zones the server offers, saving,
// a login token for oneself and the test notification.
import type { QueryClient } from '@tanstack/react-query';
import type { User } from '@rastro/domain/entities';
import { api } from '../../api/http.ts';
import { invalidateCollection } from '../../ui/collection/use-collection.ts';

export const userQuery = (id: number) => ({
  queryKey: ['user-editor', 'user', id] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.raw<User>(`/users/${id}`, { signal }).then((r) => r.data),
  // The editor starts from what the server holds now, not from a copy cached earlier.
  staleTime: 0,
  gcTime: 0,
});

/** IANA names (GET /api/server/timezones); they change only with the server's runtime. */
export const timeZonesQuery = {
  queryKey: ['server', 'timezones'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.raw<string[]>('/server/timezones', { signal }).then((r) => r.data),
  staleTime: Infinity,
};

/** Creates (no id) or updates the user; every users list is read again afterwards. */
export async function saveUser(client: QueryClient, body: Partial<User>, id: number | null): Promise<User> {
  try {
    return id === null ? await api.post<User>('/users', { ...body, id: undefined }) : await api.put<User>(`/users/${id}`, body);
  } finally {
    void invalidateCollection(client, 'users');
  }
}

/** A new login token of the signed-in user (the server's default lifetime). */
export async function newToken(): Promise<string> {
  return (await api.form<string>('/session/token', {})).trim();
}

export function sendTestNotification(): Promise<unknown> {
  return api.post('/notifications/test');
}
