// Session calls of spec §7 with the client validations of spec §5. "Remember me" keeps a
// revocable session token (never the password) base64-encoded under `rememberme`.
import type { Server, User } from '@rastro/domain/entities';
import { api, HttpError } from '../../api/http.ts';
import type { ServerInfo } from '../../app/session-store.ts';

export const REMEMBER_KEY = 'rememberme';
const REMEMBER_DAYS = 30;

const fail = (code: string) => new HttpError(0, code, code);

export async function loadServerInfo(): Promise<ServerInfo> {
  const { data, headers } = await api.raw<Server>('/server');
  const license = headers.get('licensemode');
  const limit = headers.get('devicelimit');
  const allowed = limit !== null && /^-?\d+$/.test(limit) ? Number(limit) : null;
  return { server: data, plus: license !== null && license.toLowerCase() !== 'basic', allowedDevices: allowed };
}

export async function login(email: string, password: string): Promise<User> {
  if (!email.trim() || !password) throw fail('FILL_ALL_FIELDS');
  return api.form<User>('/session', { email: email.trim(), password });
}

export async function loginWithToken(token: string): Promise<User> {
  if (!token) throw fail('FILL_ALL_FIELDS');
  try {
    return await api.get<User>('/session', { token });
  } catch (error) {
    if (error instanceof HttpError && error.status > 0) throw new HttpError(error.status, 'INVALID_LOGIN_DATA', error.text);
    throw error;
  }
}

export async function currentSession(): Promise<User> {
  return api.get<User>('/session');
}

export async function logout(): Promise<void> {
  const stored = readRememberedToken();
  localStorage.removeItem(REMEMBER_KEY);
  if (stored) await api.form('/session/token/revoke', { token: stored }).catch(() => undefined);
  await api.delete('/session').catch(() => undefined);
}

/** After a successful login with "remember me": store a revocable token. */
export async function rememberSession(): Promise<void> {
  const expiration = new Date(Date.now() + REMEMBER_DAYS * 86_400_000).toISOString();
  const token = await api.form<string>('/session/token', { expiration });
  localStorage.setItem(REMEMBER_KEY, btoa(token));
}

export function readRememberedToken(): string | null {
  const raw = localStorage.getItem(REMEMBER_KEY);
  if (!raw) return null;
  try {
    const token = atob(raw);
    return /^[A-Za-z0-9_-]+$/.test(token) ? token : null;
  } catch {
    return null;
  }
}

/** Remembered login first, else the cookie session; a stale remembered token is dropped. */
export async function restoreSession(): Promise<User> {
  const token = readRememberedToken();
  if (token) {
    try {
      return await loginWithToken(token);
    } catch (error) {
      if (error instanceof HttpError && error.code === 'CONNECTION_ERROR') throw error;
      localStorage.removeItem(REMEMBER_KEY);
    }
  }
  return currentSession();
}

export async function requestPasswordReset(email: string): Promise<void> {
  if (!email.trim()) throw fail('FILL_EMAIL_FIELD');
  await api.form('/session/password', { email: email.trim(), requested_from: window.location.origin });
}

export async function resetPassword(token: string, password: string): Promise<void> {
  if (!token) throw fail('FILL_TOKEN_FIELD');
  if (!password) throw fail('FILL_ALL_FIELDS');
  await api.form('/session/password', { token, password });
}

export async function register(name: string, email: string, password: string): Promise<User> {
  return api.post<User>('/users', { name, email, password });
}
