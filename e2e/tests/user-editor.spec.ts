// The user editor in the browser (issue 13 item 3): the administrator creates a user from the
// users manager with every tab filled (the spec's messages first), and reopening it shows every
// value kept; "my account" switches the interface language at once and keeps it after saving,
// and its "test notification" is answered and mailed in the account's language; the dialog at 390 px is full
// screen with tabs that scroll sideways. Screenshots at desktop and 390 px, axe clean.
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { User } from '@rastro/domain/entities';
import { decodeAdvancedPerms, PERMISSION_BITS as B } from '@rastro/domain/permissions';
import { Api, uniqueSuffix } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { waitForMail } from '../support/mail.ts';
import { shot } from '../support/shots.ts';
import { en, pt, t } from '../support/texts.ts';
import { expectNoHorizontalScroll, settled, signIn } from '../support/ui.ts';


const f = (name: string) => t(`userEditor.fields.${name}`);
const b = (name: string) => t(`userEditor.billing.${name}`);

async function openUserMenuEntry(page: Page, entry: string, texts: typeof pt = pt) {
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu').getByRole('menuitem', { name: t(`menu.user.${entry}`, undefined, texts) }).click();
}

/** Picks `option` in the Mantine select (a combobox) labelled `label`, typing `search` first when given. */
async function choose(page: Page, dialog: Locator, label: string, option: string, search?: string) {
  const input = dialog.getByRole('combobox', { name: label, exact: true });
  await input.click();
  if (search) await input.fill(search);
  await page.getByRole('option', { name: option, exact: true }).click();
}

const field = (dialog: Locator, label: string) => dialog.getByLabel(label, { exact: true });
const toggle = (dialog: Locator, label: string) => dialog.getByRole('switch', { name: label, exact: true });
const tab = (dialog: Locator, name: string) => dialog.getByRole('tab', { name: t(`userEditor.tabs.${name}`) }).click();

let admin: Api;
let serverBefore: Record<string, unknown>;
test.beforeAll(async () => {
  admin = await Api.admin();
  serverBefore = await admin.get<Record<string, unknown>>('/api/server');
  // The advanced permission editor needs the server switch (the licence is plus by default).
  await admin.put('/api/server', { ...serverBefore, attributes: { ...(serverBefore.attributes as object), 'tarkan.enableAdvancedPerms': true } });
});
test.afterAll(async () => {
  await admin.put('/api/server', serverBefore);
  await admin.dispose();
});

