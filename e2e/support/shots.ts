// Screenshots kept as test artifacts (e2e/screenshots/, not committed).
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { screenshotsDir } from './env.ts';

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const size = page.viewportSize();
  const suffix = size && size.width < 768 ? 'mobile' : 'desktop';
  // Let fonts and transitions settle so the picture shows the resting screen.
  await page.evaluate(() => document.fonts?.ready);
  await page.screenshot({ path: path.join(screenshotsDir, `${name}-${suffix}.png`), animations: 'disabled' });
}
