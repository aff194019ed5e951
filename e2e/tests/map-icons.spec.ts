// The devices layer at work (spec §3 icon types, §9 image cache and map preferences): a truck
// gets the truck icon, tarkan.color tints it, nearby devices group into clusters with counts,
// and the map preferences persist across a reload. What was drawn is read from the vehicle
// overlay's last frame through the test hook (rendered()). Screenshots on desktop and at 390 px.
// Each test uses its own corner of the world so devices of other tests stay out of the view.
import { expect, test, type Page } from '@playwright/test';
import type { Device } from '@rastro/domain/entities';
import { Api } from '../support/api.ts';
import { ADMIN_PASSWORD, env } from '../support/env.ts';
import { shot } from '../support/shots.ts';
import { signIn } from '../support/ui.ts';

interface Hook {
  loaded(): boolean;
  idle(): Promise<void>;
  markers(): Promise<Array<{ id: number; longitude: number; latitude: number; icon: string; course: number }>>;
  image(id: string): { width: number; height: number; data: number[] } | null;
  cachedIcons(): string[];
  rendered(): { clusters: Array<{ count: number }>; icons: number[]; dots: number; labels: string[]; rings: number; precision: number; selected: number | null };
  map: { jumpTo(o: { center: [number, number]; zoom: number }): void; getCanvas(): HTMLCanvasElement };
}

const hook = 'window.__rastroMap';

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

async function report(uniqueId: string, latitude: number, longitude: number, extra = ''): Promise<void> {
  const url = `http://127.0.0.1:${env.osmandPort}/?id=${encodeURIComponent(uniqueId)}&lat=${latitude}&lon=${longitude}` +
    `&timestamp=${Math.floor(Date.now() / 1000)}&speed=12${extra}`;
  const res = await fetch(url, { method: 'POST' });
  if (!res.ok) throw new Error(`OsmAnd ${res.status}: ${await res.text()}`);
}

async function openMap(page: Page) {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await expect.poll(() => page.evaluate(`${hook}?.loaded() === true`), { timeout: 15_000 }).toBe(true);
}

const view = (page: Page, center: [number, number], zoom: number) =>
  page.evaluate(async ([c, z]) => {
    const h = (window as unknown as { __rastroMap: Hook }).__rastroMap;
    h.map.jumpTo({ center: c as [number, number], zoom: z as number });
    await h.idle();
  }, [center, zoom] as const);

const rendered = (page: Page) => page.evaluate(() => (window as unknown as { __rastroMap: Hook }).__rastroMap.rendered());

/** Share of opaque pixels whose colour is clearly green / clearly blue. */
async function hues(page: Page, id: string) {
  return page.evaluate((imageId) => {
    const image = (window as unknown as { __rastroMap: Hook }).__rastroMap.image(imageId);
    if (!image) return null;
    let opaque = 0;
    let green = 0;
    let blue = 0;
    for (let i = 0; i < image.data.length; i += 4) {
      const [r, g, b, a] = image.data.slice(i, i + 4) as [number, number, number, number];
      if (a < 200) continue;
      opaque++;
      if (g > r + 40 && g > b + 20) green++;
      if (b > r + 60 && b > g + 30) blue++;
    }
    return { opaque, green: green / opaque, blue: blue / opaque, width: image.width };
  }, id);
}

