// The signed-in shell (spec §1, §2 "Menus", §6, §9): desktop and 390 px layouts, menus for an
// administrator and for a shared user, the header (local time, weather shown or hidden, mute
// persisted as a real boolean), QR drivers kept out, and no serious accessibility issue.
import { expect, test, type Page } from '@playwright/test';
import { Api, uniqueSuffix } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { shot } from '../support/shots.ts';
import { fill, pt } from '../support/texts.ts';
import { expectNoHorizontalScroll, fillLogin, signIn } from '../support/ui.ts';

const menu = pt.menu as unknown as { user: Record<string, string>; side: Record<string, string>; about: string };
const shell = pt.shell as Record<string, string>;
const header = pt.header as Record<string, string>;

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('rastro.testHooks', '1'));
});

/** Waits for the map to settle (loaded, then drawn) so screenshots show the resting shell. */
async function mapReady(page: Page) {
  await expect(page.getByTestId('map')).toHaveAttribute('data-state', 'ready', { timeout: 15_000 });
  await page.evaluate(() => (window as unknown as { __rastroMap?: { idle(): Promise<void> } }).__rastroMap?.idle());
}

/** The weather call's answer (the server cannot reach the providers from the test machine). */
function weatherAnswer(page: Page) {
  return page.waitForResponse((r) => new URL(r.url()).pathname === '/tarkan/weather', { timeout: 15_000 });
}

async function openUserMenu(page: Page) {
  await page.getByTestId('user-menu-button').click();
  const dropdown = page.getByTestId('user-menu');
  await expect(dropdown).toBeVisible();
  return dropdown;
}

async function sharedVisitor(): Promise<{ token: string; deviceId: number }> {
  const admin = await Api.admin();
  const device = await admin.createDevice({ name: 'Van da visita' });
  const password = `visit-${uniqueSuffix()}`;
  const visitor = await admin.createUser({
    name: 'Visitante do mapa',
    email: `visit-${uniqueSuffix()}`,
    password,
    expirationTime: new Date(Date.now() + 3 * 3_600_000).toISOString(),
    attributes: { isShared: admin.user.id, deviceId: device.id },
  });
  await admin.link({ userId: visitor.id, deviceId: device.id });
  const asVisitor = await Api.login(visitor.email, password);
  const token = await asVisitor.token();
  await asVisitor.dispose();
  await admin.dispose();
  return { token, deviceId: device.id };
}

