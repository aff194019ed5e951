// Server settings in the browser (issue 13 item 7): the administrator opens them from the user
// menu, switches an option and a QR driver rule, and finds both kept after a reload; a bad
// timeout is refused in the form before anything is sent; the server restarts from the dialog
// (after the confirmation that says it may take minutes) and the app comes back by itself.
// Screenshots at desktop and 390 px, axe clean.
import { expect, test, type Page } from '@playwright/test';
import type { Server } from '@rastro/domain/entities';
import { QR_DRIVER_KEYS } from '@rastro/domain/server-settings';
import { Api } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { shot } from '../support/shots.ts';
import { t } from '../support/texts.ts';
import { expectNoHorizontalScroll, settled, signIn } from '../support/ui.ts';

async function openSettings(page: Page) {
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu').getByRole('menuitem', { name: t('menu.user.server') }).click();
  const dialog = page.getByRole('dialog', { name: t('server.title') });
  await expect(dialog.getByRole('tab', { name: t('server.tabs.preferences') })).toBeVisible({ timeout: 15_000 });
  return dialog;
}

/** The switch whose label starts with `label` (Mantine's label holds the description too). */
const switchOf = (page: Page, label: string) => page.getByRole('switch', { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });

const TOUCHED = ['tarkan.enableQrDriverId', QR_DRIVER_KEYS.unlockOnCheckIn, QR_DRIVER_KEYS.lockWithoutDriver, QR_DRIVER_KEYS.lockAfterMinutes];

test.describe('server settings', () => {
  test.afterAll(async () => {
    // Leave the shared server as the other specs expect it.
    const admin = await Api.admin();
    const server = await admin.get<Server>('/api/server');
    const attributes = { ...server.attributes };
    for (const key of TOUCHED) delete attributes[key];
    await admin.put('/api/server', { ...server, attributes });
    await admin.dispose();
  });

  test('an administrator switches an option and a QR rule; both are kept after a reload', async ({ page }) => {
    await signIn(page, 'admin', ADMIN_PASSWORD);
    let dialog = await openSettings(page);
    await settled(page);
    await shot(page, 'server-settings');
    await expectAccessible(page, 'server settings (preferences)');

    await dialog.getByRole('tab', { name: t('server.tabs.options') }).click();
    const qr = switchOf(page, t('server.options.qrDriver.label'));
    await expect(qr).not.toBeChecked();
    await qr.check({ force: true });
    await dialog.getByRole('tab', { name: t('server.tabs.qrDriver') }).click();
    await switchOf(page, t('server.qr.unlockOnCheckIn')).check({ force: true });
    // A rule switched on needs its minutes: refused in the form, nothing sent.
    await switchOf(page, t('server.qr.lockWithoutDriver')).check({ force: true });
    let puts = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && new URL(r.url()).pathname === '/api/server') puts++;
    });
    await dialog.getByRole('button', { name: t('collection.save') }).click();
    await expect(dialog.getByText(t('collection.issues.required'))).toBeVisible();
    expect(puts).toBe(0);
    await settled(page);
    await expectAccessible(page, 'server settings (QR rules, a problem shown)');
    await dialog.getByLabel(t('server.qr.lockAfterMinutes')).fill('4');
    await dialog.getByRole('button', { name: t('collection.save') }).click();
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    expect(puts).toBe(1);

    await page.reload();
    await expect(page.getByTestId('user-menu-button')).toBeVisible({ timeout: 15_000 });
    dialog = await openSettings(page);
    await dialog.getByRole('tab', { name: t('server.tabs.options') }).click();
    await expect(switchOf(page, t('server.options.qrDriver.label'))).toBeChecked();
    await dialog.getByRole('tab', { name: t('server.tabs.qrDriver') }).click();
    await expect(switchOf(page, t('server.qr.unlockOnCheckIn'))).toBeChecked();
    await expect(dialog.getByLabel(t('server.qr.lockAfterMinutes'))).toHaveValue('4');
    await settled(page);
    await shot(page, 'server-settings-qr');

    const admin = await Api.admin();
    const stored = (await admin.get<Server>('/api/server')).attributes;
    expect(stored).toMatchObject({ 'tarkan.enableQrDriverId': true, [QR_DRIVER_KEYS.unlockOnCheckIn]: true, [QR_DRIVER_KEYS.lockAfterMinutes]: 4 });
    await admin.dispose();
  });

  test('restarts the server from the dialog, and the app comes back', async ({ page }) => {
    await signIn(page, 'admin', ADMIN_PASSWORD);
    const dialog = await openSettings(page);
    await dialog.getByRole('button', { name: t('server.restart.button') }).click();
    const confirm = page.getByTestId('server-restart-dialog');
    await expect(confirm.getByText(t('server.restart.body'))).toBeVisible();
    await settled(page);
    await expectAccessible(page, 'restart confirmation');
    const restarted = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/server/restart');
    await confirm.getByRole('button', { name: t('server.restart.confirm') }).click();
    expect((await restarted).status()).toBe(200);
    await expect(confirm.getByText(t('server.restart.back'))).toBeVisible({ timeout: 60_000 });
    await confirm.getByRole('button', { name: t('server.restart.close') }).click();
    await page.keyboard.press('Escape');
    // Still signed in after a reload: the new instance serves the same sessions.
    await page.reload();
    await expect(page.getByTestId('user-menu-button')).toBeVisible({ timeout: 15_000 });
    await expect(page).not.toHaveURL(/\/login/);
  });

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('the dialog is full screen, its tabs scroll sideways, nothing overflows', async ({ page }) => {
      await signIn(page, 'admin', ADMIN_PASSWORD);
      const dialog = await openSettings(page);
      const box = (await dialog.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(389);
      await dialog.getByRole('tab', { name: t('server.tabs.permissions') }).click();
      await settled(page);
      await expectNoHorizontalScroll(page);
      await shot(page, 'server-settings-permissions');
      await expectAccessible(page, 'server settings at 390 px');
      await dialog.getByRole('tab', { name: t('server.tabs.attributes') }).click();
      await dialog.getByRole('button', { name: t('server.attributes.add') }).click();
      await settled(page);
      await expectNoHorizontalScroll(page);
      await shot(page, 'server-settings-attributes');
    });
  });
});
