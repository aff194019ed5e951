// The device detail panel (/devices/:deviceId): fields and latest position from the real server,
// pinned and all attributes, actions (lock/unlock and commands with their lifecycle: pending and
// why, sent, acknowledged with the reply, confirmed, cancelled; the engine-stop speed guard),
// anchor on and off, delete, the 390 px bottom sheet, and the not-found state.
import { expect, test, type Locator, type Page } from '@playwright/test';
import type { Device } from '@rastro/domain/entities';
import { Api } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { osmandReport } from '../support/osmand.ts';
import { shot } from '../support/shots.ts';
import { pt, t } from '../support/texts.ts';
import { expectNoHorizontalScroll, settled, signIn } from '../support/ui.ts';

let admin: Api;
test.beforeAll(async () => {
  admin = await Api.admin();
});
test.afterAll(async () => {
  await admin.dispose();
});

/** One OsmAnd report; returns the HTTP answer's body (a queued command's text, if any). */
async function report(uniqueId: string, latitude: number, longitude: number, extra: Record<string, string | number> = {}): Promise<string> {
  return osmandReport(uniqueId, latitude, longitude, { speed: 10, bearing: 90, ...extra });
}

async function openDetail(page: Page, device: Device) {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto(`/devices/${device.id}`);
  const panel = page.getByTestId('screen-panel');
  await expect(panel.getByRole('heading', { name: device.name })).toBeVisible({ timeout: 15_000 });
  return panel;
}


/**
 * Clicks a menu's trigger until `item` shows. On a loaded 2-core machine a click on a pin
 * button scrolled into view can miss its menu now and then; a user would click again.
 */
async function openMenu(trigger: Locator, item: Locator): Promise<void> {
  await expect(async () => {
    if (!(await item.isVisible())) await trigger.click();
    await expect(item).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
}

test('the detail panel shows the device, its latest position and attributes; pin and unpin', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Caminhão Detalhe', model: 'GT06', attributes: { plate: 'ABC1D23' } });
  await report(device.uniqueId, -23.5489, -46.6388, { ignition: 'true', batt: 87, sat: 9 });
  const panel = await openDetail(page, device);
  await expect(panel.getByRole('heading', { name: t('device.title'), exact: true })).toBeVisible();
  await expect(panel.getByText('ABC1D23')).toBeVisible();
  await expect(panel.getByText('GT06')).toBeVisible();
  // 10 knots in km/h (the default unit).
  await expect(panel.getByTestId('device-speed')).toContainText(`18.5 ${t('device.units.kmh')}`);
  await expect(panel.getByTestId('device-position')).toContainText(t('device.position.ignition'));
  await expect(panel.getByRole('toolbar', { name: t('device.actions.label') })).toBeVisible();
  // Opening the device selects it on the map, which follows it; Follow switches that.
  await expect(panel.getByRole('button', { name: t('device.actions.unfollow') })).toHaveAttribute('aria-pressed', 'true');
  await panel.getByRole('button', { name: t('device.actions.unfollow') }).click();
  await expect(panel.getByRole('button', { name: t('device.actions.follow') })).toHaveAttribute('aria-pressed', 'false');
  await panel.getByRole('button', { name: t('device.actions.follow') }).click();
  await expect(panel.getByRole('button', { name: t('device.actions.unfollow') })).toBeVisible();
  // Google Maps and Street View open in a new tab at the coordinates.
  await panel.getByRole('button', { name: t('device.actions.openExternal') }).click();
  const maps = page.getByRole('menuitem', { name: t('device.actions.googleMaps') });
  await expect(maps).toHaveAttribute('href', /query=-23\.5489,-46\.6388/);
  await expect(maps).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('menuitem', { name: t('device.actions.streetView') })).toHaveAttribute('href', /viewpoint=-23\.5489,-46\.6388/);
  await page.keyboard.press('Escape');
  // The menu leaves with a short transition: check the panel once it is gone (a half-closed
  // menu has no items, which axe rightly reports).
  await expect(page.getByRole('menu')).toHaveCount(0);
  await shot(page, 'device-detail');
  await expectAccessible(page, 'device detail');

  // All attributes on demand; pin "sat" for this user, then unpin it.
  await expect(panel.getByTestId('all-attributes')).toBeHidden();
  await panel.getByRole('button', { name: t('device.attributes.showAll') }).click();
  await expect(panel.getByTestId('all-attributes')).toBeVisible();
  await openMenu(panel.getByRole('button', { name: t('device.attributes.pin', { name: 'sat' }) }), page.getByRole('menuitem', { name: t('device.attributes.pinUser') }));
  await page.getByRole('menuitem', { name: t('device.attributes.pinUser') }).click();
  await expect(panel.getByTestId('pinned-attributes')).toContainText('9');
  const me = await admin.get<{ attributes: Record<string, unknown> }>(`/api/users/${admin.user.id}`);
  expect(me.attributes['tarkan.deviceAttributes']).toBe('sat');
  await settled(page);
  await shot(page, 'device-detail-attributes');
  await expectAccessible(page, 'device detail, all attributes');
  await panel.getByRole('button', { name: t('device.attributes.unpin', { name: 'sat' }) }).click();
  await expect(panel.getByTestId('pinned-attributes')).toBeHidden();
  await expect(panel.getByText(t('device.attributes.nonePinned'))).toBeVisible();
});