test('the administrator creates a user with every tab filled; reopening it shows every value kept', async ({ page }) => {
  test.setTimeout(120_000);
  const stamp = uniqueSuffix();
  const name = `Cliente ${stamp}`;
  const email = `cliente-${stamp}@example.com`;
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await openUserMenuEntry(page, 'users');
  await expect(page).toHaveURL(/\/users$/);
  await page.getByRole('button', { name: t('users.add') }).click();
  const dialog = page.getByRole('dialog', { name: t('userEditor.title.create') });
  await expect(dialog).toBeVisible();

  // The spec's messages, under their fields.
  await dialog.getByRole('button', { name: t('collection.save') }).click();
  await expect(dialog.getByText(t('forms.nameRequired'))).toBeVisible();
  await expect(dialog.getByText(t('forms.emailRequired'))).toBeVisible();
  await expect(dialog.getByText(t('forms.passwordRequired'))).toBeVisible();
  await field(dialog, f('name')).fill('Al');
  await dialog.getByRole('button', { name: t('collection.save') }).click();
  await expect(dialog.getByText(t('forms.nameShort', { min: 3 }))).toBeVisible();
  await settled(page);
  await shot(page, 'user-editor-errors');
  await expectAccessible(page, 'user editor with errors');

  // Account.
  await field(dialog, f('name')).fill(name);
  await field(dialog, f('email')).fill(email);
  await field(dialog, f('password')).fill('segredo1');
  await field(dialog, f('phone')).fill('+55 11 5555-0101');

  // Preferences.
  await tab(dialog, 'preferences');
  await choose(page, dialog, f('language'), 'English');
  await expect(dialog.getByRole('combobox', { name: f('language'), exact: true })).toHaveValue('English');
  await choose(page, dialog, f('map'), t('userEditor.maps.googleST'));
  await field(dialog, f('latitude')).fill('-8.05');
  await field(dialog, f('longitude')).fill('-34.9');
  await field(dialog, f('zoom')).fill('13');
  await choose(page, dialog, f('coordinateFormat'), t('userEditor.coordinates.dms'));
  await choose(page, dialog, f('speedUnit'), t('userEditor.units.mph'));
  await choose(page, dialog, f('distanceUnit'), t('userEditor.units.mi'));
  await choose(page, dialog, f('volumeUnit'), t('userEditor.units.usGal'));
  await choose(page, dialog, f('timezone'), 'Europe/Lisbon', 'Lisb');
  await expect(dialog.getByRole('combobox', { name: f('timezone'), exact: true })).toHaveValue('Europe/Lisbon');
  await toggle(dialog, f('twelveHourFormat')).check();
  await toggle(dialog, f('clustered')).uncheck();
  // Editing someone else does not switch the administrator's own language.
  await expect(dialog.getByRole('tab', { name: t('userEditor.tabs.preferences') })).toBeVisible();

  // Address.
  await tab(dialog, 'address');
  const address = { zip: '50030-230', street: 'Rua da Aurora', number: '325', complement: 'Sala 4', district: 'Boa Vista', city: 'Recife', state: 'PE' };
  for (const [key, value] of Object.entries(address)) await field(dialog, f(key)).fill(value);

  // Permissions: limits, expiration, reseller, advanced flags.
  await tab(dialog, 'permissions');
  await field(dialog, f('deviceLimit')).fill('7');
  await field(dialog, f('userLimit')).fill('3');
  await field(dialog, f('expirationTime')).fill('2031-05-04T12:30');
  await toggle(dialog, t('userEditor.reseller.reseller')).check();
  await toggle(dialog, t('userEditor.reseller.subReseller')).check();
  await field(dialog, t('userEditor.reseller.domain')).fill('rastreio.cliente.com.br');
  await field(dialog, t('userEditor.reseller.limit')).fill('15');
  const tree = dialog.getByTestId('advanced-perms');
  await toggle(tree, t('userEditor.advanced.areas.users')).uncheck();
  const devices = tree.getByRole('group', { name: t('userEditor.advanced.areas.devices') });
  await toggle(devices, t('userEditor.advanced.actions.delete')).uncheck();
  await settled(page);
  await shot(page, 'user-editor-permissions');
  await expectAccessible(page, 'user editor permissions');

  // Billing.
  await tab(dialog, 'billing');
  await toggle(dialog, b('enabled')).check();
  await field(dialog, b('taxId')).fill('123.456.789-09');
  await field(dialog, b('description')).fill('Mensalidade rastreamento');
  await field(dialog, b('price')).fill('89,90');
  await field(dialog, b('dueDay')).fill('10');
  await toggle(dialog, b('trustUnlock')).check();
  await field(dialog, b('trustUnlockDays')).fill('3');
  await toggle(dialog, b('suspension')).check();
  await field(dialog, b('suspensionDays')).fill('15');
  await field(dialog, b('fine')).fill('2');
  await field(dialog, b('interest')).fill('1,5');
  await field(dialog, b('discount')).fill('5');
  await dialog.locator('[data-field="billingDiscountMode"]').getByText(t('userEditor.billing.modes.FIXED')).click();
  await field(dialog, b('discountDays')).fill('4');
  await settled(page);
  await shot(page, 'user-editor-billing');

  // Communication.
  await tab(dialog, 'communication');
  const contacts = { personalPhone: '+55 81 3333-0000', commercialPhone: '+55 81 3333-1111', whatsapp: '+5581999990000', contactEmail: 'financeiro@cliente.com.br', telegramChatId: '987654321' };
  for (const [key, value] of Object.entries(contacts)) await field(dialog, f(key)).fill(value);

  const created = page.waitForResponse((r) => r.url().endsWith('/api/users') && r.request().method() === 'POST');
  await dialog.getByRole('button', { name: t('collection.save') }).click();
  expect((await created).status()).toBe(200);
  await expect(dialog).toBeHidden();

  // Stored as the API reads it back.
  const stored = (await admin.get<User[]>('/api/users')).find((u) => u.email === email)!;
  expect(stored).toMatchObject({
    name, phone: '+55 11 5555-0101', map: 'googleST', latitude: -8.05, longitude: -34.9, zoom: 13, twelveHourFormat: true,
    coordinateFormat: 'dms', deviceLimit: 7, userLimit: 3, readonly: false, deviceReadonly: false, limitCommands: false,
  });
  expect(Date.parse(stored.expirationTime!)).toBe(Date.parse('2031-05-04T12:30:00-03:00'));
  expect(stored.attributes).toMatchObject({
    'tarkan.lang': 'en', speedUnit: 'mph', distanceUnit: 'mi', volumeUnit: 'usGal', timezone: 'Europe/Lisbon', 'tarkan.mapPref.clustered': false,
    'tarkan.cep': '50030-230', 'tarkan.cidade': 'Recife', 'tarkan.reseller': true, 'tarkan.subReseller': true,
    'tarkan.domainReseller': 'rastreio.cliente.com.br', 'tarkan.limitReseller': 15, 'tarkan.enableBilling': true, 'tarkan.billingPrice': 8990,
    'tarkan.billingDisccountMode': 'FIXED', 'tarkan.billingFineMode': 'PERCENTAGE', 'tarkan.billingInterest': 1.5, telegramChatId: '987654321',
  });
  const flags = decodeAdvancedPerms(stored.attributes['tarkan.advancedPerms'])!;
  expect([flags[B.devices], flags[B.devicesDelete], flags[B.devicesLock], flags[B.users], flags[B.usersCreate], flags[B.reports]])
    .toEqual([true, false, true, false, false, true]);

  // Reopen from the manager: every value is back in its field.
  const row = page.getByRole('listbox', { name: t('users.listLabel') }).getByRole('option').filter({ hasText: name });
  await row.click();
  await page.getByRole('toolbar', { name: t('users.toolbar') }).getByRole('button', { name: t('users.edit') }).click();
  const again = page.getByRole('dialog', { name: t('userEditor.title.edit', { name }) });
  await expect(again).toBeVisible();
  await expect(field(again, f('name'))).toHaveValue(name);
  await expect(field(again, f('email'))).toHaveValue(email);
  await expect(field(again, f('password'))).toHaveValue('');
  await expect(field(again, f('phone'))).toHaveValue('+55 11 5555-0101');
  await tab(again, 'preferences');
  await expect(again.getByRole('combobox', { name: f('language'), exact: true })).toHaveValue('English');
  await expect(again.getByRole('combobox', { name: f('map'), exact: true })).toHaveValue(t('userEditor.maps.googleST'));
  await expect(field(again, f('latitude'))).toHaveValue('-8.05');
  await expect(field(again, f('zoom'))).toHaveValue('13');
  await expect(again.getByRole('combobox', { name: f('timezone'), exact: true })).toHaveValue('Europe/Lisbon');
  await expect(again.getByRole('combobox', { name: f('volumeUnit'), exact: true })).toHaveValue(t('userEditor.units.usGal'));
  await expect(toggle(again, f('twelveHourFormat'))).toBeChecked();
  await expect(toggle(again, f('clustered'))).not.toBeChecked();
  await tab(again, 'address');
  for (const [key, value] of Object.entries(address)) await expect(field(again, f(key))).toHaveValue(value);
  await tab(again, 'permissions');
  await expect(field(again, f('deviceLimit'))).toHaveValue('7');
  await expect(field(again, f('expirationTime'))).toHaveValue('2031-05-04T12:30');
  await expect(field(again, t('userEditor.reseller.domain'))).toHaveValue('rastreio.cliente.com.br');
  await expect(field(again, t('userEditor.reseller.limit'))).toHaveValue('15');
  const treeAgain = again.getByTestId('advanced-perms');
  await expect(toggle(treeAgain, t('userEditor.advanced.areas.users'))).not.toBeChecked();
  await expect(toggle(treeAgain.getByRole('group', { name: t('userEditor.advanced.areas.devices') }), t('userEditor.advanced.actions.delete'))).not.toBeChecked();
  await expect(toggle(treeAgain.getByRole('group', { name: t('userEditor.advanced.areas.devices') }), t('userEditor.advanced.actions.lock'))).toBeChecked();
  await tab(again, 'billing');
  await expect(toggle(again, b('enabled'))).toBeChecked();
  await expect(field(again, b('price'))).toHaveValue('89,90');
  await expect(field(again, b('trustUnlockDays'))).toHaveValue('3');
  await expect(field(again, b('interest'))).toHaveValue('1.5');
  await tab(again, 'communication');
  for (const [key, value] of Object.entries(contacts)) await expect(field(again, f(key))).toHaveValue(value);
  await again.getByRole('button', { name: t('collection.cancel') }).click();
  await expect(again).toBeHidden();
});

