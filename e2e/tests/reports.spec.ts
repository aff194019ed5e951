// Reports (/reports/*): a known track posted through the real OsmAnd port — parked 10 min at A,
// 15 min driving east at 33 kn (61 km/h), an SOS alarm on the way, parked 20 min at B — and
// each report type loaded for that device: summary, route, trips, stops, events show the rows
// this track must give, in the user's units; each exports the server's spreadsheet (a zip that
// exceljs opens); a trip or stop chosen is shown on the map; show-markers switches the
// markers. Desktop and 390 px, with axe and screenshots.
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import type { Device } from '@rastro/domain/entities';
import { Api, uniqueSuffix } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { KNOWN_TRACK, postKnownTrack } from '../support/osmand.ts';
import { overlay } from '../support/overlay.ts';
import { shot } from '../support/shots.ts';
import { pt } from '../support/texts.ts';
import { expectNoHorizontalScroll, signIn } from '../support/ui.ts';

const r = pt.reports as unknown as Record<string, string> & { types: Record<string, string> };
const ev = pt.events as unknown as { types: Record<string, string>; alarms: Record<string, string> };
const h = pt.history as unknown as Record<string, string> & { periods: Record<string, string> };

const LON_B = KNOWN_TRACK.lonB;

let admin: Api;
let device: Device;

test.beforeAll(async () => {
  admin = await Api.admin();
  device = await admin.createDevice({ name: `Relatório ${uniqueSuffix()}` });
  await postKnownTrack(device.uniqueId);
});
test.afterAll(async () => {
  await admin.dispose();
});

test.beforeEach(async ({ page }) => {
  test.setTimeout(90_000);
  await page.addInitScript(() => localStorage.setItem('rastro.testHooks', '1'));
});

/** Opens a report from the index, for the track's device over the last 7 days, and loads it. */
async function loadReport(page: Page, type: string) {
  await page.goto('/reports');
  await page.getByRole('link', { name: new RegExp(`^${r.types[type]}`) }).click();
  await expect(page.getByTestId('report-screen')).toBeVisible();
  await page.getByTestId('report-devices').click();
  await page.getByRole('option', { name: device.name }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: h.period, exact: true }).click();
  await page.getByRole('option', { name: h.periods.last7 }).click();
  await page.getByTestId('report-load').click();
}

const rows = (page: Page) => page.getByTestId('report-list').getByRole('button');

async function expectXlsx(page: Page, filename: string, minRows: number) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
  expect(download.suggestedFilename()).toBe(filename);
  const bytes = fs.readFileSync(await download.path());
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  let count = 0;
  book.eachSheet((sheet) => (count += sheet.actualRowCount));
  expect(count).toBeGreaterThanOrEqual(minRows);
}

