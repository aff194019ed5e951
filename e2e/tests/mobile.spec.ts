// The 390 px phone layout: public screens fit without sideways scrolling, touch targets are
// large enough, and the signed-in shell opens.
import { expect, test } from '@playwright/test';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { pt } from '../support/texts.ts';
import { expectNoHorizontalScroll, fillLogin } from '../support/ui.ts';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('login at 390 px fits the screen and signs in', async ({ page }) => {
  await page.goto('/login');
  await expectNoHorizontalScroll(page);
  const card = await page.locator('.auth-card').boundingBox();
  expect(card!.x).toBeGreaterThanOrEqual(0);
  expect(card!.x + card!.width).toBeLessThanOrEqual(390);
  const button = await page.getByRole('button', { name: pt.login!.signIn! }).boundingBox();
  expect(button!.height).toBeGreaterThanOrEqual(44);
  for (const path of ['/register', '/login/recover', '/motorista']) {
    await page.goto(path);
    await expectNoHorizontalScroll(page);
  }
  await page.goto('/login');
  await fillLogin(page, 'admin', ADMIN_PASSWORD);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('button', { name: pt.session!.logout! })).toBeVisible();
  await expectNoHorizontalScroll(page);
});
