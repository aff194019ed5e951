// The calls of the server settings dialog: read the settings, save them (then re-read the
// licence and device-limit headers into the session, as the guard first loaded them), ask for a
// restart and probe which server instance answers.
import type { Server } from '@rastro/domain/entities';
import { api } from '../../api/http.ts';
import { useSession } from '../../app/session-store.ts';
import { applyAccountLanguage } from '../../i18n/i18n.ts';
import { loadServerInfo } from '../auth/index.ts';

/** Names the instance that answered (Rastro sends it; a Traccar server does not: ''). */
export const INSTANCE_HEADER = 'rastro-instance';

export const SERVER_SETTINGS_KEY = ['server-settings'] as const;

export const fetchServer = (): Promise<Server> => api.get<Server>('/server');

/** Re-reads GET /api/server with its headers into the session (licence, devices still allowed, language). */
export async function refreshServerInfo(): Promise<Server> {
  const info = await loadServerInfo();
  useSession.getState().setServerInfo(info);
  await applyAccountLanguage(info.server.attributes, useSession.getState().user?.attributes ?? {}).catch(() => undefined);
  return info.server;
}

/** PUT /api/server, then the session's server info from a fresh read. */
export async function saveServer(body: Server): Promise<Server> {
  await api.put<Server>('/server', body);
  return refreshServerInfo();
}

/** POST /api/server/restart; the answering instance's name, or null when the server gives none. */
export async function requestRestart(): Promise<string | null> {
  const res = await api.raw<unknown>('/server/restart', { method: 'POST' });
  return res.headers.get(INSTANCE_HEADER);
}

/** Which instance answers GET /api/server now ('' when the server does not say); rejects while none does. */
export async function probeInstance(): Promise<string> {
  const res = await api.raw<unknown>('/server', { timeoutMs: 5_000 });
  return res.headers.get(INSTANCE_HEADER) ?? '';
}