test('an unknown device shows the not-found state', async ({ page }) => {
  await signIn(page, 'admin', ADMIN_PASSWORD);
  await page.goto('/devices/987654');
  await expect(page.getByTestId('device-not-found')).toHaveText(t('device.notFound'), { timeout: 15_000 });
});

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  test('the recent commands fit the bottom sheet', async ({ page }) => {
    const device = await admin.createDevice({ name: 'Moto Comandos' });
    await report(device.uniqueId, -23.5512, -46.6341, { speed: knots(70) });
    const panel = await openDetail(page, device);
    await page.getByRole('button', { name: pt.shell!.panelExpand! }).first().click();
    await panel.getByRole('button', { name: t('device.actions.lock'), exact: true }).click();
    await page.getByRole('dialog', { name: t('device.actions.lock') }).getByRole('button', { name: t('device.actions.lock') }).click();
    await expect(commandState(panel)).toHaveAttribute('data-reason', 'speed');
    await commandState(panel).scrollIntoViewIfNeeded();
    await expectNoHorizontalScroll(page);
    await settled(page);
    await shot(page, 'device-detail-commands');
    await expectAccessible(page, 'device detail commands, bottom sheet');
  });

  test('the detail is a bottom sheet', async ({ page }) => {
    const device = await admin.createDevice({ name: 'Moto Celular' });
    await report(device.uniqueId, -23.5512, -46.6341, { ignition: 'false' });
    const panel = await openDetail(page, device);
    await expect(panel).toHaveClass(/is-sheet/);
    const box = await panel.boundingBox();
    expect(box!.y).toBeGreaterThan(200);
    await expectNoHorizontalScroll(page);
    await page.getByRole('button', { name: pt.shell!.panelExpand! }).first().click();
    await expect(panel.getByTestId('device-speed')).toBeVisible();
    await shot(page, 'device-detail');
    await expectAccessible(page, 'device detail bottom sheet');
  });
});

/** km/h as OsmAnd's `speed` field (knots). */
const knots = (kmh: number) => Number((kmh / 1.852).toFixed(2));

/** The device's recent commands in the detail: the newest is the `command-state` item. */
function commandState(panel: Locator) {
  return panel.getByTestId('command-state');
}