test.describe('desktop 1280 px', () => {
  test('admin shell: header, side menu, map; weather hidden offline; accessible', async ({ page }) => {
    const weather = weatherAnswer(page);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await expect(page.getByTestId('shell')).toHaveClass(/is-desktop/);
    const banner = page.getByRole('banner');
    await expect(banner.getByRole('link', { name: pt.app!.name! })).toBeVisible();
    const nav = page.getByRole('navigation', { name: shell.navigation });
    await expect(nav).toBeVisible();
    await expect(nav.getByRole('link', { name: shell.home })).toHaveAttribute('aria-current', 'page');
    await expect(nav).toContainText(fill(shell.version, { version: '2.0.1' }));
    await expect(page.getByRole('region', { name: pt.map!.label! })).toBeVisible();
    await expect(page.getByRole('region', { name: pt.map!.label! })).toHaveJSProperty('tagName', 'CANVAS');
    // Local time, hh:mm in 24-hour pt-BR.
    await expect(page.getByTestId('header-clock')).toHaveText(new RegExp(`${header.localTime}\\s*\\d{2}:\\d{2}$`));
    const now = new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit', timeZone: 'America/Sao_Paulo' }).format(new Date());
    const shown = (await page.getByTestId('header-clock').textContent())!.slice(-5);
    const minutes = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3));
    expect(Math.abs(minutes(shown) - minutes(now)) % 1438).toBeLessThanOrEqual(1);
    // No internet here: the server answers 503 (or 204) and the widget stays hidden.
    expect([204, 503]).toContain((await weather).status());
    await expect(page.getByTestId('header-weather')).toHaveCount(0);
    await expect(banner.getByText('Administrator')).toBeVisible();
    await mapReady(page);
    await expectAccessible(page, 'shell desktop');
    await shot(page, 'shell-home');
  });

  test('shows the weather from /tarkan/weather with its icon, temperature and city', async ({ page }) => {
    await page.route('**/tarkan/weather', (route) =>
      route.fulfill({ json: { temperature: 18.4, weatherCode: 2, isDay: true, city: 'São Paulo', timezone: 'America/Sao_Paulo' } }),
    );
    await signIn(page, 'admin', ADMIN_PASSWORD);
    const widget = page.getByTestId('header-weather');
    await expect(widget).toBeVisible();
    await expect(widget).toContainText('18 °C');
    await expect(widget).toContainText('São Paulo');
    await expect(widget).toHaveAttribute('title', fill(pt.weather!.summaryIn!, { temperature: '18 °C', description: pt.weather!.partlyCloudy!, city: 'São Paulo' }));
    await expect(widget.locator('svg[data-icon="partly-day"]')).toHaveCount(1);
    await mapReady(page);
    await expectAccessible(page, 'shell with weather');
    await shot(page, 'shell-weather');
  });

  test('admin user menu: the entries whose screens exist, in the spec\'s order, and the about line', async ({ page }) => {
    await signIn(page, 'admin', ADMIN_PASSWORD);
    const server = (await (await page.request.get('/api/server')).json()) as { version: string };
    const dropdown = await openUserMenu(page);
    await expect(dropdown.getByRole('menuitem')).toHaveText([menu.user.account!, menu.user.logs!, menu.user.users!, menu.user.server!, menu.user.calendars!, menu.user.reseller!, menu.user.logout!]);
    await expect(page.getByTestId('about-line')).toHaveText(fill(menu.about, { version: '2.0.1', server: server.version }));
    await expect(dropdown).toContainText('Administrator');
    await expectAccessible(page, 'user menu');
    await shot(page, 'shell-user-menu');
    await page.keyboard.press('Escape');
    await expect(dropdown).toBeHidden();
    // Keyboard: Enter opens it, the arrow moves to the first entry.
    await page.getByTestId('user-menu-button').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('user-menu')).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('user-menu').locator('[role="menuitem"]:focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('user-menu-button')).toBeFocused();
    // Sign-out from the menu ends the session.
    await (await openUserMenu(page)).getByRole('menuitem', { name: menu.user.logout }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the about line follows the language: 1.12.7 in English, 1.14.0 in Spanish', async ({ page }) => {
    const admin = await Api.admin();
    const password = `lang-${uniqueSuffix()}`;
    const english = await admin.createUser({ password, attributes: { 'tarkan.lang': 'en' } });
    const spanish = await admin.createUser({ password, attributes: { 'tarkan.lang': 'es' } });
    await admin.dispose();
    for (const [user, version] of [[english, '1.12.7'], [spanish, '1.14.0']] as const) {
      await page.goto('/login');
      await fillLogin(page, user.email, password);
      await expect(page.getByTestId('shell')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', user === english ? 'en' : 'es');
      await openUserMenu(page);
      await expect(page.getByTestId('about-line')).toContainText(version);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: user === english ? 'Sign out' : 'Salir' }).first().click();
      await expect(page).toHaveURL(/\/login$/);
    }
  });

  test('mute toggle persists across a reload as a real boolean', async ({ page }) => {
    await signIn(page, 'admin', ADMIN_PASSWORD);
    const toggle = page.getByRole('button', { name: header.mute });
    await expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-pressed', 'true');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('isMuted') ?? 'null'))).toBe(true);
    await page.reload();
    await expect(page.getByRole('button', { name: header.mute })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: header.mute }).click();
    expect(await page.evaluate(() => localStorage.getItem('isMuted'))).toBe('false');
    await page.reload();
    await expect(page.getByRole('button', { name: header.mute })).toHaveAttribute('aria-pressed', 'false');
    // A legacy string "false" does not count as muted.
    await page.evaluate(() => localStorage.setItem('isMuted', '"false"'));
    await page.reload();
    await expect(page.getByRole('button', { name: header.mute })).toHaveAttribute('aria-pressed', 'false');
  });

  test('shared user: no side menu, full-width map, countdown instead of the name, user menu = sign-out only', async ({ page }) => {
    const { token, deviceId } = await sharedVisitor();
    await page.goto(`/share/${token}`);
    await expect(page).toHaveURL(new RegExp(`/devices/${deviceId}$`));
    await expect(page.getByTestId('shell')).toHaveClass(/is-shared/);
    await expect(page.getByRole('navigation')).toHaveCount(0);
    await expect(page.getByTestId('share-countdown')).toContainText(/3 horas|180 minutos/);
    await expect(page.getByRole('banner').getByText('Visitante do mapa')).toHaveCount(0);
    const main = await page.getByRole('main').boundingBox();
    expect(main!.x).toBe(0);
    expect(main!.width).toBe(1280);
    const dropdown = await openUserMenu(page);
    await expect(dropdown.getByRole('menuitem')).toHaveText([menu.user.logout!]);
    await expect(dropdown).toContainText((pt.menu as Record<string, unknown>).sharedAccess as string);
    await page.keyboard.press('Escape');
    await mapReady(page);
    await expectAccessible(page, 'shared shell');
    await shot(page, 'shell-shared');
  });

  test('QR drivers never see the shell: any session route sends them to /qr-driver', async ({ page }) => {
    const admin = await Api.admin();
    const login = `joao${uniqueSuffix()}`;
    await admin.createUser({ name: 'João Motorista', email: `qrcode-${login}`, password: 'driver-pass', attributes: { 'tarkan.isQrDriverId': 'J-1' } });
    await admin.dispose();
    await page.goto('/motorista');
    await page.getByLabel(pt.login!.driverName!).fill(login);
    await page.getByLabel(pt.login!.password!, { exact: true }).fill('driver-pass');
    await page.getByRole('button', { name: pt.login!.signIn! }).click();
    await expect(page).toHaveURL(/\/qr-driver$/);
    for (const path of ['/home', '/devices', '/reports/stops']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/qr-driver$/);
      await expect(page.getByTestId('shell')).toHaveCount(0);
    }
  });
});

