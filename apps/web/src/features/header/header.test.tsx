// Header pieces against stubs: weather shown or hidden by the /tarkan/weather answer, the clock
// format, the mute toggle's stored boolean, the name or the shared countdown.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { User } from '@rastro/domain/entities';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { useSession } from '../../app/session-store.ts';
import { useMute } from '../../live/mute.ts';
import { formatClock } from './clock.tsx';
import { Header } from './header.tsx';

const pt = texts['pt-BR'];

const user = (extra: Partial<User> = {}): User => ({
  id: 7, name: 'Ana Souza', login: null, email: 'ana', phone: null, readonly: false, administrator: false, map: null, latitude: 0, longitude: 0,
  zoom: 0, twelveHourFormat: false, coordinateFormat: null, disabled: false, expirationTime: null, deviceLimit: -1, userLimit: 0,
  deviceReadonly: false, limitCommands: false, disableReports: false, fixedEmail: false, poiLayer: null, temporary: false,
  attributes: {}, ...extra,
});

let weather: () => Response;

function renderHeader(mobile = false) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: <Header mobile={mobile} userMenu={<span data-testid="menu-slot" />} /> }]);
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

beforeAll(() => initTestI18n());
beforeEach(() => {
  localStorage.clear();
  useMute.setState({ muted: false });
  useSession.setState({ user: user(), serverInfo: null, expired: false });
  vi.stubGlobal('fetch', vi.fn(async () => weather()));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

describe('header', () => {
  it('shows the weather: icon, rounded °C, city, and a spoken summary', async () => {
    weather = () => json({ temperature: 21.6, weatherCode: 61, isDay: false, city: 'Curitiba', timezone: 'America/Sao_Paulo' });
    renderHeader();
    const widget = await screen.findByTestId('header-weather');
    expect(widget.textContent).toContain('22 °C');
    expect(widget.textContent).toContain('Curitiba');
    expect(widget.getAttribute('title')).toBe(`22 °C, ${pt.weather.rain} em Curitiba`);
    expect(widget.querySelector('svg')?.getAttribute('data-icon')).toBe('rain');
  });

  it('hides the weather when the server has none (503, 204)', async () => {
    for (const answer of [() => new Response('Weather unavailable', { status: 503 }), () => new Response(null, { status: 204 })]) {
      weather = answer;
      renderHeader();
      await act(async () => {
        await new Promise((r) => setTimeout(r, 20));
      });
      expect(screen.queryByTestId('header-weather')).toBeNull();
      expect(screen.getByTestId('header-clock')).toBeTruthy();
      cleanup();
    }
  });

  it('shows the name for regular users and the countdown for shared ones', async () => {
    weather = () => new Response(null, { status: 204 });
    renderHeader();
    expect(screen.getByText('Ana Souza')).toBeTruthy();
    expect(screen.queryByTestId('share-countdown')).toBeNull();
    cleanup();
    useSession.setState({
      user: user({ attributes: { isShared: 1 }, expirationTime: new Date(Date.now() + 2 * 86_400_000 + 5_000).toISOString() }),
    });
    renderHeader();
    const countdown = screen.getByTestId('share-countdown');
    expect(countdown.textContent).toContain(pt.session.expiresIn);
    expect(countdown.textContent).toContain('3 dias');
    expect(screen.queryByText('Ana Souza')).toBeNull();
  });

  it('mute toggle: pressed state and a JSON boolean in localStorage', () => {
    weather = () => new Response(null, { status: 204 });
    renderHeader();
    const toggle = screen.getByRole('button', { name: pt.header.mute });
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(localStorage.getItem('isMuted')).toBe('true');
    fireEvent.click(toggle);
    expect(localStorage.getItem('isMuted')).toBe('false');
  });

  it('has sign-out, the user menu slot and a home link with the product name', () => {
    weather = () => new Response(null, { status: 204 });
    renderHeader();
    expect(screen.getByRole('button', { name: pt.session.logout })).toBeTruthy();
    expect(screen.getByTestId('menu-slot')).toBeTruthy();
    expect(screen.getByRole('link', { name: pt.app.name }).getAttribute('href')).toBe('/home');
    cleanup();
    renderHeader(true);
    expect(screen.getByRole('link', { name: pt.header.home })).toBeTruthy();
    expect(screen.queryByText('Ana Souza')).toBeNull();
  });
});

describe('clock', () => {
  it('formats hours and minutes in the language, 12- or 24-hour', () => {
    const date = new Date(2026, 2, 26, 16, 5);
    expect(formatClock(date, 'pt-BR', false)).toBe('16:05');
    expect(formatClock(date, 'en', true)).toMatch(/^04:05\s?PM$/);
  });
});