test('lock: cancelling says so; on an offline device it is pending, then sent, acknowledged with the reply, confirmed by blocked=true', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Bloqueio Pendente' });
  const panel = await openDetail(page, device);
  const toolbar = panel.getByRole('toolbar', { name: t('device.actions.label') });

  await toolbar.getByRole('button', { name: t('device.actions.lock'), exact: true }).click();
  const dialog = page.getByRole('dialog', { name: t('device.actions.lock') });
  await expect(dialog).toContainText(t('device.confirm.lock', { name: device.name }));
  await dialog.getByRole('button', { name: t('device.actions.cancel') }).click();
  await expect(panel.getByTestId('device-notice')).toContainText(t('device.actions.cancelled'));

  await toolbar.getByRole('button', { name: t('device.actions.lock'), exact: true }).click();
  await page.getByRole('dialog', { name: t('device.actions.lock') }).getByRole('button', { name: t('device.actions.lock') }).click();
  const state = commandState(panel);
  await expect(state).toHaveAttribute('data-state', 'queued');
  await expect(state).toContainText(t('device.actions.lock'));
  await expect(state).toContainText(t('device.commandLog.status.queued'));
  await expect(state).toContainText(t('device.commandLog.reason.offline'));
  await expect(panel.getByRole('heading', { name: t('device.commandLog.title') })).toBeVisible();
  await settled(page);
  await shot(page, 'device-detail-lock-pending');

  // The device reports: the server answers with the queued command's text; the panel shows it sent.
  const answer = await report(device.uniqueId, -23.55, -46.63);
  expect(answer).toContain('engineStop');
  await expect(state).toHaveAttribute('data-state', 'sent', { timeout: 10_000 });
  await expect(state).toContainText(t('device.commandLog.awaitingReply'));
  // Its reply: acknowledged, with the text.
  expect(await report(device.uniqueId, -23.5501, -46.6301, { result: 'Cut oil and electricity OK' })).toBe('');
  await expect(state).toHaveAttribute('data-state', 'acknowledged', { timeout: 10_000 });
  await expect(state).toContainText(t('device.commandLog.reply', { text: 'Cut oil and electricity OK' }));
  await expect(state).toContainText(t('device.commandLog.awaitingEffect'));
  // A position showing the effect: confirmed, every step with its time.
  await report(device.uniqueId, -23.5502, -46.6302, { blocked: 'true', speed: 0 });
  await expect(state).toHaveAttribute('data-state', 'confirmed', { timeout: 10_000 });
  await expect(state).toContainText(t('device.commandLog.status.confirmed'));
  await expect(state.locator('time')).toHaveCount(4);
  await settled(page);
  await shot(page, 'device-detail-lock-confirmed');
  await expectAccessible(page, 'device detail, command lifecycle');
});

test('speed guard: a lock to a vehicle at 60 km/h waits until a report at 5 km/h delivers it', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Bloqueio em Movimento' });
  await report(device.uniqueId, -23.55, -46.63, { speed: knots(60) });
  const panel = await openDetail(page, device);
  await panel.getByRole('button', { name: t('device.actions.lock'), exact: true }).click();
  await page.getByRole('dialog', { name: t('device.actions.lock') }).getByRole('button', { name: t('device.actions.lock') }).click();
  const state = commandState(panel);
  await expect(state).toHaveAttribute('data-state', 'queued');
  await expect(state).toHaveAttribute('data-reason', 'speed');
  await expect(state).toContainText(t('device.commandLog.reason.speed'));
  await settled(page);
  await shot(page, 'device-detail-lock-speed');

  // Still fast: nothing is handed over, it keeps waiting.
  expect(await report(device.uniqueId, -23.551, -46.631, { speed: knots(58) })).toBe('');
  await expect(state).toHaveAttribute('data-reason', 'speed');
  // Slow: the report's answer carries the engine stop.
  expect(await report(device.uniqueId, -23.552, -46.632, { speed: knots(5) })).toContain('engineStop');
  await expect(state).toHaveAttribute('data-state', 'sent', { timeout: 10_000 });
});

test('a pending lock can be cancelled: the device never gets it', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Bloqueio Cancelado' });
  const panel = await openDetail(page, device);
  await panel.getByRole('button', { name: t('device.actions.lock'), exact: true }).click();
  await page.getByRole('dialog', { name: t('device.actions.lock') }).getByRole('button', { name: t('device.actions.lock') }).click();
  const state = commandState(panel);
  await expect(state).toHaveAttribute('data-state', 'queued');
  // Keyboard: the cancel button is reachable and labelled with the command.
  const cancel = panel.getByRole('button', { name: t('device.commandLog.cancelLabel', { command: t('device.actions.lock') }) });
  await cancel.focus();
  await page.keyboard.press('Enter');
  await expect(state).toHaveAttribute('data-state', 'failed');
  await expect(state).toContainText(t('device.commandLog.reason.cancelled'));
  await expect(cancel).toHaveCount(0);
  expect(await report(device.uniqueId, -23.55, -46.63)).toBe('');
});

