// The device editor: create through the "add device" entry point (openDeviceEditor, as the device
// list calls it), edit from the detail panel across the tabs, validation errors on the form, the
// server's duplicate-identifier error translated, the odometer saved in metres, delete.
import { expect, test, type Page } from '@playwright/test';
import type { Device, Position } from '@rastro/domain/entities';
import { Api } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { osmandReport } from '../support/osmand.ts';
import { shot } from '../support/shots.ts';
import { pt, t } from '../support/texts.ts';
import { expectNoHorizontalScroll, settled, signIn } from '../support/ui.ts';

declare global {
  interface Window {
    __rastroOpenDeviceEditor?: (id?: number | null) => void;
  }
}

let admin: Api;
test.beforeAll(async () => {
  admin = await Api.admin();
});
test.afterAll(async () => {
  await admin.dispose();
});
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('rastro.testHooks', '1'));
});

async function report(uniqueId: string, latitude: number, longitude: number): Promise<void> {
  await osmandReport(uniqueId, latitude, longitude);
}

async function openDetail(page: Page, device: Device) {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto(`/devices/${device.id}`);
  const panel = page.getByTestId('screen-panel');
  await expect(panel.getByRole('heading', { name: device.name })).toBeVisible({ timeout: 15_000 });
  return panel;
}

test('create: required fields shown on the form, then saved with attributes', async ({ page }) => {
  const existing = await admin.createDevice({ name: 'Editor Base' });
  await openDetail(page, existing);
  await page.evaluate(() => window.__rastroOpenDeviceEditor!());
  const dialog = page.getByRole('dialog', { name: t('deviceEditor.titleNew') });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: t('deviceEditor.save') }).click();
  await expect(dialog.getByText(t('deviceEditor.errors.nameEmpty'))).toBeVisible();
  await expect(dialog.getByText(t('deviceEditor.errors.uniqueIdEmpty'))).toBeVisible();
  await expect(dialog.getByTestId('editor-error')).toHaveText(t('deviceEditor.errors.checkForm'));
  await settled(page);
  await shot(page, 'device-editor-errors');
  await expectAccessible(page, 'device editor with errors');

  // The server refuses a unique identifier already in use; the message is translated.
  await dialog.getByLabel(t('deviceEditor.fields.name')).fill('Van Nova');
  await dialog.getByLabel(t('deviceEditor.fields.uniqueId')).fill(existing.uniqueId);
  await dialog.getByRole('button', { name: t('deviceEditor.save') }).click();
  await expect(dialog.getByTestId('editor-error')).toHaveText(t('deviceEditor.errors.DUPLICATE_UNIQUE_IDENTIFIER'));

  const uniqueId = `ed${Date.now()}`;
  await dialog.getByLabel(t('deviceEditor.fields.uniqueId')).fill(uniqueId);
  await dialog.getByRole('tab', { name: t('deviceEditor.tabs.vehicle') }).click();
  await dialog.getByLabel(t('deviceEditor.fields.plate')).fill('VAN1A23');
  await dialog.getByLabel(t('deviceEditor.fields.category')).click();
  await page.getByRole('option', { name: t('deviceEditor.icons.van') }).click();
  // Colour 1: customise, pick the fourth preset (hue 155), then nudge the hue slider by 2°.
  const color1 = dialog.getByTestId('color-color');
  await expect(color1.getByRole('radiogroup')).toHaveCount(0);
  await color1.getByLabel(t('deviceEditor.colors.customize')).check();
  await color1.getByRole('radio', { name: t('deviceEditor.colors.preset', { n: 4, h: 155, s: 100, b: 100 }) }).click();
  await expect(color1.getByRole('radio', { checked: true })).toHaveCount(1);
  const hue = color1.getByRole('slider', { name: t('deviceEditor.colors.hue') });
  await expect(hue).toHaveAttribute('aria-valuenow', '155');
  await hue.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(hue).toHaveAttribute('aria-valuenow', '157');
  await expect(color1.getByRole('radio', { checked: true })).toHaveCount(0);
  // Colour 2: customised from the default look (hue 0, saturation 0, brightness 180 %).
  const color2 = dialog.getByTestId('color-color-extra');
  await color2.getByLabel(t('deviceEditor.colors.customize')).check();
  await expect(color2.getByRole('slider', { name: t('deviceEditor.colors.brightness') })).toHaveAttribute('aria-valuenow', '180');
  await expect(dialog.getByLabel(t('deviceEditor.fields.odometer'))).toBeDisabled();
  await settled(page);
  await shot(page, 'device-editor-vehicle');
  await expectAccessible(page, 'device editor vehicle tab');
  await dialog.getByRole('tab', { name: t('deviceEditor.tabs.chip') }).click();
  await dialog.getByLabel(t('deviceEditor.fields.iccid')).fill('8955001234567890123');
  await dialog.getByLabel(t('deviceEditor.fields.gpsBrand')).fill('Concox');
  await dialog.getByRole('tab', { name: t('deviceEditor.tabs.state') }).click();
  await dialog.getByLabel(t('deviceEditor.fields.state')).click();
  await page.getByRole('option', { name: t('deviceEditor.states.in_stock') }).click();
  await dialog.getByRole('tab', { name: t('deviceEditor.tabs.installation') }).click();
  await dialog.getByLabel(t('deviceEditor.fields.installer')).fill('João Instalador');
  await dialog.getByRole('button', { name: t('deviceEditor.save') }).click();
  await expect(dialog).toBeHidden();

  const created = (await admin.get<Device[]>(`/api/devices?uniqueId=${uniqueId}`))[0]!;
  expect(created).toMatchObject({ name: 'Van Nova', category: 'van' });
  expect(created.attributes).toMatchObject({
    plate: 'VAN1A23', placa: 'VAN1A23', iccid: '8955001234567890123', 'device.gpsBrand': 'Concox', 'device.state': 'in_stock',
    'instalation.instalador': 'João Instalador', 'tarkan.color': '157|1.00|1.00', 'tarkan.color_extra': '0|0.00|1.80',
  });
});

