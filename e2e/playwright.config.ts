// Browser tests of the whole system: Debian Chromium against the real server (started by
// global-setup.ts on free ports with a fresh SQLite database and a local SMTP server).
// `npm test` runs this with its JSON reporter; `npx playwright test -c e2e/playwright.config.ts`
// runs it alone. One worker: the machine has 2 cores and the tests share one server.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: './tests',
  // Another run in the same checkout (several people work here) can point elsewhere.
  outputDir: process.env.E2E_OUTPUT_DIR ?? './test-results',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  // CI machines are small and shared; one retry absorbs a timing hiccup, and the summary still
  // names every flaky test so it gets fixed.
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    // Set by global-setup.ts; workers inherit it.
    baseURL: process.env.E2E_BASE_URL,
    viewport: { width: 1280, height: 800 },
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    // Tests route and watch the page's own requests; the PWA test turns workers back on.
    serviceWorkers: 'block',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--enable-unsafe-swiftshader',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
});
