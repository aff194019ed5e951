// Route history (/history): a track posted through the real OsmAnd port is loaded for a device
// and a period, drawn on the session map, played back (play/pause, speed, step, scrub) with the
// vehicle marker following, charted, and exported as the server's spreadsheet. Checked on the
// desktop and at 390 px, with axe. What is drawn is read through the overlay test hook
// (window.__rastroOverlay, on only with the test flag in localStorage).
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

const h = pt.history as unknown as Record<string, string> & { periods: Record<string, string> };
const r = pt.reports as unknown as Record<string, string>;

let admin: Api;
let device: Device;
const track = { count: KNOWN_TRACK.points, first: KNOWN_TRACK.lonA, last: KNOWN_TRACK.lonB };

test.beforeAll(async () => {
  admin = await Api.admin();
  device = await admin.createDevice({ name: `Caminhão Histórico ${uniqueSuffix()}` });
  await postKnownTrack(device.uniqueId);
});
test.afterAll(async () => {
  await admin.dispose();
});

test.beforeEach(async ({ page }) => {
  // Software-rendered map on a shared 2-core machine: playback and drawing take their time.
  test.setTimeout(90_000);
  await page.addInitScript(() => localStorage.setItem('rastro.testHooks', '1'));
});

async function openHistory(page: Page) {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/history');
  await expect(page.getByRole('heading', { name: h.title })).toBeVisible();
  await page.getByRole('combobox', { name: h.device, exact: true }).click();
  await page.getByRole('option', { name: device.name }).click();
  await page.getByRole('combobox', { name: h.period, exact: true }).click();
  await page.getByRole('option', { name: h.periods.last7 }).click();
  await page.getByRole('button', { name: h.show }).click();
  await expect(page.getByTestId('history-summary')).toContainText(String(track.count));
}

test('a posted track is drawn, played back, charted and exported', async ({ page }) => {
  await openHistory(page);
  expect(page.url()).toContain(`deviceId=${device.id}`);

  // Drawn: one line of every point, start and end marked, the vehicle at the first point.
  await expect.poll(async () => (await overlay(page))?.routes).toEqual([track.count]);
  const state = (await overlay(page))!;
  expect(state.markers.map((m) => m.kind)).toEqual(expect.arrayContaining(['start', 'end']));
  expect(state.vehicle?.longitude).toBeCloseTo(track.first, 5);
  await expect.poll(() => page.evaluate(() => window.__rastroOverlay!.rendered().route), { timeout: 10_000 }).toBeGreaterThan(0);

  // Units: 33 kn is 61 km/h for a pt-BR user.
  await expect(page.getByTestId('history-summary')).toContainText('61 km/h');

  // Step forward and back.
  const next = page.getByRole('button', { name: h.stepForward });
  await next.click();
  await next.click();
  await expect.poll(async () => (await overlay(page))?.vehicle?.longitude).toBeCloseTo(track.first, 5);
  const slider = page.getByRole('slider', { name: h.position });
  await expect(slider).toHaveAttribute('aria-valuenow', '2');
  await page.getByRole('button', { name: h.stepBack }).click();
  await expect(slider).toHaveAttribute('aria-valuenow', '1');

  // Play at 1×: the vehicle moves; pause stops it.
  await page.getByRole('button', { name: h.play }).click();
  await expect.poll(async () => Number(await slider.getAttribute('aria-valuenow')), { timeout: 10_000 }).toBeGreaterThan(2);
  await page.getByRole('button', { name: h.pause }).click();
  const paused = Number(await slider.getAttribute('aria-valuenow'));
  await page.waitForTimeout(800);
  expect(Number(await slider.getAttribute('aria-valuenow'))).toBe(paused);

  // Faster: to the end of the route, where the vehicle sits at B and play shows again.
  await page.getByRole('combobox', { name: h.playSpeed, exact: true }).click();
  await page.getByRole('option', { name: '32×' }).click();
  await page.getByRole('button', { name: h.play }).click();
  await expect(slider).toHaveAttribute('aria-valuenow', String(track.count - 1), { timeout: 10_000 });
  await expect(page.getByRole('button', { name: h.play })).toBeVisible();
  expect((await overlay(page))!.vehicle!.longitude).toBeCloseTo(track.last, 5);

  // Scrub with the keyboard.
  await slider.focus();
  await page.keyboard.press('Home');
  await expect(slider).toHaveAttribute('aria-valuenow', '0');
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  await expect(slider).toHaveAttribute('aria-valuenow', '10');
  await expect.poll(async () => (await overlay(page))?.vehicle?.longitude).toBeCloseTo(track.first + 0.05, 5);

  // Chart: speed first; a numeric attribute (fuel) can be chosen.
  await expect(page.getByTestId('history-chart').locator('canvas')).toBeVisible();
  await page.getByRole('combobox', { name: h.chartAttribute, exact: true }).click();
  await page.getByRole('option', { name: /fuel|Combustível/i }).first().click();
  await expect(page.getByTestId('history-chart').locator('canvas')).toBeVisible();

  await shot(page, 'history');
  await expectAccessible(page, 'history');

  // Export: the server's spreadsheet, saved as a file that opens as xlsx.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('history-export').click()]);
  expect(download.suggestedFilename()).toBe('route.xlsx');
  const file = await download.path();
  const bytes = fs.readFileSync(file);
  expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
  const { default: ExcelJS } = await import('exceljs');
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  let rows = 0;
  book.eachSheet((sheet) => (rows += sheet.actualRowCount));
  expect(rows).toBeGreaterThanOrEqual(track.count);
  void r;
});

test('stops and events of the track are listed and marked', async ({ page }) => {
  await openHistory(page);
  await page.getByRole('tab', { name: new RegExp(h.stopsList!) }).click();
  await expect(page.getByTestId('history-stops').getByRole('button')).not.toHaveCount(0, { timeout: 10_000 });
  await page.getByRole('tab', { name: new RegExp(h.eventsList!) }).click();
  const events = page.getByTestId('history-events').getByRole('button');
  await expect(events.filter({ hasText: (pt.events as unknown as { alarms: Record<string, string> }).alarms.sos! })).toHaveCount(1);
  const kinds = (await overlay(page))!.markers.map((m) => m.kind);
  expect(kinds).toContain('stop');
  expect(kinds).toContain('event');
  // Choosing the alarm moves the player to it.
  await events.filter({ hasText: 'SOS' }).click();
  await expect(page.getByRole('slider', { name: h.position })).toHaveAttribute('aria-valuenow', '13');
  await shot(page, 'history-events');
});

test('at 390 px the history is a bottom sheet that fits', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openHistory(page);
  await expect(page.getByTestId('history-player')).toBeVisible();
  await expectNoHorizontalScroll(page);
  await shot(page, 'history');
  await page.getByRole('button', { name: pt.shell!.panelExpand! }).first().click();
  await expect(page.getByTestId('history-chart').locator('canvas')).toBeVisible();
  await shot(page, 'history-expanded');
  await expectAccessible(page, 'history mobile');
});

test('no positions in the period: an empty state, no route', async ({ page }) => {
  const quiet = await admin.createDevice({ name: `Sem Histórico ${uniqueSuffix()}` });
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto(`/history?deviceId=${quiet.id}`);
  await expect(page.getByTestId('history-empty')).toHaveText(h.empty!);
  expect((await overlay(page))?.routes ?? []).toEqual([]);
});
