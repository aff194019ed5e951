// The device list (/devices) on a seeded fleet: counts per status, status chips, search (accents,
// plate), the filter menu (category hide-list, advanced filters), sorts (same key toggles),
// keyboard (arrows + Enter opens the device), the map hiding markers of filtered-out devices,
// screenshots at 1280 px and 390 px and axe-core. Devices report through the real OsmAnd port
// with motion / ignition / blocked / driver attributes. Every device name carries a tag unique
// to this run, and each test searches for it, so devices made by other tests never count.
import { expect, test, type Page } from '@playwright/test';
import type { Device } from '@rastro/domain/entities';
import { Api, uniqueSuffix } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { osmandReport } from '../support/osmand.ts';
import { shot } from '../support/shots.ts';
import { pt } from '../support/texts.ts';
import { expectNoHorizontalScroll, signIn } from '../support/ui.ts';

interface DevicesTexts {
  add: string;
  search: string;
  filters: string;
  clearFilters: string;
  groupBy: string;
  status: Record<string, string>;
  advanced: Record<string, string>;
  sort: Record<string, string>;
  category: Record<string, string>;
  empty: Record<string, string>;
}
const T = (pt as unknown as { devices: DevicesTexts }).devices;

/** The map's test hook (features/map), read through a cast: map.spec.ts declares the global. */
interface MapHook {
  loaded(): boolean;
  idle(): Promise<void>;
  markers(): Promise<Array<{ id: number }>>;
  map: { jumpTo(options: { center: [number, number]; zoom: number }): void };
  rendered(): { icons: number[] };
}
const hookLoaded = (page: Page) => page.evaluate(() => (window as unknown as { __rastroMap?: MapHook }).__rastroMap?.loaded() === true);
const hookIdle = (page: Page) => page.evaluate(() => (window as unknown as { __rastroMap?: MapHook }).__rastroMap?.idle());
const hookMarkers = (page: Page) => page.evaluate(() => (window as unknown as { __rastroMap: MapHook }).__rastroMap.markers());
/** Where report() put the seed at `index`. */
const seedAt = (index: number): [number, number] => [-23.55 + index * 0.004, -46.63 + index * 0.004];
/** Whether the map draws the device's icon when looking closely (zoom 18, no clusters) at where it is. */
const drawn = (page: Page, id: number, [lat, lon]: [number, number]) => page.evaluate(async ({ id, lat, lon }) => {
  const hook = (window as unknown as { __rastroMap: MapHook }).__rastroMap;
  hook.map.jumpTo({ center: [lon, lat], zoom: 18 });
  await hook.idle();
  return hook.rendered().icons.includes(id);
}, { id, lat, lon });

const TAG = `zq${uniqueSuffix()}`;

interface Seed {
  name: string;
  category: string;
  plate?: string;
  report?: Record<string, string | number | boolean>;
  state?: string;
  attributes?: Record<string, string>;
}

// 12 devices; 7 report a position (online), 5 never do.
const SEEDS: Seed[] = [
  { name: 'Caminhão Azul', category: 'truck', plate: 'ABC1D23', report: { motion: true, ignition: true, speed: 30 }, state: 'installed',
    attributes: { 'device.gpsBrand': `Concox${TAG}`, 'device.model': `GT06${TAG}` } },
  { name: 'Moto Norte', category: 'motorcycle', report: { motion: false, ignition: false, blocked: true },
    attributes: { 'device.gpsBrand': `Concox${TAG}`, 'device.technology': `4G${TAG}` } },
  { name: 'Carro Sul', category: 'car', report: { motion: false, ignition: true, driverUniqueId: 'D77' } },
  { name: 'Ônibus Centro', category: 'bus', report: { motion: true, ignition: true, speed: 18 } },
  { name: 'Van Leste', category: 'van', report: { motion: false, ignition: false } },
  { name: 'Trator Oeste', category: 'tractor', report: { motion: true, ignition: true, alarm: 'sos', speed: 8 } },
  { name: 'Pickup Rural', category: 'pickup', report: { motion: false, ignition: false } },
  { name: 'Guincho Reserva', category: 'truck' },
  { name: 'Bicicleta Entregas', category: 'bicycle' },
  { name: 'Barco Porto', category: 'boat' },
  { name: 'Caminhão Estoque', category: 'truck', state: 'in_stock' },
  { name: 'Helicóptero Base', category: 'helicopter' },
];
const MOVING = SEEDS.filter((s) => s.report?.motion === true).length;
const ONLINE = SEEDS.filter((s) => s.report).length;

