// /maintenance (spec §2, §8): when server info cannot be loaded the guard goes there; it
// retries every 30 s (and on "try now") and returns by itself once the server answers.
import { expect, test } from '@playwright/test';
import { fill, pt } from '../support/texts.ts';

test('server down → /maintenance; retries; back to where the person was going', async ({ page }) => {
  await page.clock.install();
  await page.route('**/api/server', (route) => route.abort('connectionrefused'));
  await page.goto('/devices');
  await expect(page).toHaveURL(/\/maintenance\?to=%2Fdevices$/);
  await expect(page.getByRole('heading', { name: pt.maintenance!.title! })).toBeVisible();
  await expect(page.getByText(pt.maintenance!.text!)).toBeVisible();

  // "Try now" while still down says so.
  const retry = page.getByRole('button', { name: pt.maintenance!.retry! });
  const attempt = page.waitForRequest('**/api/server');
  await retry.click();
  await attempt;
  await expect(page.getByRole('status')).toContainText(fill(pt.maintenance!.stillDown, { time: '' }).split('(')[0]!.trim());

  // The server is back: within the next 30 s the page returns by itself.
  await page.unroute('**/api/server');
  await page.clock.runFor(29_000);
  await expect(page).toHaveURL(/\/maintenance/);
  await page.clock.runFor(2_000);
  // /devices needs a session, so the guard continues to the login with the same target.
  await expect(page).toHaveURL(/\/login\?to=%2Fdevices$/);
});

test('"try now" returns at once when the server answers again', async ({ page }) => {
  await page.route('**/api/server', (route) => route.fulfill({ status: 503, body: 'down' }));
  await page.goto('/login');
  await expect(page).toHaveURL(/\/maintenance\?to=%2Flogin$/);
  // Its own first attempt has failed too.
  await expect(page.getByRole('status')).toBeVisible();
  await page.unroute('**/api/server');
  await page.getByRole('button', { name: pt.maintenance!.retry! }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: pt.login!.title! })).toBeVisible();
});
