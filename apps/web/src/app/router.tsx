// The route table of spec §2. The root route runs the navigation guard on every navigation;
// every screen loads lazily; unknown paths go to /home.
//
// Session screens live under the shell's layout route (map + header + menus). A screen of a
// later issue plugs in by replacing its `mapOnly(path)` with `{ path, lazy: () => import(…) }`;
// until then the route shows the map with an empty content area.
import { lazy, Suspense, type ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { withTexts } from '../i18n/texts.ts';
import { BootScreen, loadShell, RootLayout, RouteError, rootLoader, shouldRevalidate } from './root-layout.tsx';

const toHome = () => redirect('/home');

const Shell = lazy(async () => ({ default: (await loadShell()).Component as ComponentType }));

/** The shell's layout route; its chunk is fetched by the guard once the session is known. */
function ShellLayout() {
  return (
    <Suspense fallback={<BootScreen />}>
      <Shell />
    </Suspense>
  );
}

/** The content area of a screen that has no panel yet: only the map shows. */
const MapOnly = () => null;
const mapOnly = (path: string): RouteObject => ({ path, Component: MapOnly });

const login = () => import('../features/auth/login-page.tsx');
const qrDriver = () => import('../features/qr-driver/qr-driver-page.tsx');

/** Screens of the signed-in shell (session routes). */
export const sessionRoutes: RouteObject[] = [
  mapOnly('home'),
  { path: 'devices', lazy: () => import('../features/devices/devices-page.tsx'), handle: { panel: { title: 'menu.side.devices' } } },
  {
    path: 'devices/:deviceId',
    lazy: () => import('../features/device-detail/device-detail-page.tsx'),
    handle: { panel: { title: 'device.title', back: '/devices' } },
  },
  mapOnly('computed'),
  mapOnly('autolink'),
  mapOnly('autolink/:id'),
  mapOnly('notifications'),
  { path: 'history', lazy: withTexts(['history', 'reports'], () => import('../features/history/history-page.tsx')), handle: { panel: { title: 'history.title' } } },
  {
    path: 'reports',
    children: [
      { index: true, lazy: withTexts(['reports', 'history'], () => import('../features/reports/reports-index.tsx')), handle: { panel: { title: 'menu.side.reports', back: '/home' } } },
      ...(['resume', 'travels', 'stops', 'events', 'history'] as const).map((path) => ({
        path,
        lazy: withTexts(['reports', 'history'], () => import('../features/reports/report-page.tsx').then((m) => ({ Component: m.reportScreen(path) }))),
        handle: { panel: { title: 'menu.side.reports', back: '/reports' } },
      })),
    ],
  },
  mapOnly('geofence'),
  {
    path: 'users',
    lazy: withTexts(['users'], () => import('../features/users/users-page.tsx')),
    handle: { panel: { title: 'menu.user.users', wide: true } },
  },
  mapOnly('groups'),
  mapOnly('commands'),
];

export const routes: RouteObject[] = [
  {
    id: 'root',
    path: '/',
    Component: RootLayout,
    loader: rootLoader,
    shouldRevalidate,
    HydrateFallback: BootScreen,
    ErrorBoundary: RouteError,
    children: [
      { index: true, loader: toHome },
      // Public screens.
      { path: 'login', lazy: login },
      { path: 'login/recover', lazy: () => import('../features/auth/recover-request-page.tsx') },
      { path: 'login/recover/:token', lazy: () => import('../features/auth/recover-reset-page.tsx') },
      { path: 'register', lazy: () => import('../features/auth/register-page.tsx') },
      { path: 'share/:token', lazy: login },
      { path: 'motorista', lazy: login },
      { path: 'maintenance', lazy: () => import('../features/maintenance/maintenance-page.tsx') },
      // QR drivers: a session, but only their screen (no map, no menus).
      { path: 'qr-driver', lazy: qrDriver },
      { path: 'qr-driver/scan/:id', lazy: qrDriver },
      // Everything else signed in: inside the shell.
      { id: 'session', Component: ShellLayout, children: sessionRoutes },
      { path: '*', loader: toHome },
    ],
  },
];

export const router = createBrowserRouter(routes);
