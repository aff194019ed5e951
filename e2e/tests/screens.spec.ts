// Every screen of this issue at 1280×800 and 390×844: a screenshot into e2e/screenshots/ and,
// for the public ones (and the driver's), an axe-core check with no serious or critical issue.
import { expect, test, type Page } from '@playwright/test';
import { Api, uniqueSuffix } from '../support/api.ts';
import { expectAccessible } from '../support/axe.ts';
import { ADMIN_PASSWORD } from '../support/env.ts';
import { shot } from '../support/shots.ts';
import { pt } from '../support/texts.ts';
import { expectNoHorizontalScroll, fillLogin } from '../support/ui.ts';

interface Screen {
  name: string;
  open(page: Page): Promise<void>;
  /** Signed-in screens that belong to the shell are checked by its own tests. */
  axe?: boolean;
}

let driver: { login: string; password: string } | null = null;
async function driverAccount() {
  if (driver) return driver;
  const admin = await Api.admin();
  const login = `maria${uniqueSuffix()}`;
  await admin.createUser({ name: 'Maria Silva', email: `qrcode-${login}`, password: 'driver-pass', attributes: { 'tarkan.isQrDriverId': 'M-1' } });
  await admin.dispose();
  driver = { login, password: 'driver-pass' };
  return driver;
}

const screens: Screen[] = [
  {
    name: 'login',
    open: async (page) => {
      await page.goto('/login');
      await expect(page.getByRole('button', { name: pt.login!.signIn! })).toBeVisible();
    },
  },
  {
    name: 'login-error',
    open: async (page) => {
      await page.goto('/login');
      await page.getByRole('button', { name: pt.login!.signIn! }).click();
      await expect(page.getByRole('alert')).toBeVisible();
    },
  },
  {
    name: 'login-es',
    open: async (page) => {
      await page.goto('/login?locale=es');
      await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    },
  },
  {
    name: 'driver-login',
    open: async (page) => {
      await page.goto('/motorista');
      await expect(page.getByRole('heading', { name: pt.login!.driverTitle! })).toBeVisible();
    },
  },
  {
    name: 'share-waiting',
    open: async (page) => {
      // Hold the token login so the waiting state stays on screen.
      await page.route('**/api/session?token=*', () => undefined);
      await page.goto('/share/some-token');
      await expect(page.getByText(pt.login!.accessingShare!)).toBeVisible();
    },
  },
  {
    name: 'share-invalid',
    open: async (page) => {
      await page.goto('/share/expired-token');
      await expect(page.getByRole('alert')).toHaveText(pt.errors!.INVALID_SHARE!);
    },
  },
  {
    name: 'register',
    open: async (page) => {
      await page.goto('/register');
      await expect(page.getByRole('heading', { name: pt.register!.title! })).toBeVisible();
    },
  },
  {
    name: 'register-errors',
    open: async (page) => {
      await page.goto('/register');
      await page.getByRole('button', { name: pt.register!.submit! }).click();
      await expect(page.getByText(pt.forms!.nameRequired!)).toBeVisible();
    },
  },
  {
    name: 'recover-request',
    open: async (page) => {
      await page.goto('/login/recover?user=ana%40example.com');
      await expect(page.getByRole('button', { name: pt.recover!.send! })).toBeVisible();
    },
  },
  {
    name: 'recover-sent',
    open: async (page) => {
      await page.goto('/login/recover?user=nobody%40example.com');
      await page.getByRole('button', { name: pt.recover!.send! }).click();
      await expect(page.getByRole('status')).toBeVisible();
    },
  },
  {
    name: 'recover-reset',
    open: async (page) => {
      await page.goto('/login/recover/some-token');
      await expect(page.getByRole('heading', { name: pt.recover!.resetTitle! })).toBeVisible();
    },
  },
  {
    name: 'recover-reset-invalid',
    open: async (page) => {
      await page.goto('/login/recover/some-token');
      await page.getByLabel(pt.recover!.newPassword!, { exact: true }).fill('new-pass');
      await page.getByLabel(pt.recover!.confirmPassword!).fill('new-pass');
      await page.getByRole('button', { name: pt.recover!.save! }).click();
      await expect(page.getByRole('alert')).toContainText(pt.recover!.linkInvalid!);
    },
  },
  {
    name: 'maintenance',
    open: async (page) => {
      await page.route('**/api/server', (route) => route.abort('connectionrefused'));
      await page.goto('/home');
      await expect(page).toHaveURL(/\/maintenance/);
      await expect(page.getByRole('status')).toBeVisible();
    },
  },
  {
    name: 'load-error',
    open: async (page) => {
      // A screen's chunk that cannot be fetched (e.g. an old tab after a deploy).
      await page.route('**/assets/register-page-*.js', (route) => route.abort('connectionrefused'));
      await page.goto('/register');
      await expect(page.getByRole('button', { name: pt.app!.reload! })).toBeVisible();
    },
  },
  {
    name: 'qr-driver',
    open: async (page) => {
      const account = await driverAccount();
      await page.goto('/motorista');
      await fillLogin(page, account.login, account.password, { driver: true });
      await expect(page.getByText(pt.qrDriver!.notCheckedIn!)).toBeVisible();
    },
  },
  {
    name: 'home',
    axe: false,
    open: async (page) => {
      await page.goto('/login');
      await fillLogin(page, 'admin', ADMIN_PASSWORD);
      await expect(page.getByRole('button', { name: pt.session!.logout! })).toBeVisible();
      // The shell's own tests look at the map; here it only has to have finished loading.
      if (pt.map?.loading) await expect(page.getByText(pt.map.loading)).toHaveCount(0, { timeout: 20_000 });
    },
  },
];

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test.describe(`${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport });
    for (const screen of screens) {
      test(screen.name, async ({ page }) => {
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        await screen.open(page);
        await shot(page, screen.name);
        await expectNoHorizontalScroll(page);
        if (screen.axe !== false) await expectAccessible(page, screen.name);
        expect(errors).toEqual([]);
      });
    }
  });
}