test('unlock uses the saved command whose tarkan.changeNative is engineResume', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Desbloqueio Salvo' });
  await report(device.uniqueId, -23.55, -46.63);
  const command = await admin.post<{ id: number }>('/api/commands', {
    description: 'Liberar motor', type: 'custom', textChannel: false, attributes: { data: 'RELAY,0#', 'tarkan.changeNative': 'engineResume' },
  });
  await admin.link({ deviceId: device.id, commandId: command.id });
  const panel = await openDetail(page, device);
  await panel.getByRole('button', { name: t('device.actions.unlock'), exact: true }).click();
  await page.getByRole('dialog', { name: t('device.actions.unlock') }).getByRole('button', { name: t('device.actions.unlock') }).click();
  const state = commandState(panel);
  await expect(state).toHaveAttribute('data-state', 'queued');
  await expect(state).toContainText(`${t('device.actions.unlock')} (Liberar motor)`);
  await expect(state).toContainText(t('device.commandLog.reason.nextMessage'));
  expect(await report(device.uniqueId, -23.5501, -46.6301)).toContain('RELAY,0#');
  await expect(state).toHaveAttribute('data-state', 'sent', { timeout: 10_000 });
});

test('send a custom command from the command dialog', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Comando Livre' });
  await report(device.uniqueId, -23.55, -46.63);
  const panel = await openDetail(page, device);
  await panel.getByRole('button', { name: t('device.actions.command') }).click();
  const dialog = page.getByRole('dialog', { name: t('device.command.title') });
  await dialog.getByLabel(t('device.command.choose')).click();
  await page.getByRole('option', { name: t('device.commandTypes.custom') }).click();
  await dialog.getByLabel(t('device.command.params.data')).fill('STATUS#');
  await settled(page);
  await shot(page, 'device-detail-command');
  await expectAccessible(page, 'command dialog');
  await dialog.getByRole('button', { name: t('device.command.send') }).click();
  const state = commandState(panel);
  await expect(state).toHaveAttribute('data-state', 'queued');
  await expect(state).toContainText(t('device.commandTypes.custom'));
  expect(await report(device.uniqueId, -23.5502, -46.6302)).toContain('STATUS#');
  await expect(state).toHaveAttribute('data-state', 'sent', { timeout: 10_000 });
  // A custom command ends at its reply: nothing confirms it.
  await report(device.uniqueId, -23.5503, -46.6303, { result: 'GPS:OK;GSM:4' });
  await expect(state).toHaveAttribute('data-state', 'acknowledged', { timeout: 10_000 });
  await expect(state).not.toContainText(t('device.commandLog.awaitingEffect'));
});

test('anchor on and off', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Barco Ancorado' });
  await report(device.uniqueId, -23.56, -46.64);
  const panel = await openDetail(page, device);
  const anchors = async () =>
    (await admin.get<Array<{ id: number; name: string; area: string; attributes: Record<string, unknown> }>>(`/api/geofences?deviceId=${device.id}`))
      .filter((g) => g.attributes.isAnchor === true);

  await panel.getByRole('button', { name: t('device.actions.anchor') }).click();
  const on = page.getByRole('dialog', { name: t('device.anchor.enable') });
  await expect(on).toContainText(t('device.confirm.anchorOn', { name: device.name }));
  await on.getByRole('button', { name: t('device.anchor.enable') }).click();
  await expect(panel.getByTestId('device-notice')).toContainText(t('device.anchor.created'));
  await expect(panel.getByRole('button', { name: t('device.actions.anchor') })).toHaveAttribute('aria-pressed', 'true');
  const created = await anchors();
  expect(created).toHaveLength(1);
  expect(created[0]).toMatchObject({ name: `Anchor ${device.name}`, attributes: { isAnchor: true, deviceId: device.id } });
  expect(created[0]!.area).toMatch(/^CIRCLE \(-23\.56\d* -46\.64\d*, 150(\.0+)?\)$/);

  await panel.getByRole('button', { name: t('device.actions.anchor') }).click();
  const off = page.getByRole('dialog', { name: t('device.anchor.disable') });
  await off.getByRole('button', { name: t('device.anchor.disable') }).click();
  await expect(panel.getByTestId('device-notice')).toContainText(t('device.anchor.removed'));
  await expect(panel.getByRole('button', { name: t('device.actions.anchor') })).toHaveAttribute('aria-pressed', 'false');
  expect(await anchors()).toHaveLength(0);
});

