// Session calls against a fetch stub: what is sent, what is kept in localStorage.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../api/http.ts';
import { login, loginWithToken, logout, readRememberedToken, REMEMBER_KEY, rememberSession, requestPasswordReset, resetPassword, restoreSession } from './auth-api.ts';

interface Call {
  method: string;
  url: string;
  body: string;
}

let calls: Call[];
function stub(answer: (call: Call) => { status: number; body?: string; type?: string }) {
  calls = [];
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
    const call = { method: init.method ?? 'GET', url, body: String(init.body ?? '') };
    calls.push(call);
    const { status, body = '', type = 'application/json' } = answer(call);
    return new Response(body, { status, headers: { 'content-type': type } });
  }));
}

const user = { id: 7, name: 'Ana', email: 'ana@example.com', attributes: {} };

beforeEach(() => localStorage.clear());
afterEach(() => vi.unstubAllGlobals());

describe('session calls', () => {
  it('refuses empty fields before calling the server', async () => {
    stub(() => ({ status: 200 }));
    await expect(login(' ', 'x')).rejects.toMatchObject({ code: 'FILL_ALL_FIELDS' });
    await expect(login('ana', '')).rejects.toMatchObject({ code: 'FILL_ALL_FIELDS' });
    await expect(loginWithToken('')).rejects.toMatchObject({ code: 'FILL_ALL_FIELDS' });
    await expect(requestPasswordReset('  ')).rejects.toMatchObject({ code: 'FILL_EMAIL_FIELD' });
    await expect(resetPassword('', 'abcd')).rejects.toMatchObject({ code: 'FILL_TOKEN_FIELD' });
    expect(calls).toEqual([]);
  });

  it('logs in with a form and maps server texts to catalogue codes', async () => {
    stub(() => ({ status: 401, body: 'Account is disabled - contact the administrator', type: 'text/plain' }));
    const error = await login('ana', 'pw').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).code).toBe('ACCOUNT_IS_DISABLED');
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/api/session', body: 'email=ana&password=pw' });
  });

  it('a failed token login is INVALID_LOGIN_DATA; a silent server stays CONNECTION_ERROR', async () => {
    stub(() => ({ status: 401, body: 'Account is blocked - expired', type: 'text/plain' }));
    await expect(loginWithToken('abc')).rejects.toMatchObject({ code: 'INVALID_LOGIN_DATA' });
    vi.stubGlobal('fetch', vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }));
    await expect(loginWithToken('abc')).rejects.toMatchObject({ code: 'CONNECTION_ERROR' });
  });

  it('remember me keeps a token (base64), never the password; restore uses it', async () => {
    stub((call) => (call.url === '/api/session/token' ? { status: 200, body: 'tok_EN-1', type: 'text/plain' } : { status: 200, body: JSON.stringify(user) }));
    await rememberSession();
    expect(calls[0]!.body).toMatch(/^expiration=\d{4}-/);
    expect(localStorage.getItem(REMEMBER_KEY)).toBe(btoa('tok_EN-1'));
    expect(readRememberedToken()).toBe('tok_EN-1');
    expect(await restoreSession()).toEqual(user);
    expect(calls[1]).toMatchObject({ method: 'GET', url: '/api/session?token=tok_EN-1' });
  });

  it('a stale remembered token is dropped and the cookie session is tried', async () => {
    localStorage.setItem(REMEMBER_KEY, btoa('old'));
    stub((call) => (call.url.includes('token=') ? { status: 401, body: 'Invalid login data - expired', type: 'text/plain' } : { status: 200, body: JSON.stringify(user) }));
    expect(await restoreSession()).toEqual(user);
    expect(localStorage.getItem(REMEMBER_KEY)).toBeNull();
    expect(calls.map((c) => c.url)).toEqual(['/api/session?token=old', '/api/session']);
  });

  it('ignores a remembered value that is not a token', () => {
    localStorage.setItem(REMEMBER_KEY, btoa('admin|secret'));
    expect(readRememberedToken()).toBeNull();
    localStorage.setItem(REMEMBER_KEY, '%%%');
    expect(readRememberedToken()).toBeNull();
  });

  it('logout revokes the remembered token, then ends the session', async () => {
    localStorage.setItem(REMEMBER_KEY, btoa('tok1'));
    stub(() => ({ status: 204 }));
    await logout();
    expect(localStorage.getItem(REMEMBER_KEY)).toBeNull();
    expect(calls.map((c) => `${c.method} ${c.url} ${c.body}`)).toEqual(['POST /api/session/token/revoke token=tok1', 'DELETE /api/session ']);
  });

  it('asks for recovery with requested_from = this origin, and sets a password with the token', async () => {
    stub(() => ({ status: 200 }));
    await requestPasswordReset(' ana@example.com ');
    await resetPassword('tk', 'abcd');
    expect(new URLSearchParams(calls[0]!.body).get('email')).toBe('ana@example.com');
    expect(new URLSearchParams(calls[0]!.body).get('requested_from')).toBe(window.location.origin);
    expect(calls[1]!.body).toBe('token=tk&password=abcd');
  });
});
