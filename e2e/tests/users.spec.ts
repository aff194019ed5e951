// Users, resellers and links in the browser (issue 13): the administrator creates a reseller
// in the user editor from the users manager and links a vehicle to it; the reseller sees its
// tree against its limits in the reseller dialog, creates its customer and links the vehicle
// on; the customer sees that vehicle, and its menu follows the advanced permission the
// reseller switches in the editor. Also the manager at 390 px (a tap opens the row's
// actions) and the device detail's links menu.
import { expect, test, type Page } from '@playwright/test';
import type { Device, User } from '@rastro/domain/entities';
import { decodeAdvancedPerms, PERMISSION_BITS as B } from '@rastro/domain/permissions';
import { Api, uniqueSuffix } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { shot } from '../support/shots.ts';
import { t } from '../support/texts.ts';
import { expectNoHorizontalScroll, settled, signIn } from '../support/ui.ts';

async function openUserMenu(page: Page) {
  await page.getByTestId('user-menu-button').click();
  const dropdown = page.getByTestId('user-menu');
  await expect(dropdown).toBeVisible();
  return dropdown;
}

async function openUsers(page: Page) {
  const menu = await openUserMenu(page);
  await menu.getByRole('menuitem', { name: t('menu.user.users') }).click();
  await expect(page).toHaveURL(/\/users$/);
  return page.getByRole('listbox', { name: t('users.listLabel') });
}

/**
 * The users manager's row of `name`, searched for first: the suite's server is shared with
 * every other spec, so the list may hold more users than the virtualised list draws.
 */
async function findRow(page: Page, name: string) {
  await page.getByTestId('screen-panel').getByRole('searchbox').fill(name);
  return page.getByRole('listbox', { name: t('users.listLabel') }).getByRole('option').filter({ hasText: name });
}

/** Links the vehicle to the selected user from the manager's links menu (the related-objects dialog). */
async function linkVehicle(page: Page, userName: string, shotName?: string) {
  const bar = page.getByRole('toolbar', { name: t('users.toolbar') });
  await expect(bar).toContainText(t('users.selected', { name: userName }));
  await bar.getByRole('button', { name: t('users.linksOf', { name: userName }) }).click();
  await expect(page.getByRole('menuitem', { name: t('users.linkTypes.devices') })).toBeVisible();
  await settled(page);
  await expectAccessible(page, 'links menu');
  await page.getByRole('menuitem', { name: t('users.linkTypes.devices') }).click();
  const picker = page.getByRole('dialog', { name: t('users.linkTitle', { type: t('users.linkTypes.devices'), name: userName }) });
  // Searched for: on the suite's shared server the administrator sees more devices than the
  // virtualised list draws.
  await picker.getByRole('searchbox').fill(car.name);
  const box = picker.getByRole('checkbox', { name: car.name });
  await expect(box).not.toBeChecked();
  const linked = page.waitForResponse((r) => r.url().endsWith('/api/permissions') && r.request().method() === 'POST');
  await box.check();
  expect((await linked).status()).toBeLessThan(300);
  await expect(box).toBeChecked();
  if (shotName) {
    await settled(page);
    await shot(page, shotName);
    await expectAccessible(page, 'related-objects dialog');
  }
  await picker.getByRole('button', { name: t('collection.close') }).click();
  await expect(picker).toBeHidden();
}

/** Fills the editor's account tab of a new user and returns the dialog. */
async function newUser(page: Page, name: string, email: string) {
  await page.getByRole('button', { name: t('users.add') }).click();
  const editor = page.getByRole('dialog', { name: t('userEditor.title.create') });
  await expect(editor).toBeVisible();
  await editor.getByLabel(t('userEditor.fields.name'), { exact: true }).fill(name);
  await editor.getByLabel(t('userEditor.fields.email'), { exact: true }).fill(email);
  await editor.getByLabel(t('userEditor.fields.password'), { exact: true }).fill(PASSWORD);
  return editor;
}