test('anchor needs a position', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Sem Posição' });
  const panel = await openDetail(page, device);
  await panel.getByRole('button', { name: t('device.actions.anchor') }).click();
  await expect(panel.getByTestId('device-notice')).toContainText(t('device.anchor.needsPosition'));
});

test('delete: confirm, back to /devices, gone from the server', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Para Excluir' });
  const panel = await openDetail(page, device);
  await panel.getByRole('button', { name: t('device.actions.delete') }).click();
  const dialog = page.getByRole('dialog', { name: t('device.actions.delete') });
  await expect(dialog).toContainText(t('device.confirm.delete', { name: device.name }));
  await dialog.getByRole('button', { name: t('device.actions.delete') }).click();
  await expect(page).toHaveURL(/\/devices$/);
  await expect(page.getByText(device.name)).toHaveCount(0);
  const left = await admin.get<Device[]>('/api/devices');
  expect(left.some((d) => d.id === device.id && !/^deleted-/.test(d.uniqueId))).toBe(false);
});

test('delete with safe-mode deletion on: the device leaves the panel and the store', async ({ page }) => {
  const server = await admin.get<{ attributes: Record<string, unknown> }>('/api/server');
  await admin.put('/api/server', { ...server, attributes: { ...server.attributes, 'tarkan.enableLazyDeletion': true } });
  try {
    const device = await admin.createDevice({ name: 'Exclusão Segura' });
    const panel = await openDetail(page, device);
    await panel.getByRole('button', { name: t('device.actions.delete') }).click();
    await page.getByRole('dialog', { name: t('device.actions.delete') }).getByRole('button', { name: t('device.actions.delete') }).click();
    await expect(page).toHaveURL(/\/devices$/);
    await page.waitForTimeout(1000); // a socket update of the renamed device must not bring it back
    await expect(page.getByText(device.name)).toHaveCount(0);
    const after = await admin.get<Device[]>(`/api/devices?id=${device.id}`).catch(() => []);
    expect(after.every((d) => /^deleted-/.test(d.uniqueId))).toBe(true);
  } finally {
    const now = await admin.get<{ attributes: Record<string, unknown> }>('/api/server');
    const attributes = { ...now.attributes };
    delete attributes['tarkan.enableLazyDeletion'];
    await admin.put('/api/server', { ...now, attributes });
  }
});

test('a read-only user sees only the actions that change nothing', async ({ page }) => {
  const password = 'viewer-pass';
  const viewer = await admin.createUser({ password, readonly: true });
  const device = await admin.createDevice({ name: 'Só Leitura' });
  await report(device.uniqueId, -23.57, -46.65);
  await admin.link({ userId: viewer.id, deviceId: device.id });
  await signIn(page, viewer.email, password);
  await page.goto(`/devices/${device.id}`);
  const panel = page.getByTestId('screen-panel');
  await expect(panel.getByRole('heading', { name: device.name })).toBeVisible({ timeout: 15_000 });
  const toolbar = panel.getByRole('toolbar', { name: t('device.actions.label') });
  for (const action of ['lock', 'unlock', 'anchor', 'command', 'edit', 'delete']) {
    await expect(toolbar.getByRole('button', { name: t(`device.actions.${action}`), exact: true })).toHaveCount(0);
  }
  await expect(toolbar.getByRole('button', { name: t('device.actions.openExternal') })).toBeVisible();
});

/** One OsmAnd report at a given time (seconds ago). */
async function reportAt(uniqueId: string, secondsAgo: number, extra: Record<string, string | number>): Promise<void> {
  await osmandReport(uniqueId, -23.56 + secondsAgo / 1e6, -46.64, { bearing: 0, ...extra }, new Date(Date.now() - secondsAgo * 1000));
}

async function setServerAttributes(patch: Record<string, unknown>): Promise<Record<string, unknown>> {
  const server = await admin.get<{ attributes?: Record<string, unknown> } & Record<string, unknown>>('/api/server');
  const before = { ...(server.attributes ?? {}) };
  const attributes = { ...before };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete attributes[k];
    else attributes[k] = v;
  }
  await admin.put('/api/server', { ...server, attributes });
  return before;
}

