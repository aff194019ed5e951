// The offline worker and the new-version prompt (spec §1, NEW_VERSION_AVAILABLE): the page
// registers /sw.js; when a new build is published and its worker waits, the prompt appears and
// its accept button activates the new worker and reloads into it.
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { env } from '../support/env.ts';
import { pt } from '../support/texts.ts';
import { shot } from '../support/shots.ts';

test.use({ serviceWorkers: 'allow' });

test('worker, manifest and cache headers', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  const manifest = await page.request.get('/manifest.webmanifest');
  expect(manifest.headers()['content-type']).toContain('application/manifest+json');
  expect(manifest.headers()['cache-control']).toBe('no-cache');
  expect((await manifest.json()) as { name: string }).toMatchObject({ name: 'Rastro', display: 'standalone' });
  const sw = await page.request.get('/sw.js');
  expect(sw.headers()['cache-control']).toBe('no-cache');
  const index = await page.request.get('/login', { headers: { accept: 'text/html' } });
  expect(index.headers()['cache-control']).toBe('no-cache');
  const script = await page.locator('script[type="module"]').first().getAttribute('src');
  const asset = await page.request.get(script!);
  expect(asset.headers()['cache-control']).toContain('immutable');
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(new URL('/', page.url()).href);
});

test('a new version waiting shows the prompt; accepting reloads into it', async ({ page }) => {
  const file = path.join(env.webRoot, 'sw.js');
  const original = fs.readFileSync(file, 'utf8');
  try {
    // A returning visitor: the current worker controls the page.
    await page.goto('/login');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await expect(page.getByText(pt.pwa!.NEW_VERSION_AVAILABLE!)).toHaveCount(0);

    // A new build is published; the page looks for updates (hourly, or now).
    fs.writeFileSync(file, `${original}\n// e2e: new version ${Date.now()}\n`);
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    const prompt = page.getByRole('region').filter({ hasText: pt.pwa!.NEW_VERSION_AVAILABLE! });
    await expect(prompt).toBeVisible({ timeout: 15_000 });
    await shot(page, 'pwa-prompt');

    await page.evaluate(() => {
      (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
    });
    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: pt.pwa!.update! }).click();
    await reloaded;
    await expect(page.getByRole('button', { name: pt.login!.signIn! })).toBeVisible();
    expect(await page.evaluate(() => 'beforeUpdate' in window)).toBe(false);
    const state = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return { waiting: registration?.waiting ?? null, controlled: navigator.serviceWorker.controller !== null };
    });
    expect(state).toEqual({ waiting: null, controlled: true });
    await expect(page.getByText(pt.pwa!.NEW_VERSION_AVAILABLE!)).toHaveCount(0);
  } finally {
    fs.writeFileSync(file, original);
  }
});
