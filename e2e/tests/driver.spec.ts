// QR drivers (spec §2, §6): /motorista signs in with the `qrcode-` prefix added and lands on
// /qr-driver, the only screen they see.
import { expect, test } from '@playwright/test';
import { Api, uniqueSuffix } from '../support/api.ts';
import { fill, pt } from '../support/texts.ts';
import { fillLogin } from '../support/ui.ts';

test('driver login at /motorista lands on /qr-driver and stays there', async ({ page }) => {
  const admin = await Api.admin();
  const device = await admin.createDevice({ name: 'Caminhão 12' });
  const name = `joao${uniqueSuffix()}`;
  const driver = await admin.createUser({
    name: 'João Condutor',
    email: `qrcode-${name}`,
    password: 'driver-pass',
    attributes: { 'tarkan.isQrDriverId': 'D-77', 'tarkan.isQrDeviceId': device.id },
  });
  await admin.link({ userId: driver.id, deviceId: device.id });
  await admin.dispose();

  const login = page.waitForRequest((r) => r.url().endsWith('/api/session') && r.method() === 'POST');
  await page.goto('/motorista');
  await expect(page.getByRole('heading', { name: pt.login!.driverTitle! })).toBeVisible();
  await fillLogin(page, name, 'driver-pass', { driver: true });
  expect(new URLSearchParams((await login).postData() ?? '').get('email')).toBe(`qrcode-${name}`);

  await expect(page).toHaveURL(/\/qr-driver$/);
  await expect(page.getByText(fill(pt.qrDriver!.greeting, { name: 'João Condutor' }))).toBeVisible();
  await expect(page.getByRole('status')).toContainText(fill(pt.qrDriver!.checkedIn, { vehicle: 'Caminhão 12' }));
  // No map, no menus: the shell is not there.
  await expect(page.getByRole('banner')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: pt.languages!.label! })).toHaveCount(0);

  await page.goto('/devices');
  await expect(page).toHaveURL(/\/qr-driver$/);

  await page.getByRole('button', { name: pt.qrDriver!.logout! }).click();
  await expect(page).toHaveURL(/\/motorista$/);
  await page.goto('/qr-driver');
  await expect(page).toHaveURL(/\/motorista\?to=%2Fqr-driver$/);
});
