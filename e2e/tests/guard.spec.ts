// The navigation guard (spec §2): session routes send people without a session to the login
// (or the driver login) with ?to=, and back there after signing in; every route of the table
// exists; unknown paths go to /home.
import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { pt } from '../support/texts.ts';
import { fillLogin, signIn, spaNavigate } from '../support/ui.ts';

const SESSION_ROUTES = [
  '/home', '/devices', '/devices/1', '/computed', '/autolink', '/autolink/3', '/notifications', '/history',
  '/reports', '/reports/resume', '/reports/travels', '/reports/stops', '/reports/events', '/reports/history',
  '/geofence', '/users', '/groups', '/commands',
];

test('a session route without a session goes to the login and comes back after it', async ({ page }) => {
  await page.goto('/devices');
  await expect(page).toHaveURL(/\/login\?to=%2Fdevices$/);
  await expect(page.getByRole('heading', { name: pt.login!.title! })).toBeVisible();
  await fillLogin(page, 'admin', ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/devices$/);
  await expect(page.getByRole('button', { name: pt.session!.logout! })).toBeVisible();
});

test('driver routes go to the driver login', async ({ page }) => {
  await page.goto('/qr-driver/scan/12');
  await expect(page).toHaveURL(/\/motorista\?to=%2Fqr-driver%2Fscan%2F12$/);
  await expect(page.getByRole('heading', { name: pt.login!.driverTitle! })).toBeVisible();
});

test('every session route of the table exists; unknown paths go to /home', async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  for (const route of SESSION_ROUTES) {
    await spaNavigate(page, route);
    await expect(page).toHaveURL(new RegExp(`${route.replace(/\//g, '\\/')}$`));
    await expect(page.getByRole('button', { name: pt.session!.logout! })).toBeVisible();
  }
  // A full load of a deep link works too.
  await page.goto('/reports/history');
  await expect(page.getByRole('button', { name: pt.session!.logout! })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/reports/history');
  for (const unknown of ['/nowhere', '/devices/1/extra', '/reports/unknown']) {
    await spaNavigate(page, unknown);
    await expect(page).toHaveURL(/\/home$/);
  }
  await page.goto('/');
  await expect(page).toHaveURL(/\/home$/);
});

test('a page load restores the cookie session (server info, session, user data)', async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  const calls: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) calls.push(`${r.method()} ${url.pathname}`);
  });
  await page.goto('/reports/stops');
  await expect(page.getByRole('button', { name: pt.session!.logout! })).toBeVisible();
  await expect(page).toHaveURL(/\/reports\/stops$/);
  expect(calls.slice(0, 2)).toEqual(['GET /api/server', 'GET /api/session']);
});