test('edit from the detail panel: fields and the odometer (km on the form, metres on the server)', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Caminhão Editar', attributes: { custom: 'kept' } });
  await report(device.uniqueId, -23.55, -46.63);
  const panel = await openDetail(page, device);
  await panel.getByRole('button', { name: t('device.actions.edit') }).click();
  const dialog = page.getByRole('dialog', { name: t('deviceEditor.titleEdit', { name: device.name }) });
  await expect(dialog.getByLabel(t('deviceEditor.fields.name'))).toHaveValue(device.name);
  await dialog.getByLabel(t('deviceEditor.fields.name')).fill('');
  await dialog.getByRole('button', { name: t('deviceEditor.save') }).click();
  await expect(dialog.getByText(t('deviceEditor.errors.nameEmpty'))).toBeVisible();
  await dialog.getByLabel(t('deviceEditor.fields.name')).fill('Caminhão Editado');
  await dialog.getByRole('tab', { name: t('deviceEditor.tabs.vehicle') }).click();
  await dialog.getByLabel(t('deviceEditor.fields.model')).fill('FH 540');
  await dialog.getByLabel(t('deviceEditor.fields.odometer')).fill('1234,5');
  await dialog.getByRole('button', { name: t('deviceEditor.save') }).click();
  await expect(dialog).toBeHidden();
  await expect(panel.getByRole('heading', { name: 'Caminhão Editado' })).toBeVisible();

  const saved = (await admin.get<Device[]>(`/api/devices?id=${device.id}`))[0]!;
  expect(saved).toMatchObject({ name: 'Caminhão Editado', model: 'FH 540', attributes: { custom: 'kept' } });
  await expect.poll(async () => (await admin.get<Position[]>(`/api/positions?deviceId=${device.id}`))[0]?.attributes.totalDistance).toBe(1_234_500);
  // In the user's distance unit (km by default in pt-BR), two decimals.
  await expect(panel.getByTestId('device-position')).toContainText('1.234,50 km');
  await shot(page, 'device-editor-saved');
});

test('?edit=1 opens the editor with the device', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Abrir Editor' });
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto(`/devices/${device.id}?edit=1`);
  const dialog = page.getByRole('dialog', { name: t('deviceEditor.titleEdit', { name: device.name }) });
  await expect(dialog.getByLabel(t('deviceEditor.fields.uniqueId'))).toHaveValue(device.uniqueId, { timeout: 15_000 });
  await dialog.getByRole('button', { name: t('deviceEditor.cancel') }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/devices/${device.id}$`));
});

test('at the user\'s device limit, adding is refused with the reason', async ({ page }) => {
  const password = 'limited-pass';
  const user = await admin.createUser({ password, deviceLimit: 1 });
  const device = await admin.createDevice({ name: 'Único Permitido' });
  await admin.link({ userId: user.id, deviceId: device.id });
  await signIn(page, user.email, password);
  await page.goto(`/devices/${device.id}`);
  await expect(page.getByTestId('screen-panel').getByRole('heading', { name: device.name })).toBeVisible({ timeout: 15_000 });
  await page.evaluate(() => window.__rastroOpenDeviceEditor!());
  const dialog = page.getByRole('dialog', { name: t('deviceEditor.titleNew') });
  await expect(dialog.getByRole('alert')).toHaveText(t('deviceEditor.limits.userLimit'));
  await expect(dialog.getByRole('button', { name: t('deviceEditor.save') })).toBeDisabled();
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test('the editor fills the screen', async ({ page }) => {
    const device = await admin.createDevice({ name: 'Editor Celular' });
    const panel = await openDetail(page, device);
    await page.getByRole('button', { name: pt.shell!.panelExpand! }).first().click();
    await panel.getByRole('button', { name: t('device.actions.edit') }).click();
    const dialog = page.getByRole('dialog', { name: t('deviceEditor.titleEdit', { name: device.name }) });
    await expect(dialog.getByLabel(t('deviceEditor.fields.name'))).toHaveValue(device.name);
    await settled(page);
    await shot(page, 'device-editor');
    await expectAccessible(page, 'device editor at 390 px');
    await dialog.getByRole('tab', { name: t('deviceEditor.tabs.vehicle') }).click();
    await dialog.getByTestId('color-color').getByLabel(t('deviceEditor.colors.customize')).check();
    await expectNoHorizontalScroll(page);
    await settled(page);
    await shot(page, 'device-editor-vehicle');
    await expectAccessible(page, 'device editor colours at 390 px');
  });
});