test('my account: the language switches at once, stays after saving, and the test notification arrives', async ({ page }) => {
  const stamp = uniqueSuffix();
  const email = `conta-${stamp}@example.com`;
  await admin.createUser({ name: `Conta ${stamp}`, email, password: 'segredo1', attributes: { 'tarkan.lang': 'pt-BR' } });
  await signIn(page, email, 'segredo1');
  await openUserMenuEntry(page, 'account');
  const dialog = page.getByRole('dialog', { name: t('userEditor.title.account') });
  await expect(dialog).toBeVisible();
  // Own privileges are read-only.
  await tab(dialog, 'permissions');
  await expect(toggle(dialog, f('administrator'))).toBeDisabled();
  await expect(field(dialog, f('deviceLimit'))).toBeDisabled();

  await tab(dialog, 'preferences');
  await choose(page, dialog, f('language'), 'English');
  // The interface is English at once, the dialog included.
  const english = page.getByRole('dialog', { name: t('userEditor.title.account', undefined, en) });
  await expect(english.getByRole('tab', { name: t('userEditor.tabs.preferences', undefined, en) })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await settled(page);
  await shot(page, 'user-editor-account');
  await expectAccessible(page, 'my account');

  const saved = page.waitForResponse((r) => /\/api\/users\/\d+$/.test(r.url()) && r.request().method() === 'PUT');
  await english.getByRole('button', { name: t('collection.save', undefined, en) }).click();
  expect((await saved).status()).toBe(200);
  await expect(english).toBeHidden();
  // The next visit is in English too; "test notification" answers and mails in the stored language.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await openUserMenuEntry(page, 'account', en);
  const reopened = page.getByRole('dialog', { name: t('userEditor.title.account', undefined, en) });
  await reopened.getByRole('button', { name: t('userEditor.testNotification', undefined, en) }).click();
  await expect(reopened.getByTestId('test-notification-result')).toHaveText(t('userEditor.testSent', undefined, en));
  const mail = await waitForMail(email);
  expect(mail.text).toContain('This is a test notification');
  const stored = (await admin.get<User[]>('/api/users')).find((u) => u.email === email)!;
  expect(stored.attributes['tarkan.lang']).toBe('en');
});

test('at 390 px the editor fills the screen and its tabs scroll sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await openUserMenuEntry(page, 'account');
  const dialog = page.getByRole('dialog', { name: t('userEditor.title.account') });
  await expect(dialog).toBeVisible();
  const box = (await dialog.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(389);
  const list = dialog.getByRole('tablist');
  const sizes = await list.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
  expect(sizes.scroll).toBeGreaterThan(sizes.client);
  await tab(dialog, 'communication');
  await expect(field(dialog, f('whatsapp'))).toBeVisible();
  await expectNoHorizontalScroll(page);
  await settled(page);
  await shot(page, 'user-editor-account');
  await expectAccessible(page, 'my account at 390 px');
  await tab(dialog, 'permissions');
  await settled(page);
  await shot(page, 'user-editor-permissions');
});
