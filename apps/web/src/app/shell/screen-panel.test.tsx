// The screen panel: routes that ask for it (handle.panel) get the panel chrome over the map,
// map-only routes render without any; close goes home; on mobile it is a bottom sheet.
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MantineProvider } from '@mantine/core';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import { initTestI18n, texts } from '../../i18n/test-i18n.ts';
import { ScreenPanel } from './screen-panel.tsx';

const pt = texts['pt-BR'];

function Layout({ mobile }: { mobile: boolean }) {
  const location = useLocation();
  return (
    <>
      <p data-testid="where">{location.pathname}</p>
      <ScreenPanel mobile={mobile}>
        <Outlet />
      </ScreenPanel>
    </>
  );
}

function renderAt(path: string, mobile = false) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: <Layout mobile={mobile} />,
        children: [
          { path: 'home', element: null },
          { path: 'devices', element: <p>device list</p>, handle: { panel: { title: 'menu.side.devices' } } },
          { path: 'users', element: <p>users</p>, handle: { panel: { title: 'menu.user.users', wide: true } } },
          { path: 'reports', handle: { panel: { title: 'menu.side.reports', back: '/home' } }, children: [{ path: 'stops', element: <p>stops</p> }] },
        ],
      },
    ],
    { initialEntries: ['/home', path] },
  );
  render(
    <MantineProvider>
      <RouterProvider router={router} />
    </MantineProvider>,
  );
}

beforeAll(() => initTestI18n());
afterEach(cleanup);

describe('screen panel', () => {
  it('is absent on map-only routes', () => {
    renderAt('/home');
    expect(screen.queryByTestId('screen-panel')).toBeNull();
  });

  it('wraps a screen that asks for it, titled, and closes to /home', () => {
    renderAt('/devices');
    const panel = screen.getByTestId('screen-panel');
    expect(screen.getByRole('heading', { name: pt.menu.side.devices })).toBeTruthy();
    expect(panel.textContent).toContain('device list');
    expect(panel.className).not.toContain('is-sheet');
    fireEvent.click(screen.getByRole('button', { name: pt.shell.panelClose }));
    expect(screen.getByTestId('where').textContent).toBe('/home');
    expect(screen.queryByTestId('screen-panel')).toBeNull();
  });

  it('takes the handle of a parent route; back follows `back`', () => {
    renderAt('/reports/stops');
    expect(screen.getByRole('heading', { name: pt.menu.side.reports })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: pt.shell.panelBack }));
    expect(screen.getByTestId('where').textContent).toBe('/home');
  });

  it('is wider for a screen that asks (a table), on desktop only', () => {
    renderAt('/users');
    expect(screen.getByTestId('screen-panel').className).toContain('is-wide');
    cleanup();
    renderAt('/users', true);
    expect(screen.getByTestId('screen-panel').className).not.toContain('is-wide');
    cleanup();
    renderAt('/devices');
    expect(screen.getByTestId('screen-panel').className).not.toContain('is-wide');
  });

  it('is a bottom sheet on mobile that expands and collapses', () => {
    renderAt('/devices', true);
    const panel = screen.getByTestId('screen-panel');
    expect(panel.className).toContain('is-sheet');
    const handle = screen.getAllByRole('button', { name: pt.shell.panelExpand })[0]!;
    expect(handle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(handle);
    expect(panel.className).toContain('is-expanded');
    expect(screen.getAllByRole('button', { name: pt.shell.panelCollapse }).length).toBe(2);
  });
});
