// Registration (spec §2, §5): refused with REGISTRATION_DISABLED while the server does not
// allow it; once allowed, the form checks its fields, creates the account and signs in.
import { expect, test } from '@playwright/test';
import { Api, uniqueSuffix } from '../support/api.ts';
import { fill, pt } from '../support/texts.ts';

test('registration: disabled, then allowed, validated, created and signed in', async ({ page }) => {
  const admin = await Api.admin();
  const email = `new-${uniqueSuffix()}@example.com`;
  const fillForm = async (name: string, mail: string, password: string, confirm: string) => {
    await page.getByLabel(pt.register!.name!).fill(name);
    await page.getByLabel(pt.register!.email!).fill(mail);
    await page.getByLabel(pt.register!.password!, { exact: true }).fill(password);
    await page.getByLabel(pt.register!.confirmPassword!).fill(confirm);
    await page.getByRole('button', { name: pt.register!.submit! }).click();
  };
  try {
    await admin.setRegistration(false);
    await page.goto('/login');
    await expect(page.getByRole('button', { name: pt.login!.signIn! })).toBeVisible();
    await expect(page.getByRole('link', { name: pt.login!.register! })).toHaveCount(0);

    await page.goto('/register');
    await fillForm('Nova Pessoa', email, 'nova-pass', 'nova-pass');
    await expect(page.getByRole('alert')).toHaveText(pt.errors!.REGISTRATION_DISABLED!);

    await admin.setRegistration(true);
    await page.goto('/login');
    await page.getByRole('link', { name: pt.login!.register! }).click();
    await expect(page).toHaveURL(/\/register$/);

    await fillForm('No', 'abc', 'abc', 'abd');
    await expect(page.getByText(fill(pt.forms!.nameShort, { min: 3 }))).toBeVisible();
    await expect(page.getByText(fill(pt.forms!.emailShort, { min: 4 }))).toBeVisible();
    await expect(page.getByText(fill(pt.forms!.passwordShort, { min: 4 }))).toBeVisible();
    await expect(page.getByText(pt.forms!.passwordMismatch!)).toBeVisible();

    await fillForm('Nova Pessoa', email, 'nova-pass', 'nova-pass');
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByText('Nova Pessoa')).toBeVisible();

    // The same e-mail again is refused in words.
    await page.getByRole('button', { name: pt.session!.logout! }).first().click();
    // Let the app's own redirect after sign-out finish before navigating on.
    await expect(page).toHaveURL(/\/login(\?.*)?$/);
    await page.goto('/register');
    await fillForm('Outra Pessoa', email, 'nova-pass', 'nova-pass');
    await expect(page.getByRole('alert')).toHaveText(pt.errors!.DUPLICATE_EMAIL!);
  } finally {
    await admin.setRegistration(false);
    await admin.dispose();
  }
});
