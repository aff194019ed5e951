// Password recovery end to end (spec §5, §7): the request form mails a link through the local
// SMTP server; the link's screen sets a new password that then signs in.
import { expect, test } from '@playwright/test';
import { Api, uniqueSuffix } from '../support/api.ts';
import { waitForMail } from '../support/mail.ts';
import { fill, pt } from '../support/texts.ts';
import { fillLogin } from '../support/ui.ts';

test('lost password → e-mail with a link → new password → sign in with it', async ({ page }) => {
  const admin = await Api.admin();
  const email = `recover-${uniqueSuffix()}@example.com`;
  await admin.createUser({ name: 'Rita Recupera', email, password: 'old-pass' });
  await admin.dispose();

  await page.goto('/login');
  await page.getByLabel(pt.login!.username!).fill(email);
  await page.getByRole('link', { name: pt.login!.lostPassword! }).click();
  await expect(page).toHaveURL(new RegExp(`/login/recover\\?user=${encodeURIComponent(email)}$`));
  await expect(page.getByLabel(pt.recover!.email!)).toHaveValue(email);

  // An empty e-mail is refused before asking the server.
  await page.getByLabel(pt.recover!.email!).fill('');
  await page.getByRole('button', { name: pt.recover!.send! }).click();
  await expect(page.getByRole('alert')).toHaveText(pt.errors!.FILL_EMAIL_FIELD!);

  await page.getByLabel(pt.recover!.email!).fill(email);
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/session/password') && r.method() === 'POST');
  await page.getByRole('button', { name: pt.recover!.send! }).click();
  const body = new URLSearchParams((await sent).postData() ?? '');
  expect(body.get('email')).toBe(email);
  expect(body.get('requested_from')).toBe(new URL(page.url()).origin);
  await expect(page.getByRole('status')).toHaveText(fill(pt.recover!.sent, { email }));

  const mail = await waitForMail(email);
  const link = /https?:\/\/[^\s"'<>]+\/login\/recover\/[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
  expect(link, mail.text).toBeTruthy();
  expect(new URL(link!).origin).toBe(new URL(page.url()).origin);

  await page.goto(link!);
  await expect(page.getByRole('heading', { name: pt.recover!.resetTitle! })).toBeVisible();
  // Too short, then not matching.
  await page.getByLabel(pt.recover!.newPassword!, { exact: true }).fill('abc');
  await page.getByRole('button', { name: pt.recover!.save! }).click();
  await expect(page.getByText(fill(pt.forms!.passwordShort, { min: 4 }))).toBeVisible();
  await page.getByLabel(pt.recover!.newPassword!, { exact: true }).fill('brand-new-pass');
  await page.getByLabel(pt.recover!.confirmPassword!).fill('brand-new-typo');
  await page.getByRole('button', { name: pt.recover!.save! }).click();
  await expect(page.getByText(pt.forms!.passwordMismatch!)).toBeVisible();
  await page.getByLabel(pt.recover!.confirmPassword!).fill('brand-new-pass');
  await page.getByRole('button', { name: pt.recover!.save! }).click();
  await expect(page.getByRole('status')).toHaveText(pt.recover!.changed!);

  // The link works once.
  await page.goto(link!);
  await page.getByLabel(pt.recover!.newPassword!, { exact: true }).fill('another-pass');
  await page.getByLabel(pt.recover!.confirmPassword!).fill('another-pass');
  await page.getByRole('button', { name: pt.recover!.save! }).click();
  await expect(page.getByRole('alert')).toContainText(pt.recover!.linkInvalid!);

  await page.goto('/login');
  await fillLogin(page, email, 'old-pass');
  await expect(page.getByRole('alert')).toHaveText(pt.errors!.HTTP_401_UNAUTHORIZED!);
  await fillLogin(page, email, 'brand-new-pass');
  await expect(page).toHaveURL(/\/home$/);
});