test('a truck gets the truck icon, tinted by tarkan.color, rotated by its course', async ({ page }) => {
  const truck = await admin.createDevice({ name: 'Caminhão Verde', category: 'truck', attributes: { 'tarkan.color': '105|1|1' } });
  const car = await admin.createDevice({ name: 'Carro Azul', category: 'car' });
  await report(truck.uniqueId, -3.7310, -38.5260, '&bearing=45');
  await report(car.uniqueId, -3.7318, -38.5240, '&bearing=270');
  await openMap(page);
  const iconOf = async (id: number) => (await page.evaluate(() => (window as unknown as { __rastroMap: Hook }).__rastroMap.markers())).find((m) => m.id === id);
  await expect.poll(async () => (await iconOf(truck.id))?.icon, { timeout: 5_000 }).toBe('icon:truck:105|1|1:');
  expect(await iconOf(truck.id)).toMatchObject({ course: 45 });
  expect((await iconOf(car.id))?.icon).toBe('icon:car::');

  await view(page, [-38.5250, -3.7314], 17);
  const drawn = await rendered(page);
  expect(drawn.icons).toEqual(expect.arrayContaining([truck.id, car.id]));
  expect(await page.evaluate(() => (window as unknown as { __rastroMap: Hook }).__rastroMap.cachedIcons())).toContain('icon:truck:105|1|1:');
  // The pixels are on the overlay: the truck's tint shows around its point on the screen.
  const greenNear = await page.evaluate(([lon, lat]) => {
    const h = (window as unknown as { __rastroMap: Hook & { map: { project(p: [number, number]): { x: number; y: number } } } }).__rastroMap;
    const overlay = document.querySelector<HTMLCanvasElement>('canvas.rastro-vehicles')!;
    const { x, y } = h.map.project([lon!, lat!]);
    const ratio = overlay.width / overlay.clientWidth;
    const data = overlay.getContext('2d')!.getImageData(Math.round((x - 23) * ratio), Math.round((y - 23) * ratio), Math.round(46 * ratio), Math.round(46 * ratio)).data;
    let green = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 200 && data[i + 1]! > data[i]! + 40 && data[i + 1]! > data[i + 2]! + 20) green++;
    return green;
  }, [-38.5260, -3.7310]);
  expect(greenNear).toBeGreaterThan(20);

  // The tint: the coloured truck is mostly green, the same icon without a colour is Rastro blue.
  const tinted = await hues(page, 'icon:truck:105|1|1:');
  const plain = await hues(page, 'icon:truck::');
  expect(tinted!.green).toBeGreaterThan(0.08); // the cab; the cargo box follows tarkan.color_extra
  expect(plain!.green).toBeLessThan(0.02);
  expect(plain!.blue).toBeGreaterThan(0.1);
  // The spec's preloaded categories are in the 100-entry cache from the start.
  const cached = await page.evaluate(() => (window as unknown as { __rastroMap: Hook }).__rastroMap.cachedIcons());
  for (const c of ['default', 'car', 'truck', 'motorcycle', 'bus']) expect(cached).toContain(`icon:${c}::`);
});

test('nearby devices group into clusters with counts; unclustered they show one by one', async ({ page }) => {
  test.setTimeout(60_000);
  const COUNT = 40;
  const devices: Device[] = [];
  for (let i = 0; i < COUNT; i++) devices.push(await admin.createDevice({ name: `Agrupado ${i + 1}`, category: i % 2 ? 'bus' : 'van' }));
  const spot = (i: number) => [-12.9700 + (i % 8) * 0.0006, -38.5000 + Math.floor(i / 8) * 0.0006] as const;
  await Promise.all(devices.map((d, i) => report(d.uniqueId, ...spot(i))));
  await openMap(page);
  const ids = new Set(devices.map((d) => d.id));
  await expect.poll(async () => (await page.evaluate(() => (window as unknown as { __rastroMap: Hook }).__rastroMap.markers())).filter((m) => ids.has(m.id)).length, { timeout: 10_000 }).toBe(COUNT);

  await view(page, [-38.4988, -12.9679], 11);
  const clustered = await rendered(page);
  expect(clustered.clusters.length).toBeGreaterThan(0);
  expect(clustered.clusters.reduce((sum, c) => sum + c.count, 0)).toBe(COUNT);
  await shot(page, 'map-clusters');

  await page.getByTestId('map-prefs-button').click();
  await page.getByTestId('map-pref-clustered').click();
  await page.keyboard.press('Escape');
  await view(page, [-38.4988, -12.9679], 16);
  await expect.poll(async () => (await rendered(page)).clusters.length).toBe(0);
  await expect.poll(async () => (await rendered(page)).icons.filter((id) => ids.has(id)).length).toBe(COUNT);
});