const PASSWORD = 'senha-e2e-1';
const stamp = uniqueSuffix();
const resellerEmail = `revenda-${stamp}@example.com`;
const customerEmail = `cliente-${stamp}@example.com`;
let admin: Api;
let serverBefore: Record<string, unknown>;
let car: Device;

// Each test walks several screens on a small shared machine: more than the default 30 s.
test.describe.configure({ mode: 'serial', timeout: 90_000 });

test.beforeAll(async () => {
  admin = await Api.admin();
  // Advanced permissions on (the licence is plus by default), put back after this file.
  serverBefore = await admin.get<Record<string, unknown>>('/api/server');
  const attributes = { ...(serverBefore.attributes as Record<string, unknown>), 'tarkan.enableAdvancedPerms': true };
  await admin.put('/api/server', { ...serverBefore, attributes });
  car = await admin.createDevice({ name: `Carro do Cliente ${stamp}` });
});

test.afterAll(async () => {
  await admin.put('/api/server', serverBefore);
  await admin.dispose();
});

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('rastro.testHooks', '1'));
});

test.describe('desktop 1280 px', () => {
  test('the administrator creates a reseller in the editor and links a vehicle to it', async ({ page }) => {
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await expect((await openUsers(page)).getByRole('option').first()).toBeVisible({ timeout: 15_000 });
    const editor = await newUser(page, 'Revenda Sul', resellerEmail);
    await editor.getByRole('tab', { name: t('userEditor.tabs.permissions') }).click();
    await editor.getByLabel(t('userEditor.fields.deviceLimit'), { exact: true }).fill('10');
    await editor.getByLabel(t('userEditor.fields.userLimit'), { exact: true }).fill('5');
    await editor.getByRole('switch', { name: t('userEditor.reseller.reseller'), exact: true }).check();
    await editor.getByRole('switch', { name: t('userEditor.reseller.subReseller'), exact: true }).check();
    await editor.getByLabel(t('userEditor.reseller.domain'), { exact: true }).fill('rastro.revendasul.com.br');
    await editor.getByLabel(t('userEditor.reseller.limit'), { exact: true }).fill('3');
    // Its advanced permissions: everything but shares.
    await editor.getByRole('switch', { name: t('userEditor.advanced.areas.share'), exact: true }).uncheck();
    await editor.getByRole('button', { name: t('collection.save') }).click();
    await expect(editor).toBeHidden({ timeout: 15_000 });

    const users = await admin.get<User[]>('/api/users');
    const reseller = users.find((u) => u.email === resellerEmail)!;
    expect(reseller).toMatchObject({ userLimit: 5, deviceLimit: 10 });
    const flags = decodeAdvancedPerms(reseller.attributes['tarkan.advancedPerms'])!;
    expect([B.users, B.usersCreate, B.usersEdit, B.devices, B.reports].map((bit) => flags[bit])).toEqual([true, true, true, true, true]);
    expect(flags[B.share]).toBe(false);
    expect(reseller.attributes).toMatchObject({
      'tarkan.reseller': true, 'tarkan.subReseller': true, 'tarkan.limitReseller': 3, 'tarkan.domainReseller': 'rastro.revendasul.com.br',
    });

    const row = await findRow(page, 'Revenda Sul');
    await row.click();
    // An administrator with the plus licence also gets the user's logs.
    const bar = page.getByRole('toolbar', { name: t('users.toolbar') });
    await bar.getByRole('button', { name: t('users.logs') }).click();
    // The advanced logs open on that user (the logs feature's dialog).
    const logs = page.getByRole('dialog', { name: t('logs.title.user', { name: 'Revenda Sul' }) });
    await expect(logs).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(logs).toBeHidden();
    await linkVehicle(page, 'Revenda Sul');
    await expect(row.locator('.cl-cell').last()).toHaveText('1');
    await settled(page);
    await shot(page, 'users-manager-admin');
    await expectAccessible(page, 'users manager (administrator)');
  });

  test('the reseller sees its tree against its limits, creates its customer and links the vehicle to it', async ({ page }) => {
    await signIn(page, resellerEmail, PASSWORD);
    const menu = await openUserMenu(page);
    await expect(menu.locator('[data-menu]')).toHaveText([t('menu.user.account'), t('menu.user.users'), t('menu.user.calendars'), t('menu.user.reseller'), t('menu.user.logout')]);
    await page.keyboard.press('Escape');

    const list = await openUsers(page);
    await expect(list.or(page.getByText(t('collection.empty')))).toBeVisible({ timeout: 15_000 });
    const editor = await newUser(page, 'Cliente Norte', customerEmail);
    await editor.getByRole('button', { name: t('collection.save') }).click();
    await expect(editor).toBeHidden({ timeout: 15_000 });
    // Its tree only: the customer, not the administrator nor the reseller itself.
    const row = await findRow(page, 'Cliente Norte');
    await expect(row).toBeVisible();
    await expect(list.getByRole('option')).toHaveCount(1);
    await expect(row.locator('.cl-cell').last()).toHaveText('0');
    await row.click();
    await linkVehicle(page, 'Cliente Norte', 'users-link-devices');
    await expect(row.locator('.cl-cell').last()).toHaveText('1');
    await settled(page);
    await shot(page, 'users-manager-reseller');
    await expectAccessible(page, 'users manager (reseller)');

    await (await openUserMenu(page)).getByRole('menuitem', { name: t('menu.user.reseller') }).click();
    const dialog = page.getByRole('dialog', { name: t('reseller.title') });
    await expect(dialog.getByTestId('reseller-users-amount')).toHaveText(t('reseller.ofLimit', { used: 1, limit: 3 }));
    await expect(dialog.getByTestId('reseller-devices-amount')).toHaveText(t('reseller.ofLimit', { used: 1, limit: 10 }));
    await expect(dialog.getByTestId('reseller-domain')).toHaveText('rastro.revendasul.com.br');
    await expect(dialog.getByTestId('reseller-sub')).toHaveText(t('collection.yes'));
    await expect(dialog.getByRole('progressbar', { name: t('reseller.usage', { name: t('reseller.users'), percent: 33 }) })).toBeVisible();
    await settled(page);
    await shot(page, 'users-reseller-dialog');
    await expectAccessible(page, 'reseller dialog');
    await dialog.getByRole('button', { name: t('collection.close') }).click();
    await expect(dialog).toBeHidden();
  });

  test('the customer sees the vehicle and the reports its permissions allow', async ({ page }) => {
    await signIn(page, customerEmail, PASSWORD);
    const nav = page.getByRole('navigation', { name: t('shell.navigation') });
    await expect(nav.getByRole('link', { name: t('menu.side.reports') })).toBeVisible();
    const menu = await openUserMenu(page);
    await expect(menu.locator('[data-menu="users"]')).toHaveCount(0);
    await expect(menu.locator('[data-menu="reseller"]')).toHaveCount(0);
    // "My account" opens the user editor on oneself.
    await menu.getByRole('menuitem', { name: t('menu.user.account') }).click();
    const account = page.getByRole('dialog', { name: t('userEditor.title.account') });
    await expect(account.getByLabel(t('userEditor.fields.name'), { exact: true })).toHaveValue('Cliente Norte');
    await page.keyboard.press('Escape');
    await expect(account).toBeHidden();
    await page.goto('/devices');
    await expect(page.getByTestId('screen-panel').getByText(car.name)).toBeVisible({ timeout: 15_000 });
  });

  test('the reseller switches the customer\'s reports off in the editor; the customer\'s menu follows', async ({ page, browser }) => {
    await signIn(page, resellerEmail, PASSWORD);
    await openUsers(page);
    await (await findRow(page, 'Cliente Norte')).click();
    await page.getByRole('toolbar', { name: t('users.toolbar') }).getByRole('button', { name: t('users.edit') }).click();
    const editor = page.getByRole('dialog', { name: t('userEditor.title.edit', { name: 'Cliente Norte' }) });
    await editor.getByRole('tab', { name: t('userEditor.tabs.permissions') }).click();
    const reports = editor.getByRole('switch', { name: t('userEditor.advanced.areas.reports'), exact: true });
    await expect(reports).toBeChecked();
    await reports.uncheck();
    await editor.getByRole('button', { name: t('collection.save') }).click();
    await expect(editor).toBeHidden({ timeout: 15_000 });

    const customerPage = await (await browser.newContext()).newPage();
    await signIn(customerPage, customerEmail, PASSWORD);
    const nav = customerPage.getByRole('navigation', { name: t('shell.navigation') });
    await expect(nav.getByRole('link', { name: t('menu.side.devices') })).toBeVisible();
    await expect(nav.getByRole('link', { name: t('menu.side.reports') })).toHaveCount(0);
    await shot(customerPage, 'users-customer-menu');
    await expectAccessible(customerPage, 'customer shell without reports');
    await customerPage.context().close();
  });

  test('the device detail links geofences, notifications and the rest to the vehicle', async ({ page }) => {
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto(`/devices/${car.id}`);
    const panel = page.getByTestId('screen-panel');
    await expect(panel.getByRole('heading', { name: car.name })).toBeVisible({ timeout: 15_000 });
    await panel.getByRole('button', { name: t('users.links'), exact: true }).click();
    await expect(page.getByRole('menuitem')).toHaveText(
      ['geofences', 'notifications', 'drivers', 'attributes', 'commands', 'maintenance'].map((k) => t(`users.linkTypes.${k}`)),
    );
    await settled(page);
    await expectAccessible(page, 'device links menu');
    await page.getByRole('menuitem', { name: t('users.linkTypes.geofences') }).click();
    const picker = page.getByRole('dialog', { name: t('users.linkTitle', { type: t('users.linkTypes.geofences'), name: car.name }) });
    await expect(picker.getByRole('searchbox', { name: t('collection.searchObjects') })).toBeVisible();
    // Loaded: the server's geofences (other specs may have made some) or the empty state.
    await expect(picker.getByRole('checkbox').first().or(picker.getByText(t('collection.empty')))).toBeVisible();
    await settled(page);
    await expectAccessible(page, 'device links dialog');
  });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the manager fills the sheet; tapping a row opens its actions', async ({ page }) => {
    await signIn(page, resellerEmail, PASSWORD);
    await page.goto('/users');
    const row = page.getByRole('option').filter({ hasText: 'Cliente Norte' });
    await expect(row).toBeVisible({ timeout: 15_000 });
    await expect(row.locator('.cl-cell').last()).toHaveText('1');
    await settled(page);
    await expectNoHorizontalScroll(page);
    await shot(page, 'users-manager');
    await row.click();
    await expect(page.getByRole('button', { name: t('users.actionsFor', { name: 'Cliente Norte' }) })).toBeVisible();
    const links = page.getByRole('menuitem', { name: t('users.linkTypes.devices') });
    await expect(links).toBeVisible();
    await expect(page.getByRole('menuitem', { name: t('users.delete') })).toBeVisible();
    await settled(page);
    await expectNoHorizontalScroll(page);
    await shot(page, 'users-manager-actions');
    await expectAccessible(page, 'users manager at 390 px');
    await links.click();
    const picker = page.getByRole('dialog', { name: t('users.linkTitle', { type: t('users.linkTypes.devices'), name: 'Cliente Norte' }) });
    await expect(picker.getByRole('checkbox', { name: car.name })).toBeChecked();
    await settled(page);
    await shot(page, 'users-link-devices');
    await expectAccessible(page, 'related-objects dialog at 390 px');
    await picker.getByRole('button', { name: t('collection.close') }).click();

    await page.getByTestId('user-menu-button').click();
    await page.getByRole('menuitem', { name: t('menu.user.reseller') }).click();
    await expect(page.getByTestId('reseller-users-amount')).toBeVisible();
    await settled(page);
    await shot(page, 'users-reseller-dialog');
    await expectAccessible(page, 'reseller dialog at 390 px');
  });
});
