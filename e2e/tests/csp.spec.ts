// The real client lives within the server's Content-Security-Policy (apps/server/src/http/
// security-headers.ts): signing in, the live map with vehicles (MapLibre's worker, our vehicle
// worker, tiles, the socket), a device, the history with its chart and a report raise no
// `securitypolicyviolation` and no CSP console error. Tiles of the default provider are served
// by the test (no internet here), so a policy refusing them would show as tiles never requested.
import fs from 'node:fs';
import zlib from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import type { Device } from '@rastro/domain/entities';
import { Api, uniqueSuffix } from '../support/api.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { KNOWN_TRACK, osmandReport, postKnownTrack } from '../support/osmand.ts';
import { overlay } from '../support/overlay.ts';
import { shot } from '../support/shots.ts';
import { pt } from '../support/texts.ts';
import { fillLogin } from '../support/ui.ts';

const h = pt.history as unknown as Record<string, string> & { periods: Record<string, string> };
const r = pt.reports as unknown as Record<string, string> & { types: Record<string, string> };

/** The map's test hook (on with the test flag in localStorage), as far as this test reads it. */
interface MapHook {
  loaded(): boolean;
  idle(): Promise<void>;
  markers(): Promise<Array<{ id: number; latitude: number; longitude: number }>>;
}
type HookWindow = { __rastroMap?: MapHook };

interface Violation {
  directive: string;
  blocked: string;
  source: string;
  sample: string;
}

/** The default tile provider (apps/web/src/features/map/base-style.ts). */
const TILES = 'https://tile.openstreetmap.org/**';

/** A 256 px PNG tile: pale land with a darker border, so a screenshot shows the tiles drawn. */
function tilePng(): Buffer {
  const size = 256;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const edge = x === 0 || y === 0;
      row.set(edge ? [190, 200, 185] : [232, 236, 226], 1 + x * 3);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * Collects, for every document the page loads, each `securitypolicyviolation` event and each
 * console message about the Content Security Policy (the page's and its workers').
 */
async function watchPolicy(page: Page): Promise<string[]> {
  const problems: string[] = [];
  await page.exposeFunction('__rastroCsp', (v: Violation) => {
    problems.push(`violation of ${v.directive}: ${v.blocked || '(inline)'} at ${v.source} ${v.sample}`.trim());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __rastroCsp?: (v: Violation) => void }).__rastroCsp?.({ directive: e.effectiveDirective, blocked: e.blockedURI, source: `${e.sourceFile}:${e.lineNumber}`, sample: e.sample });
    });
  });
  const aboutPolicy = (text: string) => /content[ -]security[ -]policy/i.test(text);
  page.on('console', (m) => {
    if (aboutPolicy(m.text())) problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => {
    if (aboutPolicy(e.message)) problems.push(`page error: ${e.message}`);
  });
  page.on('worker', (worker) => {
    worker.on('console', (m) => {
      if (aboutPolicy(m.text())) problems.push(`worker ${worker.url()}: ${m.text()}`);
    });
  });
  return problems;
}

let admin: Api;
test.beforeAll(async () => {
  admin = await Api.admin();
});
test.afterAll(async () => {
  await admin.dispose();
});

test('the policy is enforced and a violation would be caught', async ({ page }) => {
  const problems = await watchPolicy(page);
  const response = await page.goto('/login');
  expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByRole('button', { name: pt.login!.signIn! })).toBeVisible();
  const ran = await page.evaluate(async () => {
    const w = window as unknown as { injected?: boolean };
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.head.append(script);
    // Plugins are refused outright (object-src 'none'): a non-script directive is caught too.
    const object = document.createElement('object');
    object.data = '/favicon.ico';
    document.body.append(object);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return w.injected === true;
  });
  expect(ran).toBe(false);
  await expect.poll(() => problems.join('\n')).toContain('script-src');
  await expect.poll(() => problems.join('\n')).toContain('object-src');
});

