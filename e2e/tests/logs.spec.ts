// The advanced logs in the browser (issue 13 item 8): the administrator signs in and changes a
// server setting, then opens the logs from the user menu and finds both — the sign-in and the
// settings change with its field-by-field difference — by searching; sorts by IP; opens one
// device's log from its detail. Screenshots at desktop and 390 px, axe clean.
import { expect, test, type Page } from '@playwright/test';
import type { Server } from '@rastro/domain/entities';
import { Api, uniqueSuffix } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { shot } from '../support/shots.ts';
import { t } from '../support/texts.ts';
import { expectNoHorizontalScroll, settled, signIn } from '../support/ui.ts';

async function openLogs(page: Page) {
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu').getByRole('menuitem', { name: t('menu.user.logs') }).click();
  const dialog = page.getByRole('dialog', { name: t('logs.title.all') });
  await expect(dialog.getByTestId('logs-list')).toBeVisible({ timeout: 15_000 });
  return dialog;
}

const MARK = `e2e-logs-${uniqueSuffix()}`;

test.describe('advanced logs', () => {
  test.beforeAll(async () => {
    // A settings change with a value to find: a generic attribute the other specs do not read.
    const admin = await Api.admin();
    const server = await admin.get<Server>('/api/server');
    await admin.put('/api/server', { ...server, attributes: { ...server.attributes, e2eLogMark: MARK } });
    await admin.dispose();
  });
  test.afterAll(async () => {
    const admin = await Api.admin();
    const server = await admin.get<Server>('/api/server');
    const attributes = { ...server.attributes };
    delete attributes.e2eLogMark;
    await admin.put('/api/server', { ...server, attributes });
    await admin.dispose();
  });

  test('finds the sign-in and the settings change, with its difference, by searching; sorts by IP', async ({ page }) => {
    await signIn(page, 'admin', ADMIN_PASSWORD);
    const dialog = await openLogs(page);
    const rows = dialog.getByTestId('logs-row');

    const search = dialog.getByLabel(t('logs.search'));
    await search.fill(MARK);
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(t('logs.actions.serverEdited'));
    await expect(rows.first()).toContainText(`attributes.e2eLogMark: ${t('logs.diff.empty')} → ${MARK}`);

    await search.fill(t('logs.actions.login'));
    await expect(rows.first()).toBeVisible();
    await expect(rows.first()).toContainText('admin');
    await expect(rows.first().locator('.lg-col-agent')).toContainText(/Chrome/);

    await search.fill('');
    await dialog.getByTestId('logs-sort-ip').click();
    await expect(dialog.getByTestId('logs-sort-ip')).toHaveAttribute('aria-pressed', 'true');
    await settled(page);
    await shot(page, 'logs');
    await expectAccessible(page, 'logs');
  });

  test("a device's detail opens that device's log", async ({ page }) => {
    const admin = await Api.admin();
    const device = await admin.createDevice({ name: `Logs ${uniqueSuffix()}` });
    await admin.put(`/api/devices/${device.id}`, { ...device, phone: '+5511988887777' });
    await admin.dispose();
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto(`/devices/${device.id}`);
    await page.getByTestId('logs-button').click();
    const dialog = page.getByRole('dialog', { name: t('logs.title.device', { name: device.name }) });
    const rows = dialog.getByTestId('logs-row');
    await expect(rows).toHaveCount(2, { timeout: 15_000 });
    await expect(rows.nth(0)).toContainText(t('logs.actions.deviceEdited', { name: device.name }));
    await expect(rows.nth(0)).toContainText('+5511988887777');
    await expect(rows.nth(1)).toContainText(t('logs.actions.deviceCreated', { name: device.name }));
  });

  test.describe('at 390 px', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('each entry is a card, the dialog full screen, nothing overflows', async ({ page }) => {
      await signIn(page, 'admin', ADMIN_PASSWORD);
      const dialog = await openLogs(page);
      await expect(dialog.getByTestId('logs-row').first()).toBeVisible();
      const box = (await dialog.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(389);
      await settled(page);
      await expectNoHorizontalScroll(page);
      await shot(page, 'logs');
      await expectAccessible(page, 'logs at 390 px');
    });
  });
});
