// The command lifecycle on the server (Rastro's GET / DELETE /api/commands/log, beyond
// Traccar): a device's recent commands with their status, and cancelling a queued one. Against
// a Traccar server those routes do not exist: the send's answer then has no `commandLog` and
// the device actions fall back to the pending notice (pending-store.ts).
import type { QueryClient } from '@tanstack/react-query';
import type { CommandLogEntry } from '@rastro/domain/command-log';
import { api } from '../../api/http.ts';

/** How many of the device's latest commands the detail lists. */
export const COMMAND_LOG_LIMIT = 5;

export const commandLogKey = (deviceId: number) => ['commands/log', deviceId] as const;

export const commandLogOf = (deviceId: number) => api.get<CommandLogEntry[]>('/commands/log', { deviceId, limit: COMMAND_LOG_LIMIT });

export async function cancelCommand(id: number): Promise<CommandLogEntry> {
  const res = await api.raw<CommandLogEntry>(`/commands/log/${id}`, { method: 'DELETE' });
  return res.data;
}

/** The lifecycle entry a Rastro server puts in the answer of POST /api/commands/send (null from Traccar). */
export function commandLogFrom(answer: unknown): CommandLogEntry | null {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return null;
  const entry = (answer as { commandLog?: unknown }).commandLog;
  if (!entry || typeof entry !== 'object' || typeof (entry as { id?: unknown }).id !== 'number') return null;
  return entry as CommandLogEntry;
}

/** `list` with `entry` in place of the one with its id, or first (newest) when it is new; at most `limit`. */
export function withEntry(list: readonly CommandLogEntry[] | undefined, entry: CommandLogEntry, limit = COMMAND_LOG_LIMIT): CommandLogEntry[] {
  const current = list ?? [];
  if (current.some((e) => e.id === entry.id)) return current.map((e) => (e.id === entry.id ? entry : e));
  return [entry, ...current].slice(0, limit);
}

/** Shows a command just sent or changed at once, then reads the list again. */
export function showEntry(queryClient: QueryClient, entry: CommandLogEntry): void {
  const key = commandLogKey(entry.deviceId);
  queryClient.setQueryData<CommandLogEntry[]>(key, (list) => withEntry(list, entry));
  void queryClient.invalidateQueries({ queryKey: key });
}
