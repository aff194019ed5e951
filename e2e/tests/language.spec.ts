// Languages (spec §1): ?locale= first, then the browser language; <html lang> follows the
// active language; the login screen switches between pt-BR, Español and English.
import { expect, test } from '@playwright/test';
import { Api } from '../support/api.ts';
import { en, es, pt } from '../support/texts.ts';

test('?locale=es gives Spanish and <html lang="es">', async ({ page }) => {
  await page.goto('/login?locale=es');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { name: es.login!.title! })).toBeVisible();
  await expect(page.getByLabel(es.login!.username!)).toBeVisible();
});

test('the browser language decides without ?locale=, and unknown ones fall back to English', async ({ browser }) => {
  for (const [locale, heading, lang] of [['es-AR', es.login!.title!, 'es'], ['en-GB', en.login!.title!, 'en'], ['de-DE', en.login!.title!, 'en'], ['pt-BR', pt.login!.title!, 'pt-BR']] as const) {
    const context = await browser.newContext({ locale, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('heading', { name: heading })).toBeVisible();
    await context.close();
  }
});

test('the switcher on the login screen changes the language and keeps it in the address', async ({ page }) => {
  await page.goto('/login?to=%2Fdevices');
  const switcher = page.getByRole('navigation', { name: pt.languages!.label! });
  await switcher.getByRole('button', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByRole('heading', { name: en.login!.title! })).toBeVisible();
  await expect(page.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
  expect(new URL(page.url()).searchParams.get('locale')).toBe('en');
  expect(new URL(page.url()).searchParams.get('to')).toBe('/devices');
  await page.reload();
  await expect(page.getByRole('heading', { name: en.login!.title! })).toBeVisible();
  await page.getByRole('button', { name: 'Español' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('button', { name: es.login!.signIn! })).toBeVisible();
});

test("the account's tarkan.lang takes over once signed in", async ({ page }) => {
  const admin = await Api.admin();
  const user = await admin.createUser({ password: 'lang-pass', attributes: { 'tarkan.lang': 'en' } });
  await admin.dispose();
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
  await page.getByLabel(pt.login!.username!).fill(user.email);
  await page.getByLabel(pt.login!.password!, { exact: true }).fill('lang-pass');
  await page.getByRole('button', { name: pt.login!.signIn! }).click();
  await expect(page.getByRole('button', { name: en.session!.logout! })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});
