// What global-setup.ts started, as the tests see it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ADMIN_PASSWORD = 'e2e-admin-pass';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through e2e/playwright.config.ts (its global setup starts the server)`);
  return value;
}

export const env = {
  get baseUrl() {
    return required('E2E_BASE_URL');
  },
  get mailDir() {
    return required('E2E_MAIL_DIR');
  },
  get webRoot() {
    return required('E2E_WEB_ROOT');
  },
  /** The server's OsmAnd device port (tests post positions to it). */
  get osmandPort() {
    return Number(required('E2E_OSMAND_PORT'));
  },
  /** The server's GT06 tracker port (tests send raw frames to it). */
  get gt06Port() {
    return Number(required('E2E_GT06_PORT'));
  },
};

export const screenshotsDir = path.join(repoRoot, 'e2e/screenshots');
