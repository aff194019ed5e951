// The live map on /home (spec §9, DESIGN "one map under every screen"): markers for devices
// reporting through the real OsmAnd port move within 2 s, the same map stays alive across
// screens, and the socket reconnects after the server drops it. Markers are read from the
// vehicle layer through the test hook (window.__rastroMap, on only when the test flag is set in
// localStorage); what was drawn from its last canvas frame (rendered()).
import { expect, test, type Page } from '@playwright/test';
import type { Device } from '@rastro/domain/entities';
import { Api } from '../support/api.ts';
import { ADMIN_PASSWORD, env } from '../support/env.ts';
import { shot } from '../support/shots.ts';
import { signIn } from '../support/ui.ts';

interface HookMarker {
  id: number;
  longitude: number;
  latitude: number;
  name: string;
  status: string;
}

declare global {
  interface Window {
    __rastroMap?: {
      loaded(): boolean; idle(): Promise<void>; markers(): Promise<HookMarker[]>;
      rendered(): { clusters: Array<{ count: number }>; icons: number[]; selected: number | null };
      map: { getZoom(): number; getCenter(): { lng: number; lat: number } };
    };
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

/** One OsmAnd report, like a phone running Traccar Client. */
async function report(uniqueId: string, latitude: number, longitude: number, at = new Date()): Promise<void> {
  const url = `http://127.0.0.1:${env.osmandPort}/?id=${encodeURIComponent(uniqueId)}&lat=${latitude}&lon=${longitude}` +
    `&timestamp=${Math.floor(at.getTime() / 1000)}&speed=12&bearing=90`;
  const res = await fetch(url, { method: 'POST' });
  if (!res.ok) throw new Error(`OsmAnd ${res.status}: ${await res.text()}`);
}

async function mapLoaded(page: Page) {
  await expect.poll(() => page.evaluate(() => window.__rastroMap?.loaded() === true), { timeout: 15_000 }).toBe(true);
}

const markers = (page: Page) => page.evaluate(() => window.__rastroMap!.markers());
const markerOf = async (page: Page, id: number) => (await markers(page)).find((m) => m.id === id) ?? null;

test('a position posted to the OsmAnd port moves its marker within 2 s', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Caminhão 12' });
  await report(device.uniqueId, -23.5489, -46.6388);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await mapLoaded(page);
  await expect.poll(() => markerOf(page, device.id), { timeout: 5_000 }).toMatchObject({ latitude: -23.5489, longitude: -46.6388, name: 'Caminhão 12' });

  for (const [lat, lon] of [[-23.5512, -46.6341], [-23.5533, -46.6302], [-23.5561, -46.6265]] as const) {
    const sent = Date.now();
    await report(device.uniqueId, lat, lon);
    await expect.poll(() => markerOf(page, device.id), { timeout: 2_000, intervals: [50] }).toMatchObject({ latitude: lat, longitude: lon });
    const took = Date.now() - sent;
    expect(took).toBeLessThan(2_000);
    console.log(`[map] marker moved ${took} ms after the OsmAnd report`);
  }
  await page.evaluate(() => window.__rastroMap!.idle());
  await shot(page, 'map-marker');
});

test('many devices: every marker shows and follows its reports', async ({ page }) => {
  test.setTimeout(90_000);
  const COUNT = 150;
  const devices: Device[] = [];
  for (let i = 0; i < COUNT; i++) devices.push(await admin.createDevice({ name: `Frota ${String(i + 1).padStart(3, '0')}` }));
  const spot = (i: number, step = 0) => [-23.60 + (i % 15) * 0.012 + step * 0.001, -46.72 + Math.floor(i / 15) * 0.016] as const;
  await Promise.all(devices.map((d, i) => report(d.uniqueId, ...spot(i))));
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await mapLoaded(page);
  const ids = new Set(devices.map((d) => d.id));
  await expect.poll(async () => (await markers(page)).filter((m) => ids.has(m.id)).length, { timeout: 10_000 }).toBe(COUNT);

  const sent = Date.now();
  await Promise.all(devices.map((d, i) => report(d.uniqueId, ...spot(i, 1), new Date(Date.now() + 1000))));
  const expected = new Map(devices.map((d, i) => [d.id, spot(i, 1)[0]]));
  const moved = async () => (await markers(page)).filter((m) => Math.abs((expected.get(m.id) ?? 1e9) - m.latitude) < 1e-6).length;
  await expect.poll(moved, { timeout: 5_000, intervals: [100] }).toBe(COUNT);
  console.log(`[map] ${COUNT} markers moved ${Date.now() - sent} ms after their reports were sent`);
  await page.evaluate(() => {
    const map = (window.__rastroMap as unknown as { map: { fitBounds(b: unknown, o: unknown): void } }).map;
    map.fitBounds([[-46.73, -23.61], [-46.55, -23.41]], { duration: 0, padding: 40 });
  });
  await page.evaluate(() => window.__rastroMap!.idle());
  await shot(page, 'map-fleet');
});

test('the same map stays alive across screens', async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await mapLoaded(page);
  await page.evaluate(() => {
    (window.__rastroMap!.map as unknown as { __probe: string }).__probe = 'first';
  });
  // Client-side navigation to other session screens and back (the router listens to popstate).
  for (const path of ['/devices', '/reports/stops', '/home']) {
    await page.evaluate((to) => {
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }, path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page.getByTestId('map')).toHaveAttribute('data-state', 'ready');
    expect(await page.evaluate(() => (window.__rastroMap!.map as unknown as { __probe?: string }).__probe)).toBe('first');
    expect(await page.locator('.rastro-map').count()).toBe(1);
    expect(await page.locator('canvas.maplibregl-canvas').count()).toBe(1);
  }
});

