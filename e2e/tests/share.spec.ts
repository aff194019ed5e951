// Shared links (spec §2, §4, §5.17): /share/<token> signs the visitor in with the token and
// opens the shared device; the header counts down to expirationTime; then the session is
// cleared and the "Sua sessão expirou!" dialog's exit button reloads the page.
import { expect, test } from '@playwright/test';
import { Api, uniqueSuffix } from '../support/api.ts';
import { pt } from '../support/texts.ts';
import { shot } from '../support/shots.ts';

async function createShare(lifetimeMs: number): Promise<{ token: string; deviceId: number }> {
  const admin = await Api.admin();
  const device = await admin.createDevice({ name: 'Van compartilhada' });
  const password = `share-${uniqueSuffix()}`;
  const visitor = await admin.createUser({
    name: 'Visitante',
    email: `share-${uniqueSuffix()}`,
    password,
    expirationTime: new Date(Date.now() + lifetimeMs).toISOString(),
    attributes: { isShared: admin.user.id, deviceId: device.id },
  });
  await admin.link({ userId: visitor.id, deviceId: device.id });
  const asVisitor = await Api.login(visitor.email, password);
  const token = await asVisitor.token();
  await asVisitor.dispose();
  await admin.dispose();
  return { token, deviceId: device.id };
}

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('share link: token login, device, countdown, expiry dialog, exit', async ({ page }) => {
      // The page's clock runs normally but can be moved on, so the test need not wait out the share.
      await page.clock.install();
      const { token, deviceId } = await createShare(45_000);
      await page.goto(`/share/${token}`);
      await expect(page).toHaveURL(new RegExp(`/devices/${deviceId}$`));

      const countdown = page.getByTestId('share-countdown');
      const seconds = async () => Number(/(\d+) segundo/.exec((await countdown.textContent()) ?? '')?.[1]);
      await expect(countdown).toContainText(pt.session!.expiresIn!);
      await expect(countdown).toContainText(/\d+ segundos?/);
      const first = await seconds();
      expect(first).toBeGreaterThan(30);
      expect(first).toBeLessThanOrEqual(45);
      await page.clock.fastForward(3_000);
      await expect.poll(seconds).toBeLessThanOrEqual(first - 3);
      await shot(page, 'share-countdown');
      await expect(page.getByRole('alertdialog')).toHaveCount(0);

      await page.clock.fastForward(first * 1000);
      const dialog = page.getByRole('alertdialog');
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(pt.session!.expired!);
      await expect(dialog.getByRole('button', { name: pt.session!.exit! })).toBeFocused();
      await shot(page, 'share-expired');
      // The session was cleared on the server too.
      await expect.poll(async () => (await page.request.get('/api/session')).status()).toBe(404);
      // Escape does not dismiss it.
      await page.keyboard.press('Escape');
      await expect(dialog).toBeVisible();

      await dialog.getByRole('button', { name: pt.session!.exit! }).click();
      await expect(page).toHaveURL(new RegExp(`/login\\?to=%2Fdevices%2F${deviceId}$`));
    });
  });
}

test('an invalid or expired share link says so', async ({ page }) => {
  await page.goto('/share/not-a-real-token');
  await expect(page.getByRole('alert')).toHaveText(pt.errors!.INVALID_SHARE!);
  await page.getByRole('link', { name: pt.login!.goToLogin! }).click();
  await expect(page).toHaveURL(/\/login$/);
});