test.describe('desktop', () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, 'admin', ADMIN_PASSWORD);
  });

  test('the index offers every report type', async ({ page }) => {
    await page.getByRole('link', { name: (pt.menu as unknown as { side: Record<string, string> }).side.reports! }).first().click();
    await expect(page.getByTestId('reports-index')).toBeVisible();
    for (const type of ['summary', 'route', 'trips', 'stops', 'events']) {
      await expect(page.getByRole('link', { name: new RegExp(`^${r.types[type]}`) })).toBeVisible();
    }
    await shot(page, 'reports-index');
    await expectAccessible(page, 'reports index');
  });

  test('summary: one row for the device with its distance and top speed; exports resume.xlsx', async ({ page }) => {
    await loadReport(page, 'summary');
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(device.name);
    await expect(rows(page).first()).toContainText('61 km/h');
    await expect(rows(page).first()).toContainText(/15,\d\d km/);
    // Choosing it draws the device's route for the period.
    await rows(page).first().click();
    await expect.poll(async () => (await overlay(page))?.routes).toEqual([31]);
    await expectXlsx(page, 'resume.xlsx', 2);
    await shot(page, 'reports-summary');
    await expectAccessible(page, 'summary report');
  });

  test('route: every position, markers switchable; exports route.xlsx', async ({ page }) => {
    await loadReport(page, 'route');
    await expect(page.getByTestId('report-count')).toHaveText(r.rows!.replace('{{count}}', '31'));
    await expect.poll(async () => (await overlay(page))?.routes).toEqual([31]);
    await expect.poll(async () => (await overlay(page))?.markers.length).toBe(31);
    const toggle = page.getByRole('switch', { name: r.showMarkers });
    await toggle.uncheck({ force: true });
    await expect.poll(async () => (await overlay(page))?.markers.length).toBe(0);
    await toggle.check({ force: true });
    await expect.poll(async () => (await overlay(page))?.markers.length).toBe(31);
    // Keyboard: focus the list, walk it, Enter puts the vehicle on that position.
    await rows(page).first().focus();
    await page.keyboard.press('End');
    await expect(page.locator('.report-row[data-index="30"]')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await overlay(page))?.vehicle?.longitude).toBeCloseTo(LON_B, 5);
    await expectXlsx(page, 'route.xlsx', 31);
  });

  test('trips: the drive from A to B, highlighted on the map when chosen; exports travels.xlsx', async ({ page }) => {
    await loadReport(page, 'trips');
    await expect(rows(page)).toHaveCount(1);
    const trip = rows(page).first();
    await expect(trip).toContainText(device.name);
    await expect(trip).toContainText(/1[45],\d\d km/);
    await expect(trip).toContainText('61 km/h');
    const kinds = (await overlay(page))!.markers.map((m) => m.kind).sort();
    expect(kinds).toEqual(['end', 'start']);
    await trip.click();
    await expect(trip).toHaveAttribute('aria-current', 'true');
    await expect.poll(async () => (await overlay(page))?.highlight ?? 0).toBeGreaterThan(10);
    await expectXlsx(page, 'travels.xlsx', 2);
    await shot(page, 'reports-trips');
    await expectAccessible(page, 'trips report');
  });

  test('stops: at A and at B, plotted; exports stops.xlsx', async ({ page }) => {
    await loadReport(page, 'stops');
    await expect(rows(page)).toHaveCount(2);
    await expect.poll(async () => (await overlay(page))?.markers.filter((m) => m.kind === 'stop').length).toBe(2);
    // The stop at B (no geocoder: its coordinates) and how long it lasted.
    await expect(rows(page).last()).toContainText('-23.55000, -46.55000');
    await expect(rows(page).last()).toContainText(/\d+ min/);
    await rows(page).last().click();
    await expect(rows(page).last()).toHaveAttribute('aria-current', 'true');
    await expectXlsx(page, 'stops.xlsx', 3);
    await shot(page, 'reports-stops');
  });

  test('events: moving, ignition on, the SOS alarm, ignition off, stopped; exports events.xlsx', async ({ page }) => {
    await loadReport(page, 'events');
    await expect(rows(page).filter({ hasText: `${ev.types.alarm}: ${ev.alarms.sos}` })).toHaveCount(1);
    await expect(rows(page).filter({ hasText: ev.types.ignitionOn! })).toHaveCount(1);
    await expect(rows(page).filter({ hasText: ev.types.ignitionOff! })).toHaveCount(1);
    await expect(rows(page).filter({ hasText: ev.types.deviceMoving! })).toHaveCount(1);
    await expect(rows(page).filter({ hasText: ev.types.deviceStopped! })).toHaveCount(1);
    await expect.poll(async () => (await overlay(page))?.markers.filter((m) => m.kind === 'event').length).toBeGreaterThanOrEqual(5);
    await expectXlsx(page, 'events.xlsx', 6);
    await shot(page, 'reports-events');
    await expectAccessible(page, 'events report');
  });

  test('the type selector switches reports and keeps the filter', async ({ page }) => {
    await loadReport(page, 'trips');
    await expect(rows(page)).toHaveCount(1);
    await page.getByRole('combobox', { name: r.type, exact: true }).click();
    await page.getByRole('option', { name: r.types.stops }).click();
    await expect(page).toHaveURL(/\/reports\/stops$/);
    await expect(page.locator('[class*="mantine-Pill-label"]', { hasText: device.name })).toBeVisible();
    await page.getByTestId('report-load').click();
    await expect(rows(page)).toHaveCount(2);
  });

  test('a group stands for its devices', async ({ page }) => {
    const group = await admin.post<{ id: number; name: string }>('/api/groups', { name: `Frota ${uniqueSuffix()}` });
    await admin.put(`/api/devices/${device.id}`, { ...device, groupId: group.id });
    await page.goto('/reports/resume');
    await page.getByTestId('report-groups').click();
    await page.getByRole('option', { name: group.name }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: h.period, exact: true }).click();
    await page.getByRole('option', { name: h.periods.last7 }).click();
    await page.getByTestId('report-load').click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText(device.name);
  });

  test('a device without data in the period shows the empty state', async ({ page }) => {
    const quiet = await admin.createDevice({ name: `Parado ${uniqueSuffix()}` });
    await page.goto('/reports/travels');
    await page.getByTestId('report-devices').click();
    await page.getByRole('option', { name: quiet.name }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('report-load').click();
    await expect(page.getByTestId('report-empty')).toHaveText(r.empty!);
  });
});

test('at 390 px a report is a bottom sheet: filter folds away after loading, rows fit', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/reports');
  await expect(page.getByTestId('reports-index')).toBeVisible();
  await shot(page, 'reports-index');
  await loadReport(page, 'trips');
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByRole('button', { name: r.editFilter })).toBeVisible();
  await expectNoHorizontalScroll(page);
  await shot(page, 'reports-trips');
  await expectAccessible(page, 'trips report mobile');
  await page.getByRole('button', { name: r.editFilter }).click();
  await expect(page.getByTestId('report-load')).toBeVisible();
});
