// What trackers give the device detail (issue 11, points 5 and 7): a warning when a tracker's
// clock is off — a device whose fixes arrive dated 8 hours ahead (a clock on China's time read as
// UTC) keeps its previous position, and the detail says by how much and how to fix it — and the
// engine hours counted from ignition, shown as hours and minutes.
import { expect, test } from '@playwright/test';
import { Api } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { osmandReport } from '../support/osmand.ts';
import { shot } from '../support/shots.ts';
import { fill, pt } from '../support/texts.ts';
import { signIn } from '../support/ui.ts';

const deviceTexts = pt.device as unknown as Record<string, Record<string, string>>;
const clock = deviceTexts.clock!;

test('a device whose clock runs 8 hours ahead: its fix is not its position, and the detail says how to fix the clock', async ({ page }) => {
  const admin = await Api.admin();
  try {
    const device = await admin.createDevice({ name: 'Relógio Adiantado' });
    await osmandReport(device.uniqueId, -23.55, -46.63, { speed: 0 }, new Date(Date.now() - 60_000));
    await osmandReport(device.uniqueId, -23.0, -46.0, { speed: 0 }, new Date(Date.now() + 8 * 3_600_000));
    const latest = await admin.get<Array<{ latitude: number }>>(`/api/positions?deviceId=${device.id}`);
    expect(latest.map((p) => p.latitude)).toEqual([-23.55]);

    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto(`/devices/${device.id}`);
    const panel = page.getByTestId('screen-panel');
    await expect(panel.getByRole('heading', { name: device.name })).toBeVisible({ timeout: 15_000 });
    const warning = panel.getByTestId('device-clock-warning');
    await expect(warning).toHaveAttribute('data-state', 'ahead');
    await expect(warning).toContainText(clock.aheadTitle!);
    await expect(warning).toContainText('8 h');
    await expect(warning).toContainText(clock.fix!);
    await shot(page, 'device-clock-warning');
    await expectAccessible(page, 'device detail with the clock warning');
  } finally {
    await admin.dispose();
  }
});

test('engine hours counted from ignition show as hours and minutes', async ({ page }) => {
  const admin = await Api.admin();
  try {
    const device = await admin.createDevice({ name: 'Horímetro' });
    const start = Date.now() - 2 * 3_600_000;
    for (let min = 0; min <= 90; min += 15) {
      await osmandReport(device.uniqueId, -23.55, -46.63 + min / 1000, { speed: 20, ignition: true }, new Date(start + min * 60_000));
    }
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await page.goto(`/devices/${device.id}`);
    const panel = page.getByTestId('screen-panel');
    await expect(panel.getByRole('heading', { name: device.name })).toBeVisible({ timeout: 15_000 });
    await panel.getByRole('button', { name: deviceTexts.attributes!.showAll! }).click();
    const row = panel.getByTestId('all-attributes').getByRole('row').filter({ hasText: deviceTexts.attributeNames!.hours! });
    await expect(row).toContainText(fill(deviceTexts.recent!.hours!, { h: 1, m: 30 }));
  } finally {
    await admin.dispose();
  }
});