test.describe('mobile 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('admin shell: header, bottom navigation, map; fits the screen; accessible', async ({ page }) => {
    const weather = weatherAnswer(page);
    await signIn(page, 'admin', ADMIN_PASSWORD);
    await expect(page.getByTestId('shell')).toHaveClass(/is-mobile/);
    await expect(page.getByTestId('side-menu')).toHaveCount(0);
    const bottom = page.getByRole('navigation', { name: shell.bottomNavigation });
    await expect(bottom).toBeVisible();
    await expect(bottom.getByRole('link', { name: shell.home })).toHaveAttribute('aria-current', 'page');
    const bar = await bottom.boundingBox();
    expect(bar!.y + bar!.height).toBeLessThanOrEqual(844);
    expect(bar!.y + bar!.height).toBeGreaterThan(800);
    await expect(page.getByTestId('header-clock')).toBeVisible();
    expect([204, 503]).toContain((await weather).status());
    await expect(page.getByTestId('header-weather')).toHaveCount(0);
    // Touch targets of the header are at least 38 px.
    for (const name of [header.mute, pt.session!.logout!]) {
      const box = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(box!.height, name).toBeGreaterThanOrEqual(38);
    }
    await expectNoHorizontalScroll(page);
    await mapReady(page);
    await expectAccessible(page, 'shell mobile');
    await shot(page, 'shell-home');
    await openUserMenu(page);
    await shot(page, 'shell-user-menu');
  });

  test('mobile header with weather and a shared countdown fits without overflow', async ({ page }) => {
    await page.route('**/tarkan/weather', (route) =>
      route.fulfill({ json: { temperature: -3.6, weatherCode: 73, isDay: false, city: 'Bariloche', timezone: 'America/Argentina/Salta' } }),
    );
    const { token } = await sharedVisitor();
    await page.goto(`/share/${token}`);
    await expect(page.getByTestId('share-countdown')).toBeVisible();
    await expect(page.getByTestId('header-weather')).toContainText('-4 °C');
    await expect(page.getByTestId('bottom-nav')).toHaveCount(0);
    const headerBox = await page.getByRole('banner').boundingBox();
    for (const id of ['header-weather', 'header-clock', 'share-countdown', 'user-menu-button']) {
      const box = await page.getByTestId(id).boundingBox();
      expect(box!.x + box!.width, id).toBeLessThanOrEqual(headerBox!.width);
      expect(box!.y, id).toBeGreaterThanOrEqual(headerBox!.y);
    }
    await expectNoHorizontalScroll(page);
    await mapReady(page);
    await expectAccessible(page, 'shared mobile shell');
    await shot(page, 'shell-shared');
  });
});