test('with "show stops and events" on: the last 3 hours as a motion bar and the events, newest first', async ({ page }) => {
  const before = await setServerAttributes({ 'tarkan.enableStops': true, 'tarkan.enableEvents': true });
  try {
    const device = await admin.createDevice({ name: 'Caminhão Três Horas' });
    // Stopped 100 → 60 min ago, moving 60 → 20 min ago (ignition on, then an SOS), stopped since.
    await reportAt(device.uniqueId, 100 * 60, { speed: 0, motion: 'false', ignition: 'false' });
    await reportAt(device.uniqueId, 60 * 60, { speed: 30, motion: 'true', ignition: 'true' });
    await reportAt(device.uniqueId, 40 * 60, { speed: 35, motion: 'true', ignition: 'true', alarm: 'sos' });
    await reportAt(device.uniqueId, 20 * 60, { speed: 0, motion: 'false', ignition: 'true' });
    const panel = await openDetail(page, device);
    const motion = panel.getByTestId('device-motion');
    await expect(motion.getByRole('heading', { name: t('device.recent.motionTitle') })).toBeVisible();
    const kinds = () => motion.locator('.dd-motion-seg').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    await expect.poll(kinds).toEqual(['none', 'stopped', 'moving', 'stopped']);
    await expect(motion.locator('li[data-kind="moving"]')).toContainText(t('device.recent.minutes', { count: 40 }));
    const events = panel.getByTestId('device-events');
    await expect(events.getByRole('listitem').first()).toBeVisible();
    const labels = await events.getByRole('listitem').allInnerTexts();
    const sos = labels.findIndex((l) => l.includes(t('events.alarms.sos')));
    const ignitionOn = labels.findIndex((l) => l.includes(t('events.types.ignitionOn')));
    expect(sos).toBeGreaterThanOrEqual(0);
    expect(ignitionOn).toBeGreaterThan(sos);
    await motion.scrollIntoViewIfNeeded();
    await shot(page, 'device-detail-recent');
    await expectAccessible(page, 'device detail, last 3 hours');
  } finally {
    await setServerAttributes({ 'tarkan.enableStops': before['tarkan.enableStops'], 'tarkan.enableEvents': before['tarkan.enableEvents'] });
  }
});

test('without those options the sections stay off', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Sem Paradas' });
  await report(device.uniqueId, -23.5, -46.6);
  const panel = await openDetail(page, device);
  await expect(panel.getByTestId('device-position')).toBeVisible();
  await expect(panel.getByTestId('device-motion')).toHaveCount(0);
  await expect(panel.getByTestId('device-events')).toHaveCount(0);
});

test('share the Google Maps and Street View links (copied where there is no share sheet)', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.addInitScript(() => {
    Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
  });
  const device = await admin.createDevice({ name: 'Compartilhar Local' });
  await report(device.uniqueId, -23.5611, -46.6559);
  const panel = await openDetail(page, device);
  await panel.getByRole('button', { name: t('device.actions.openExternal') }).click();
  await page.getByRole('menuitem', { name: t('device.share.googleMaps') }).click();
  await expect(panel.getByTestId('device-notice')).toContainText(t('device.share.copied'));
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('query=-23.5611,-46.6559');
  await panel.getByRole('button', { name: t('device.actions.openExternal') }).click();
  await page.getByRole('menuitem', { name: t('device.share.streetView') }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain('viewpoint=-23.5611,-46.6559');
});