let admin: Api;
let groupId = 0;
const devices = new Map<string, Device>();

async function report(uniqueId: string, attributes: Record<string, string | number | boolean>, index: number): Promise<void> {
  await osmandReport(uniqueId, -23.55 + index * 0.004, -46.63 + index * 0.004, { bearing: 90, ...attributes });
}

test.beforeAll(async () => {
  admin = await Api.admin();
  // Four devices in a group (group headers; the search also matches the group name).
  const group = await admin.post<{ id: number }>('/api/groups', { name: `Filial Belém ${TAG}` });
  groupId = group.id;
  for (const [i, s] of SEEDS.entries()) {
    const attributes: Record<string, unknown> = {};
    if (s.plate) attributes.plate = s.plate;
    if (s.state) attributes['device.state'] = s.state;
    Object.assign(attributes, s.attributes);
    const d = await admin.createDevice({ name: `${s.name} ${TAG}`, category: s.category, attributes, groupId: i < 4 ? group.id : 0 });
    devices.set(s.name, d);
    if (s.report) await report(d.uniqueId, s.report, i);
  }
  // Van Leste is anchored (an anchor geofence linked to it).
  const van = devices.get('Van Leste')!;
  const anchor = await admin.post<{ id: number }>('/api/geofences', {
    name: `Anchor ${van.name}`, area: 'CIRCLE (-23.534 -46.614, 150)', attributes: { isAnchor: true, deviceId: van.id },
  });
  await admin.link({ deviceId: van.id, geofenceId: anchor.id });
  // A lazily deleted device (safe-mode deletion renames its uniqueId deleted-x-y): never listed, never counted.
  const server = await admin.get<{ attributes: Record<string, unknown> }>('/api/server');
  await admin.put('/api/server', { ...server, attributes: { ...server.attributes, 'tarkan.enableLazyDeletion': true } });
  try {
    const gone = await admin.createDevice({ name: `Apagado ${TAG}`, category: 'car' });
    await admin.context.fetch(`/api/devices/${gone.id}`, { method: 'DELETE' });
    const kept = await admin.get<Device[]>(`/api/devices?id=${gone.id}`).catch(() => [] as Device[]);
    if (kept[0] && !/^deleted-[^-]+-[^-]+$/.test(kept[0].uniqueId)) throw new Error(`not lazily deleted: ${kept[0].uniqueId}`);
  } finally {
    const now = await admin.get<{ attributes: Record<string, unknown> }>('/api/server');
    const attributes = { ...now.attributes };
    delete attributes['tarkan.enableLazyDeletion'];
    await admin.put('/api/server', { ...now, attributes });
  }
});
test.afterAll(async () => {
  await admin.dispose();
});

test.beforeEach(async ({ page }) => {
  // Long walks through the menus on a shared, busy machine.
  test.setTimeout(90_000);
  await page.addInitScript(() => localStorage.setItem('rastro.testHooks', '1'));
});

const rows = (page: Page) => page.locator('.device-row');
/** Popovers and sheets slide in: wait for their transitions before a screenshot. */
const settle = (page: Page) => page.waitForFunction(() => document.getAnimations().length === 0);
const rowNames = (page: Page) => page.locator('.device-row .device-row-name').allInnerTexts();
const short = (names: string[]) => names.map((n) => n.replace(` ${TAG}`, ''));
const byName = (a: string, b: string) => a.localeCompare(b, 'pt-BR', { sensitivity: 'base' });
const chip = (page: Page, status: string) => page.locator(`.devices-chip[data-status="${status}"]`);

async function openList(page: Page) {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/devices');
  await expect(page).toHaveURL(/\/devices$/);
  await expect(page.getByTestId('devices-screen')).toBeVisible();
  await page.getByRole('searchbox', { name: T.search }).fill(TAG);
  await expect(chip(page, 'all')).toHaveText(new RegExp(`${SEEDS.length}$`));
  await expect(rows(page).first()).toBeVisible();
}

