// Steps several tests share, written the way a person uses the screens (pt-BR by default).
import { expect, type Page } from '@playwright/test';
import { pt } from './texts.ts';

export async function fillLogin(page: Page, user: string, password: string, options: { remember?: boolean; driver?: boolean } = {}) {
  await page.getByLabel(options.driver ? pt.login!.driverName! : pt.login!.username!).fill(user);
  await page.getByLabel(pt.login!.password!, { exact: true }).fill(password);
  if (options.remember) await page.getByLabel(pt.login!.rememberMe!).check();
  await page.getByRole('button', { name: pt.login!.signIn! }).click();
}

/** Opens /login and signs in; waits until the signed-in shell shows. */
export async function signIn(page: Page, user: string, password: string, options: { remember?: boolean } = {}) {
  await page.goto('/login');
  await fillLogin(page, user, password, options);
  await expect(page.getByRole('button', { name: pt.session!.logout! })).toBeVisible();
}

/** The page has no horizontal scrolling (nothing wider than the viewport). */
export async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** Navigates inside the running app (as a link would), without reloading the page. */
export async function spaNavigate(page: Page, path: string) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Dialogs and menus fade in: look (and check colours) once every transition has finished. */
export async function settled(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().length === 0);
}