test('opens at the server position with zoom 17 when neither user nor server gives a zoom', async ({ page }) => {
  const server = (await admin.get<Record<string, unknown>>('/api/server'));
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await mapLoaded(page);
  const view = await page.evaluate(() => ({ zoom: window.__rastroMap!.map.getZoom(), center: window.__rastroMap!.map.getCenter() }));
  const zoom = Number(server.zoom) > 0 ? Number(server.zoom) : 17;
  expect(view.zoom).toBeCloseTo(zoom, 1);
  expect(view.center.lat).toBeCloseTo(Number(server.latitude), 3);
  expect(view.center.lng).toBeCloseTo(Number(server.longitude), 3);
});

test('the socket reconnects after the server drops it, and markers keep moving', async ({ page }) => {
  test.setTimeout(45_000);
  const device = await admin.createDevice({ name: 'Moto 7' });
  await report(device.uniqueId, -23.50, -46.60);
  const pageSides: Array<{ close(): Promise<void> }> = [];
  const opened: number[] = [];
  await page.routeWebSocket('**/api/socket', (ws) => {
    opened.push(Date.now());
    ws.connectToServer();
    pageSides.push(ws);
  });
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await mapLoaded(page);
  await expect.poll(() => markerOf(page, device.id)).toMatchObject({ latitude: -23.5 });
  expect(opened).toHaveLength(1);

  const dropped = Date.now();
  await pageSides[0]!.close();
  await expect(page.getByTestId('map-reconnecting')).toBeVisible();
  await expect.poll(() => opened.length, { timeout: 10_000 }).toBe(2);
  const after = opened[1]! - dropped;
  expect(after).toBeGreaterThanOrEqual(4_500);
  expect(after).toBeLessThan(8_000);
  console.log(`[map] socket reopened ${after} ms after the drop`);
  await expect(page.getByTestId('map-reconnecting')).toHaveCount(0);

  await report(device.uniqueId, -23.52, -46.61);
  await expect.poll(() => markerOf(page, device.id), { timeout: 2_000 }).toMatchObject({ latitude: -23.52, longitude: -46.61 });
});

/** Clicks the map where a coordinate is drawn now. */
async function clickAt(page: Page, lon: number, lat: number): Promise<void> {
  const point = await page.evaluate(([x, y]) => {
    const map = window.__rastroMap!.map as unknown as { project(p: [number, number]): { x: number; y: number }; getCanvas(): HTMLCanvasElement };
    const p = map.project([x!, y!]);
    const box = map.getCanvas().getBoundingClientRect();
    return { x: box.left + p.x, y: box.top + p.y };
  }, [lon, lat]);
  await page.mouse.click(point.x, point.y);
}

test('clicking a cluster zooms in; clicking a vehicle selects it and opens its panel', async ({ page }) => {
  const a = await admin.createDevice({ name: 'Clique A' });
  const b = await admin.createDevice({ name: 'Clique B' });
  await report(a.uniqueId, -29.6900, -53.8000);
  await report(b.uniqueId, -29.6903, -53.7996);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await mapLoaded(page);
  await expect.poll(async () => (await markers(page)).filter((m) => m.id === a.id || m.id === b.id).length, { timeout: 5_000 }).toBe(2);
  await page.evaluate(async () => {
    const h = window.__rastroMap as unknown as { map: { jumpTo(o: unknown): void }; idle(): Promise<void> };
    h.map.jumpTo({ center: [-53.7998, -29.69015], zoom: 11 });
    await h.idle();
  });
  expect((await page.evaluate(() => window.__rastroMap!.rendered())).clusters).toContainEqual(expect.objectContaining({ count: 2 }));
  const before = await page.evaluate(() => window.__rastroMap!.map.getZoom());
  await clickAt(page, -53.7998, -29.69015);
  await expect.poll(() => page.evaluate(() => window.__rastroMap!.map.getZoom()), { timeout: 5_000 }).toBeGreaterThan(before + 1.5);

  await page.evaluate(async () => {
    const h = window.__rastroMap as unknown as { map: { jumpTo(o: unknown): void }; idle(): Promise<void> };
    h.map.jumpTo({ center: [-53.7998, -29.69015], zoom: 17 });
    await h.idle();
  });
  await clickAt(page, -53.8000, -29.6900);
  await expect(page).toHaveURL(new RegExp(`/devices/${a.id}$`));
  await expect.poll(() => page.evaluate(() => window.__rastroMap!.rendered().selected), { timeout: 5_000 }).toBe(a.id);
});