test('map preferences persist across a reload', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Preferido', category: 'motorcycle', attributes: { plate: 'RST2B26' } });
  await report(device.uniqueId, -8.0500, -34.9000, '&bearing=120&accuracy=40');
  await openMap(page);
  await page.getByTestId('map-prefs-button').click();
  const dialog = page.getByTestId('map-prefs');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('switch', { name: 'Agrupar veículos próximos' })).toBeChecked();
  for (const name of ['Mostrar nomes', 'Mostrar placas', 'Mostrar anéis de status', 'Mostrar precisão do GPS']) {
    const toggle = dialog.getByRole('switch', { name });
    await expect(toggle).not.toBeChecked();
    await toggle.click();
    await expect(toggle).toBeChecked();
  }
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('mapPref')))!)).toEqual({ name: true, plate: true, status: true, precision: true });
  await page.keyboard.press('Escape');

  await page.reload();
  await expect.poll(() => page.evaluate(`${hook}?.loaded() === true`), { timeout: 15_000 }).toBe(true);
  await page.getByTestId('map-prefs-button').click();
  await expect(page.getByTestId('map-prefs').getByRole('switch', { name: 'Mostrar placas' })).toBeChecked();
  await page.keyboard.press('Escape');
  await view(page, [-34.9000, -8.0500], 17);
  // Name and plate label, status ring and accuracy circle drawn with the vehicle.
  await expect.poll(async () => (await rendered(page)).labels).toContain('Preferido - RST2B26');
  const drawn = await rendered(page);
  expect(drawn.rings).toBeGreaterThan(0);
  expect(drawn.precision).toBeGreaterThan(0);
  await shot(page, 'map-prefs');
});

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`the fleet on the map, every category (${size.width} px)`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.setViewportSize(size);
    await page.addInitScript(() => localStorage.setItem('mapPref', JSON.stringify({ name: true, status: true })));
    const categories = ['default', 'arrow', 'person', 'animal', 'bicycle', 'motorcycle', 'scooter', 'car', 'pickup', 'van', 'truck', 'truck1',
      'truck2', 'tractor', 'boat', 'ship', 'bus', 'train', 'trolleybus', 'tram', 'crane', 'plane', 'helicopter', 'offroad'];
    const colors = ['', '13|1.5|0.9', '155|1|0.8', '-95|1.2|0.9', '43|2|1', '-165|1.5|0.7'];
    const base: [number, number] = [-15.7800, -47.9300];
    const cols = size.width < 768 ? 4 : 6;
    const devices = await Promise.all(categories.map((category, i) =>
      admin.createDevice({ name: `${category} ${size.width}`, category, attributes: colors[i % colors.length] ? { 'tarkan.color': colors[i % colors.length] } : {} })));
    await Promise.all(devices.map((d, i) => report(d.uniqueId, base[0] - Math.floor(i / cols) * 0.0011, base[1] + (i % cols) * 0.0014, `&bearing=${(i * 37) % 360}`)));
    await openMap(page);
    const ids = new Set(devices.map((d) => d.id));
    await expect.poll(async () => (await page.evaluate(() => (window as unknown as { __rastroMap: Hook }).__rastroMap.markers())).filter((m) => ids.has(m.id)).length, { timeout: 10_000 }).toBe(categories.length);
    const rows = Math.ceil(categories.length / cols);
    await view(page, [base[1] + ((cols - 1) * 0.0014) / 2, base[0] - ((rows - 1) * 0.0011) / 2], size.width < 768 ? 15.7 : 16.5);
    await page.evaluate(() => (window as unknown as { __rastroMap: Hook }).__rastroMap.idle());
    await shot(page, 'map-categories');
  });
}