test('login, live map, device, history and reports run without a policy violation', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = await watchPolicy(page);
  let tiles = 0;
  const tile = tilePng();
  await page.route(TILES, (route) => {
    tiles += 1;
    return route.fulfill({ status: 200, contentType: 'image/png', body: tile });
  });
  await page.addInitScript(() => localStorage.setItem('rastro.testHooks', '1'));

  // A small fleet around the default view, and one device with a known track for history and reports.
  const fleet: Device[] = [];
  for (let i = 0; i < 3; i++) {
    const device = await admin.createDevice({ name: `CSP ${i + 1} ${uniqueSuffix()}` });
    await osmandReport(device.uniqueId, -23.55 + i * 0.01, -46.64 + i * 0.01, { speed: 10, bearing: 90 * i });
    fleet.push(device);
  }
  const tracked = await admin.createDevice({ name: `CSP rota ${uniqueSuffix()}` });
  await postKnownTrack(tracked.uniqueId);

  // The login page, then sign in.
  await page.goto('/login');
  await expect(page.getByRole('button', { name: pt.login!.signIn! })).toBeVisible();
  await shot(page, 'csp-login');
  expect(problems, 'violations on the login page').toEqual([]);
  await fillLogin(page, 'admin', ADMIN_PASSWORD);
  await expect(page.getByRole('button', { name: pt.session!.logout! })).toBeVisible();

  // The live map: loaded, the vehicles drawn (vehicle worker), tiles fetched, a live move (socket).
  await expect.poll(() => page.evaluate(() => (window as unknown as HookWindow).__rastroMap?.loaded() === true), { timeout: 20_000 }).toBe(true);
  const markers = () => page.evaluate(() => (window as unknown as HookWindow).__rastroMap!.markers());
  const ids = fleet.map((d) => d.id);
  await expect.poll(async () => (await markers()).filter((m) => ids.includes(m.id)).length, { timeout: 10_000 }).toBe(fleet.length);
  await osmandReport(fleet[0]!.uniqueId, -23.545, -46.635, { speed: 12, bearing: 45 });
  await expect.poll(async () => (await markers()).find((m) => m.id === fleet[0]!.id), { timeout: 5_000 })
    .toMatchObject({ latitude: -23.545, longitude: -46.635 });
  await page.evaluate(() => (window as unknown as HookWindow).__rastroMap!.idle());
  expect(tiles, 'map tiles requested through the policy').toBeGreaterThan(0);
  await shot(page, 'csp-map');
  expect(problems, 'violations on the map').toEqual([]);

  // A device's detail panel.
  await page.goto(`/devices/${fleet[0]!.id}`);
  await expect(page.getByTestId('screen-panel').getByRole('heading', { name: fleet[0]!.name })).toBeVisible({ timeout: 15_000 });
  await shot(page, 'csp-device');
  expect(problems, 'violations on the device panel').toEqual([]);

  // The history: the track drawn on the map and charted (uPlot).
  await page.goto('/history');
  await expect(page.getByRole('heading', { name: h.title })).toBeVisible();
  await page.getByRole('combobox', { name: h.device, exact: true }).click();
  await page.getByRole('option', { name: tracked.name }).click();
  await page.getByRole('combobox', { name: h.period, exact: true }).click();
  await page.getByRole('option', { name: h.periods.last7 }).click();
  await page.getByRole('button', { name: h.show }).click();
  await expect(page.getByTestId('history-summary')).toContainText(String(KNOWN_TRACK.points));
  await expect.poll(async () => (await overlay(page))?.routes).toEqual([KNOWN_TRACK.points]);
  await expect(page.getByTestId('history-chart').locator('canvas')).toBeVisible();
  await shot(page, 'csp-history');
  expect(problems, 'violations on the history').toEqual([]);

  // A report: the trips of the track, and its spreadsheet export (a blob: download).
  await page.goto('/reports');
  await page.getByRole('link', { name: new RegExp(`^${r.types.trips}`) }).click();
  await expect(page.getByTestId('report-screen')).toBeVisible();
  await page.getByTestId('report-devices').click();
  await page.getByRole('option', { name: tracked.name }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: h.period, exact: true }).click();
  await page.getByRole('option', { name: h.periods.last7 }).click();
  await page.getByTestId('report-load').click();
  await expect(page.getByTestId('report-list').getByRole('button')).toHaveCount(1);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('report-export').click()]);
  expect(fs.readFileSync(await download.path()).subarray(0, 2).toString('latin1')).toBe('PK');
  await shot(page, 'csp-report');

  // Late reports (a worker's, an image's) have a moment to arrive.
  await page.waitForTimeout(500);
  expect(problems, 'violations on the reports').toEqual([]);
});

test.describe('with the offline worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('the page registers its service worker within the policy', async ({ page }) => {
    const problems = await watchPolicy(page);
    await page.goto('/login');
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(new URL('/', page.url()).href);
    await page.reload();
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    await expect(page.getByRole('button', { name: pt.login!.signIn! })).toBeVisible();
    expect(problems, 'Content-Security-Policy violations').toEqual([]);
  });
});