test('counts per status, status chips and search', async ({ page }) => {
  await openList(page);
  await expect(chip(page, 'all')).toContainText(String(SEEDS.length));
  await expect(chip(page, 'online')).toContainText(String(ONLINE));
  await expect(chip(page, 'moving')).toContainText(String(MOVING));
  await expect(chip(page, 'stopped')).toContainText(String(ONLINE - MOVING));
  // Default order: name ascending (accent-insensitive).
  const names = short(await rowNames(page));
  expect(names).toHaveLength(SEEDS.length);
  expect(names).toEqual([...names].sort(byName));

  await chip(page, 'moving').click();
  await expect(chip(page, 'moving')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(async () => short(await rowNames(page)).sort(byName)).toEqual(['Caminhão Azul', 'Ônibus Centro', 'Trator Oeste']);
  await chip(page, 'stopped').click();
  await expect.poll(async () => short(await rowNames(page)).sort(byName)).toEqual(['Carro Sul', 'Moto Norte', 'Pickup Rural', 'Van Leste']);
  await chip(page, 'all').click();

  const search = page.getByRole('searchbox', { name: T.search });
  await search.fill(`caminhao ${TAG}`);
  await expect.poll(async () => short(await rowNames(page)).sort(byName)).toEqual(['Caminhão Azul', 'Caminhão Estoque']);
  await expect(chip(page, 'all')).toContainText('2');
  await search.fill(`filial belem ${TAG}`);
  await expect.poll(async () => short(await rowNames(page)).sort(byName)).toEqual(['Caminhão Azul', 'Carro Sul', 'Moto Norte', 'Ônibus Centro']);
  await search.fill(`abc1d ${TAG}`);
  await expect.poll(async () => short(await rowNames(page))).toEqual(['Caminhão Azul']);
  // The query is kept in localStorage `query` and comes back after a reload.
  await page.reload();
  await expect(page.getByRole('searchbox', { name: T.search })).toHaveValue(`abc1d ${TAG}`);
  await expect.poll(async () => short(await rowNames(page))).toEqual(['Caminhão Azul']);
  await page.getByRole('searchbox', { name: T.search }).fill(`nada-assim ${TAG}`);
  await expect(page.getByText(T.empty.noMatch!)).toBeVisible();
  await page.getByRole('button', { name: T.clearFilters }).click();
  await expect(page.getByRole('searchbox', { name: T.search })).toHaveValue('');
});

test('filter menu: category hide-list, state and advanced filters', async ({ page }) => {
  await openList(page);
  await page.getByRole('button', { name: T.filters, exact: true }).click();
  await page.getByRole('checkbox', { name: T.category.truck }).uncheck();
  await expect(rows(page)).toHaveCount(SEEDS.length - 3);
  await page.getByRole('checkbox', { name: T.category.truck }).check();
  await expect(rows(page)).toHaveCount(SEEDS.length);

  const yesOf = (label: string) => page.locator('.devices-yesno').filter({ hasText: label }).getByText(T.advanced.yes!, { exact: true });
  const anyOf = (label: string) => page.locator('.devices-yesno').filter({ hasText: label }).getByText(T.advanced.any!, { exact: true });
  await yesOf(T.advanced.locked!).click();
  await expect.poll(async () => short(await rowNames(page))).toEqual(['Moto Norte']);
  await anyOf(T.advanced.locked!).click();
  await yesOf(T.advanced.driver!).click();
  await expect.poll(async () => short(await rowNames(page))).toEqual(['Carro Sul']);
  await anyOf(T.advanced.driver!).click();
  await yesOf(T.advanced.ignition!).click();
  await expect.poll(async () => short(await rowNames(page)).sort(byName)).toEqual(['Caminhão Azul', 'Carro Sul', 'Ônibus Centro', 'Trator Oeste']);
  await shot(page, 'devices-filters');
  await anyOf(T.advanced.ignition!).click();
  // Anchored devices come from the session's geofences.
  await yesOf(T.advanced.anchor!).click();
  await expect.poll(async () => short(await rowNames(page))).toEqual(['Van Leste']);
  await anyOf(T.advanced.anchor!).click();
  const pick = async (label: string, option: string) => {
    await page.getByRole('combobox', { name: label, exact: true }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  await pick(T.advanced.gps_brand!, `Concox${TAG}`);
  await expect.poll(async () => short(await rowNames(page)).sort(byName)).toEqual(['Caminhão Azul', 'Moto Norte']);
  // Advanced filters combine.
  await pick(T.advanced.technology!, `4G${TAG}`);
  await expect.poll(async () => short(await rowNames(page))).toEqual(['Moto Norte']);
  // Clearing closes the menu and empties the search too: search this run's devices again, then reopen it.
  const restart = async () => {
    await page.getByRole('button', { name: T.clearFilters }).click();
    await expect(page.getByRole('dialog', { name: T.filters })).toBeHidden();
    await page.getByRole('searchbox', { name: T.search }).fill(TAG);
    await expect(rows(page)).toHaveCount(SEEDS.length);
    await page.getByRole('button', { name: T.filters, exact: true }).click();
  };
  await restart();
  await pick(T.advanced.gps_model!, `GT06${TAG}`);
  await expect.poll(async () => short(await rowNames(page))).toEqual(['Caminhão Azul']);
  await restart();
  // States by their names (device.state values of the editor).
  await pick((pt as unknown as { devices: { state: string } }).devices.state,
    (pt as unknown as { deviceEditor: { states: Record<string, string> } }).deviceEditor.states.in_stock!);
  await expect.poll(async () => short(await rowNames(page))).toEqual(['Caminhão Estoque']);
  await page.getByRole('button', { name: T.clearFilters }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('searchbox', { name: T.search })).toHaveValue('');
});

test('virtualised: a long list keeps only the rows near the view in the page', async ({ page }) => {
  const tag = `zv${uniqueSuffix()}`;
  const count = 80;
  for (let i = 0; i < count; i++) await admin.createDevice({ name: `Frota ${String(i).padStart(2, '0')} ${tag}` });
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/devices');
  await page.getByRole('searchbox', { name: T.search }).fill(tag);
  await expect(chip(page, 'all')).toContainText(String(count));
  await expect(rows(page).first()).toBeVisible();
  expect(await rows(page).count()).toBeLessThan(40);
  await page.getByTestId('devices-list').evaluate((el) => { el.scrollTop = el.scrollHeight; });
  await expect(page.locator('.device-row-name', { hasText: `Frota ${count - 1} ${tag}` })).toBeVisible();
  await expect(page.locator('.device-row-name', { hasText: `Frota 00 ${tag}` })).toHaveCount(0);
});

test('group anchor: one anchor per device of the group, shown on the header; confirming again removes them', async ({ page }) => {
  const G = (pt as unknown as { devices: { groupAnchor: Record<string, string> } }).devices.groupAnchor;
  const d = (pt as unknown as { device: { actions: Record<string, string> } }).device.actions;
  const groupName = `Filial Belém ${TAG}`;
  const groupAnchorsOnServer = async () => (await admin.get<Array<{ attributes: Record<string, unknown> }>>('/api/geofences'))
    .filter((g) => Number(g.attributes.groupId) === groupId).length;
  await openList(page);
  await page.getByRole('button', { name: T.groupBy }).click();
  const on = page.getByRole('button', { name: G.enable!.replace('{{name}}', groupName) });
  await on.click();
  const dialog = page.getByRole('dialog', { name: G.enableTitle });
  await expect(dialog).toContainText(G.confirmOn!.replace('{{count}}', '4').replace('{{name}}', groupName));
  // Cancelling says so and changes nothing.
  await dialog.getByRole('button', { name: d.cancel }).click();
  await expect(page.getByTestId('group-anchor-notice')).toHaveText(d.cancelled!);
  await on.click();
  await page.getByRole('dialog', { name: G.enableTitle }).getByRole('button', { name: G.enableTitle }).click();
  await expect(page.getByTestId('group-anchor-notice')).toHaveText(G.created!.replace('{{count}}', '4').replace('{{name}}', groupName));
  const off = page.getByRole('button', { name: G.disable!.replace('{{name}}', groupName) });
  await expect(off).toHaveAttribute('aria-pressed', 'true');
  expect(await groupAnchorsOnServer()).toBe(4);
  await expect(page.locator(`.device-row[data-device-id="${devices.get('Moto Norte')!.id}"] [data-flag="anchor"]`)).toHaveCount(1);
  await shot(page, 'devices-group-anchor');
  await expectAccessible(page, 'devices group anchor');
  await off.click();
  await page.getByRole('dialog', { name: G.disableTitle }).getByRole('button', { name: G.disableTitle }).click();
  await expect(page.getByTestId('group-anchor-notice')).toHaveText(G.removed!.replace('{{name}}', groupName));
  await expect(on).toHaveAttribute('aria-pressed', 'false');
  expect(await groupAnchorsOnServer()).toBe(0);
  await expect(page.locator(`.device-row[data-device-id="${devices.get('Moto Norte')!.id}"] [data-flag="anchor"]`)).toHaveCount(0);
});

test('sorts: same key toggles the direction; state sorts put flagged devices first', async ({ page }) => {
  await openList(page);
  const ascending = short(await rowNames(page));
  const sortButton = page.getByRole('button', { name: new RegExp(`^${T.sort.button!.split(':')[0]}`) });
  await sortButton.click();
  await page.getByRole('menuitem', { name: T.sort.name }).click();
  await expect.poll(async () => short(await rowNames(page))).toEqual([...ascending].reverse());
  await sortButton.click();
  await page.getByRole('menuitem', { name: T.sort.alert }).click();
  await expect.poll(async () => short(await rowNames(page))[0]).toBe('Trator Oeste');
  await sortButton.click();
  await page.getByRole('menuitem', { name: T.sort.motion }).click();
  await expect.poll(async () => short(await rowNames(page)).slice(0, 3).sort(byName)).toEqual(['Caminhão Azul', 'Ônibus Centro', 'Trator Oeste']);
  await sortButton.click();
  await page.getByRole('menuitem', { name: T.sort.lastUpdate }).click();
  // Devices that never reported go last.
  await expect.poll(async () => short(await rowNames(page)).slice(ONLINE).sort(byName)).toEqual(
    ['Barco Porto', 'Bicicleta Entregas', 'Caminhão Estoque', 'Guincho Reserva', 'Helicóptero Base'],
  );
  await sortButton.click();
  await page.getByRole('menuitem', { name: T.sort.name }).click();
  await expect.poll(async () => short(await rowNames(page))).toEqual(ascending);
  // The current sort shows with its arrow; pressing it toggles the direction too.
  const now = page.getByTestId('devices-sort-now');
  await expect(now).toContainText(`${T.sort.name} ↑`);
  await now.click();
  await expect(now).toContainText(`${T.sort.name} ↓`);
  await expect.poll(async () => short(await rowNames(page))).toEqual([...ascending].reverse());
  await now.click();
});

test('the administrator can add a device from the list (the editor opens)', async ({ page }) => {
  await openList(page);
  const add = page.getByRole('button', { name: T.add });
  await expect(add).toBeEnabled();
  await add.click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('keyboard: arrows move through rows and Enter opens the device', async ({ page }) => {
  await openList(page);
  const names = await rowNames(page);
  await rows(page).first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('.device-row:focus .device-row-name')).toHaveText(names[2]!);
  await page.keyboard.press('ArrowUp');
  await expect(page.locator('.device-row:focus .device-row-name')).toHaveText(names[1]!);
  const id = await page.locator('.device-row:focus').getAttribute('data-device-id');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/devices/${id}$`));
});

test('markers of filtered-out devices leave the map', async ({ page }) => {
  await openList(page);
  await expect.poll(() => hookLoaded(page), { timeout: 15_000 }).toBe(true);
  const truck = devices.get('Caminhão Azul')!.id;
  const moto = devices.get('Moto Norte')!.id;
  const markerIds = async () => new Set((await hookMarkers(page)).map((m) => m.id));
  await expect.poll(async () => (await markerIds()).has(truck) && (await markerIds()).has(moto), { timeout: 10_000 }).toBe(true);
  await expect.poll(() => drawn(page, moto, seedAt(1)), { timeout: 10_000 }).toBe(true);
  await chip(page, 'moving').click();
  await expect.poll(async () => [await drawn(page, truck, seedAt(0)), await drawn(page, moto, seedAt(1))], { timeout: 10_000 }).toEqual([true, false]);
  await chip(page, 'all').click();
  await expect.poll(() => drawn(page, moto, seedAt(1)), { timeout: 10_000 }).toBe(true);
});

for (const size of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`screenshots and accessibility at ${size.width} px`, async ({ page }) => {
    await page.setViewportSize(size);
    await openList(page);
    await hookIdle(page);
    await expectNoHorizontalScroll(page);
    await shot(page, 'devices-list');
    await expectAccessible(page, `devices list ${size.width}`);
    await page.getByRole('button', { name: T.groupBy }).click();
    const headers = page.locator('.devices-group');
    await expect(headers.first()).toContainText(String(SEEDS.length - 4));
    // Collapsing "no group" brings the group's header up; the choice is remembered.
    await headers.first().click();
    await expect(headers.first()).toHaveAttribute('aria-expanded', 'false');
    await expect(headers.nth(1)).toContainText(`Filial Belém ${TAG}`);
    await expect(rows(page)).toHaveCount(4);
    await shot(page, 'devices-grouped');
    await headers.first().click();
    await expect(headers.first()).toHaveAttribute('aria-expanded', 'true');
    await page.getByRole('button', { name: T.groupBy }).click();
    await page.getByRole('button', { name: T.filters, exact: true }).click();
    // A popover beside the button on desktop, a bottom sheet on a phone; every filter in reach.
    const menu = page.getByRole('dialog', { name: T.filters });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('button', { name: T.clearFilters })).toBeInViewport();
    await settle(page);
    await shot(page, 'devices-filter-menu');
    await expectAccessible(page, `devices filter menu ${size.width}`);
  });
}

test('a search remembered from an earlier session hides markers on /home, and the map says so', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === '/api/groups' || path === '/api/geofences') requests.push(path);
  });
  // The query (a group name: groups load with the session, not with the list) was left by an
  // earlier visit; this visit starts on /home.
  await page.addInitScript((q) => { if (!sessionStorage.getItem('seeded')) { localStorage.setItem('query', q); sessionStorage.setItem('seeded', '1'); } },
    `filial belem ${TAG}`);
  await signIn(page, 'admin', ADMIN_PASSWORD);
  requests.length = 0;
  await page.goto('/home');
  await expect.poll(() => hookLoaded(page), { timeout: 15_000 }).toBe(true);
  const hint = page.getByTestId('map-filter-hint');
  const H = (pt as unknown as { devices: { mapHint: Record<string, string> } }).devices.mapHint;
  await expect(hint).toContainText(new RegExp(H.text!.replace('{{shown}}', '4').replace('{{total}}', '\\d+')));
  const inGroup = devices.get('Moto Norte')!.id;
  const outside = devices.get('Van Leste')!.id;
  await expect.poll(async () => [await drawn(page, inGroup, seedAt(1)), await drawn(page, outside, seedAt(4))], { timeout: 10_000 }).toEqual([true, false]);
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(hint).toBeVisible();
  await shot(page, 'map-filter-hint');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, 'map-filter-hint');
  await expectAccessible(page, 'map filter hint');
  // The list itself says how many it shows; the note stays off there.
  await hint.getByRole('button', { name: H.openLabel }).click();
  await expect(page).toHaveURL(/\/devices$/);
  await expect(page.getByTestId('devices-summary')).toContainText('4');
  await expect(hint).toBeHidden();
  await page.locator('.device-row').first().click();
  await expect(page.getByTestId('device-detail')).toBeVisible();
  await expect(hint).toBeVisible();
  await hint.getByRole('button', { name: H.clearLabel }).click();
  await expect(hint).toBeHidden();
  await expect.poll(() => drawn(page, outside, seedAt(4)), { timeout: 10_000 }).toBe(true);
  expect(await page.evaluate(() => localStorage.getItem('query'))).toBe('');
  // Groups and geofences were fetched once since the page loaded (list, detail and map share them).
  expect(requests.filter((p) => p === '/api/groups')).toHaveLength(1);
  expect(requests.filter((p) => p === '/api/geofences')).toHaveLength(1);
});
