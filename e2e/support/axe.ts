// Accessibility check with axe-core, injected into the page: no serious or critical issue.
import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { repoRoot } from './env.ts';

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

export async function expectAccessible(page: Page, label: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    // Evaluated through the DevTools protocol, which the page's Content-Security-Policy does not
    // govern: an inline <script> (addScriptTag) is refused by script-src 'self'.
    await page.evaluate(fs.readFileSync(path.join(repoRoot, 'node_modules/axe-core/axe.min.js'), 'utf8'));
  }
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target) }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `${label}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}
