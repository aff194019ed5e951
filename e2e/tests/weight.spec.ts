// Weight of the login screen (issue budget: ≤ 120 KB gzip of JS + CSS), measured on what the real
// page downloads: every script and stylesheet response, gzipped here.
import zlib from 'node:zlib';
import { expect, test } from '@playwright/test';
import { pt } from '../support/texts.ts';

const BUDGET = 120 * 1024;

test('the login screen loads at most 120 KB of gzipped JS + CSS', async ({ page }) => {
  const sizes: Array<{ url: string; gzip: number }> = [];
  const pending: Array<Promise<void>> = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      response.body().then((body) => {
        sizes.push({ url: new URL(response.url()).pathname, gzip: zlib.gzipSync(body, { level: 9 }).length });
      }),
    );
  });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: pt.login!.signIn! })).toBeVisible();
  await page.waitForLoadState('networkidle');
  await Promise.all(pending);
  const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
  const listing = sizes.map((s) => `${(s.gzip / 1024).toFixed(1).padStart(7)} KB  ${s.url}`).join('\n');
  console.log(`login screen: ${(total / 1024).toFixed(1)} KB gzip in ${sizes.length} files\n${listing}`);
  expect(sizes.some((s) => s.url.includes('login-page'))).toBe(true);
  expect(total, listing).toBeLessThanOrEqual(BUDGET);
});
