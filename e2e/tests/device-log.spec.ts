// The device log (issue 11, point 8): an administrator opens it in the device detail and sees
// the raw frames a real tracker sends over the GT06 port arrive live (hex, protocol, time),
// pauses, clears; the dialog is keyboard-reachable and fits 390 px; a plain user has no entry.
// The frames go through the real TCP listener (global-setup gives the GT06 port a free port).
import net from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import type { Device } from '@rastro/domain/entities';
import { buildFrame } from '../../apps/server/src/ingest/gt06/framing.ts';
import { Api } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD, env } from '../support/env.ts';
import { shot } from '../support/shots.ts';
import { pt, t } from '../support/texts.ts';
import { expectNoHorizontalScroll, signIn } from '../support/ui.ts';

let admin: Api;
test.beforeAll(async () => {
  admin = await Api.admin();
});
test.afterAll(async () => {
  await admin.dispose();
});

/** A fresh 15-digit IMEI. */
function imei(): string {
  return `86${String(Date.now()).slice(-9)}${String(Math.floor(Math.random() * 1e4)).padStart(4, '0')}`;
}

/** A GT06 login frame: 8-byte BCD IMEI (a leading 0 nibble), a 2-byte type, the serial. */
function loginFrame(uniqueId: string, serial: number): Buffer {
  const content = Buffer.concat([Buffer.from(`0${uniqueId}`, 'hex'), Buffer.from([0x36, 0x08])]);
  return buildFrame(0x01, content, serial);
}

/** A GT06 tracker on the server's port: sends a login, reads the acks. */
async function tracker(): Promise<net.Socket> {
  const socket = net.connect({ host: '127.0.0.1', port: env.gt06Port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.on('data', () => undefined);
  return socket;
}

async function openLog(page: Page, device: Device) {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto(`/devices/${device.id}`);
  const panel = page.getByTestId('screen-panel');
  await expect(panel.getByRole('heading', { name: device.name })).toBeVisible({ timeout: 15_000 });
  const open = panel.getByRole('button', { name: t('device.log.open') });
  await open.scrollIntoViewIfNeeded();
  // Keyboard: the entry is a button reached with Tab and opened with Enter.
  await open.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: t('device.log.dialogTitle', { name: device.name }) });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Sends logins until the dialog shows a frame (the log wish reaches the server a moment after opening). */
async function sendUntilShown(dialog: ReturnType<Page['getByRole']>, socket: net.Socket, uniqueId: string): Promise<string> {
  let serial = 1;
  let sent = '';
  await expect(async () => {
    const frame = loginFrame(uniqueId, serial++);
    sent = frame.toString('hex');
    socket.write(frame);
    await expect(dialog.getByTestId('device-log-frame').first()).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return sent;
}

test('an administrator sees a tracker\'s frames arrive live; pause and clear', async ({ page }) => {
  const uniqueId = imei();
  const device = await admin.createDevice({ name: 'Rastreador GT06', uniqueId });
  const dialog = await openLog(page, device);
  await expect(dialog.getByTestId('device-log-empty')).toHaveText(t('device.log.empty'));
  await shot(page, 'device-log-empty');

  const socket = await tracker();
  try {
    const sent = await sendUntilShown(dialog, socket, uniqueId);
    const row = dialog.getByTestId('device-log-frame').first();
    await expect(row).toContainText('gt06');
    // Start bytes, length 0x0f, login 0x01, the BCD IMEI, the type, serial and CRC, 0D 0A: as sent.
    await expect(row.locator('code')).toHaveText(new RegExp(`^78780f010${uniqueId}3608[0-9a-f]{8}0d0a$`));
    expect(sent).toMatch(new RegExp(`^78780f010${uniqueId}3608`));
    await expect(row.getByRole('button', { name: t('device.log.copy') })).toBeVisible();
    await shot(page, 'device-log');
    await expectAccessible(page, 'device log dialog');

    // Pause: new frames wait (counted) and show on resume.
    const before = await dialog.getByTestId('device-log-frame').count();
    await dialog.getByRole('button', { name: t('device.log.pause') }).click();
    socket.write(loginFrame(uniqueId, 900));
    await expect(dialog.getByTestId('device-log-count')).toHaveText(t('device.log.held_one', { count: 1 }));
    expect(await dialog.getByTestId('device-log-frame').count()).toBe(before);
    await dialog.getByRole('button', { name: t('device.log.resume') }).click();
    await expect(dialog.getByTestId('device-log-frame')).toHaveCount(before + 1);

    await dialog.getByRole('button', { name: t('device.log.clear') }).click();
    await expect(dialog.getByTestId('device-log-empty')).toBeVisible();
    // Escape closes it; the entry is still there.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  } finally {
    socket.destroy();
  }
});

test('a plain user has no device log entry', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Sem Log' });
  const user = await admin.createUser({ password: 'e2e-user-pass' });
  await admin.link({ userId: user.id, deviceId: device.id });
  await signIn(page, user.email, 'e2e-user-pass');
  await page.goto(`/devices/${device.id}`);
  const panel = page.getByTestId('screen-panel');
  await expect(panel.getByRole('heading', { name: device.name })).toBeVisible({ timeout: 15_000 });
  await expect(panel.getByRole('button', { name: t('device.log.open') })).toHaveCount(0);
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test('the device log fills the screen and shows the frames', async ({ page }) => {
    const uniqueId = imei();
    const device = await admin.createDevice({ name: 'GT06 Celular', uniqueId });
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto(`/devices/${device.id}`);
    const panel = page.getByTestId('screen-panel');
    await expect(panel.getByRole('heading', { name: device.name })).toBeVisible({ timeout: 15_000 });
    await page.getByRole('button', { name: pt.shell!.panelExpand! }).first().click();
    await panel.getByRole('button', { name: t('device.log.open') }).click();
    const dialog = page.getByRole('dialog', { name: t('device.log.dialogTitle', { name: device.name }) });
    await expect(dialog).toBeVisible();
    const socket = await tracker();
    try {
      await sendUntilShown(dialog, socket, uniqueId);
      await expectNoHorizontalScroll(page);
      const box = await dialog.boundingBox();
      expect(box!.width).toBeGreaterThanOrEqual(380);
      await shot(page, 'device-log');
      await expectAccessible(page, 'device log at 390 px');
    } finally {
      socket.destroy();
    }
  });
});
