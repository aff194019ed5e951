// The login screen against a fetch stub: validations, error texts, driver prefix, return path.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { useSession } from '../../app/session-store.ts';
import { Component as LoginPage, driverLogin } from './login-page.tsx';

const pt = texts['pt-BR'];
let answer: (url: string, init: RequestInit) => Response;
let bodies: string[];

function Where() {
  const location = useLocation();
  return <p data-testid="where">{location.pathname}</p>;
}

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/login', Component: LoginPage },
      { path: '/motorista', Component: LoginPage },
      { path: '/share/:token', Component: LoginPage },
      { path: '*', Component: Where },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
}

function submit(user: string, password: string) {
  fireEvent.change(screen.getByLabelText(/Usuário/), { target: { value: user } });
  fireEvent.change(screen.getByLabelText(pt.login.password), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: pt.login.signIn }));
}

beforeAll(() => initTestI18n());
beforeEach(() => {
  bodies = [];
  useSession.setState({ user: null, serverInfo: null });
  vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
    bodies.push(String(init.body ?? ''));
    return answer(url, init);
  }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const text = (status: number, body: string) => new Response(body, { status, headers: { 'content-type': 'text/plain' } });
const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('login screen', () => {
  it('empty fields: FILL_ALL_FIELDS without calling the server', async () => {
    answer = () => text(500, 'no');
    renderAt('/login');
    fireEvent.click(screen.getByRole('button', { name: pt.login.signIn }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', pt.errors.FILL_ALL_FIELDS);
    expect(bodies).toEqual([]);
  });

  it.each([
    [401, 'HTTP 401 Unauthorized - invalid username and password combination', pt.errors.HTTP_401_UNAUTHORIZED],
    [401, 'Account is disabled - contact the administrator', pt.errors.ACCOUNT_IS_DISABLED],
    [429, 'Too many attempts - wait a few minutes', pt.errors.TOO_MANY_ATTEMPTS],
    [500, 'Something odd - happened', pt.errors.UNKNOWN_ERROR],
  ])('server %i "%s" is shown translated', async (status, body, expected) => {
    answer = () => text(status, body);
    renderAt('/login');
    submit('ana', 'pw');
    expect((await screen.findByRole('alert')).textContent).toBe(expected);
  });

  it('a suspended account gets the suspension title', async () => {
    answer = () => text(401, 'Account is suspended - pay the invoices');
    renderAt('/login');
    submit('ana', 'pw');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(pt.login.suspended);
    expect(alert.textContent).toContain(pt.errors.ACCOUNT_IS_SUSPENDED);
  });

  it('signs in and returns to ?to=', async () => {
    answer = () => json({ id: 1, name: 'Ana', attributes: {} });
    renderAt('/login?to=%2Freports%2Fstops');
    submit('ana', 'pw');
    expect((await screen.findByTestId('where')).textContent).toBe('/reports/stops');
    expect(useSession.getState().user?.name).toBe('Ana');
  });

  it('ignores a ?to= that leaves the site', async () => {
    answer = () => json({ id: 1, name: 'Ana', attributes: {} });
    renderAt('/login?to=%2F%2Fevil.example');
    submit('ana', 'pw');
    expect((await screen.findByTestId('where')).textContent).toBe('/home');
  });

  it('drivers sign in with the qrcode- prefix and land on /qr-driver', async () => {
    answer = () => json({ id: 2, name: 'João', attributes: { 'tarkan.isQrDriverId': 'D1' } });
    renderAt('/motorista');
    fireEvent.change(screen.getByLabelText(pt.login.driverName), { target: { value: 'joao' } });
    fireEvent.change(screen.getByLabelText(pt.login.password), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: pt.login.signIn }));
    expect((await screen.findByTestId('where')).textContent).toBe('/qr-driver');
    expect(bodies[0]).toBe('email=qrcode-joao&password=pw');
    expect(driverLogin('qrcode-joao')).toBe('qrcode-joao');
  });

  it('a share link signs in with its token and opens the shared device', async () => {
    answer = () => json({ id: 3, name: 'Visitante', attributes: { isShared: 1, deviceId: 42 } });
    renderAt('/share/abc123');
    expect(screen.getByText(pt.login.accessingShare)).toBeTruthy();
    expect((await screen.findByTestId('where')).textContent).toBe('/devices/42');
  });

  it('a refused share link says it expired', async () => {
    answer = () => text(401, 'Invalid login data - the token is invalid or expired');
    renderAt('/share/abc123');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(pt.errors.INVALID_SHARE));
  });

  it('shows "create account" only when the server allows registration', async () => {
    answer = () => text(500, 'no');
    renderAt('/login');
    expect(screen.queryByRole('link', { name: pt.login.register })).toBeNull();
    await act(async () => {
      useSession.setState({ serverInfo: { server: { registration: true, attributes: {} } as never, plus: true, allowedDevices: null } });
    });
    expect(screen.getByRole('link', { name: pt.login.register })).toBeTruthy();
  });
});