test('an administrator pins an attribute for everyone (server scope); another user sees it and cannot unpin it', async ({ page }) => {
  test.setTimeout(90_000);
  const before = await setServerAttributes({});
  const serverPins = async () => String((await admin.get<{ attributes: Record<string, unknown> }>('/api/server')).attributes['tarkan.deviceAttributes'] ?? '');
  const device = await admin.createDevice({ name: 'Fixado Servidor' });
  await report(device.uniqueId, -23.52, -46.61, { sat: 11, hdop: 0.9 });
  const password = 'pinned-pass';
  // This user reads speeds in knots (user attribute speedUnit).
  const viewer = await admin.createUser({ password, attributes: { speedUnit: 'kn' } });
  await admin.link({ userId: viewer.id, deviceId: device.id });
  try {
    const panel = await openDetail(page, device);
    const pinServer = async () => {
      const item = page.getByRole('menuitem', { name: t('device.attributes.pinServer') });
      await openMenu(panel.getByRole('button', { name: t('device.attributes.pin', { name: 'hdop' }) }), item);
      await item.click();
      await expect(panel.getByTestId('pinned-attributes')).toContainText('0.9');
      await expect.poll(serverPins).toContain('hdop');
    };
    await panel.getByRole('button', { name: t('device.attributes.showAll') }).click();
    await expect(panel.getByTestId('all-attributes')).toBeVisible();
    await pinServer();
    // Not in the administrator's own user list.
    const me = await admin.get<{ attributes: Record<string, unknown> }>(`/api/users/${admin.user.id}`);
    expect(String(me.attributes['tarkan.deviceAttributes'] ?? '')).not.toContain('hdop');
    // The administrator may unpin a server pin; pin it again for the other user.
    await panel.getByRole('button', { name: t('device.attributes.unpin', { name: 'hdop' }) }).click();
    await expect.poll(serverPins).not.toContain('hdop');
    await pinServer();

    await page.context().clearCookies();
    await signIn(page, viewer.email, password);
    await page.goto(`/devices/${device.id}`);
    const viewerPanel = page.getByTestId('screen-panel');
    await expect(viewerPanel.getByTestId('pinned-attributes')).toContainText('0.9', { timeout: 15_000 });
    await expect(viewerPanel.getByTestId('pinned-attributes')).toContainText('hdop');
    await expect(viewerPanel.getByRole('button', { name: t('device.attributes.unpin', { name: 'hdop' }) })).toHaveCount(0);
    await expect(viewerPanel.getByTestId('device-speed')).toContainText(`10 ${t('device.units.kn')}`);
  } finally {
    await setServerAttributes({ 'tarkan.deviceAttributes': before['tarkan.deviceAttributes'] });
  }
});

test('show only this device: every other marker leaves the map until the note over the map clears it', async ({ page }) => {
  const device = await admin.createDevice({ name: 'Só Este' });
  const other = await admin.createDevice({ name: 'Outro Qualquer' });
  await report(device.uniqueId, -23.5301, -46.6201);
  await report(other.uniqueId, -23.5311, -46.6211);
  const panel = await openDetail(page, device);
  // Whether the map draws a device's icon when looking closely (zoom 18, no clusters) at it.
  const drawn = (id: number, lat: number, lon: number) => page.evaluate(async ({ id, lat, lon }) => {
    const hook = (window as unknown as { __rastroMap: {
      map: { jumpTo(o: { center: [number, number]; zoom: number }): void }; idle(): Promise<void>; rendered(): { icons: number[] };
    } }).__rastroMap;
    hook.map.jumpTo({ center: [lon, lat], zoom: 18 });
    await hook.idle();
    return hook.rendered().icons.includes(id);
  }, { id, lat, lon });
  const both = async () => [await drawn(device.id, -23.5301, -46.6201), await drawn(other.id, -23.5311, -46.6211)];
  await page.evaluate(() => localStorage.setItem('rastro.testHooks', '1'));
  await page.reload();
  await expect(panel.getByRole('heading', { name: device.name })).toBeVisible({ timeout: 15_000 });
  await expect.poll(both, { timeout: 15_000 }).toEqual([true, true]);
  const only = panel.getByRole('button', { name: t('device.actions.onlyThis') });
  await expect(only).toHaveAttribute('aria-pressed', 'false');
  await only.click();
  await expect(only).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(both, { timeout: 10_000 }).toEqual([true, false]);
  const hint = page.getByTestId('map-filter-hint');
  await expect(hint).toContainText(new RegExp(t('devices.mapHint.text').replace('{{shown}}', '1').replace('{{total}}', '\\d+')));
  await hint.getByRole('button', { name: t('devices.mapHint.clearLabel') }).click();
  await expect(only).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(both, { timeout: 10_000 }).toEqual([true, true]);
});
