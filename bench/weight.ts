// Login screen weight: gzip size of the JS + CSS the login page loads (budget 120 KB).
//
// Builds the web client into a temporary folder with Vite's manifest, then follows it: the
// entry (index.html) with its static imports and CSS, the login route's chunk with its static
// imports and CSS, and the active language's texts. Files fetched after the page's load event
// (the offline worker's registration) are listed apart. Gzip level 9, as the e2e check
// (e2e/tests/weight.spec.ts), which measures the same thing from the real page's network log.
// Options: --lang pt-BR|es|en (default pt-BR), --keep (leave the build folder).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const BUDGET_KB = 120;
/** traccar-web's login screen as reported for this comparison (JS + CSS, gzip). */
const TRACCAR_WEB_KB = 535;

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const web = path.join(root, 'apps/web');
const lang = arg('lang', 'pt-BR');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-weight-'));

const started = Date.now();
const build = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', out, '--emptyOutDir', '--manifest', '--logLevel', 'warn'],
  { cwd: web, stdio: 'inherit' },
);
if (build.status !== 0) {
  console.error(`vite build failed (exit ${build.status})`);
  process.exit(1);
}
const buildSeconds = (Date.now() - started) / 1000;
const manifest = JSON.parse(fs.readFileSync(path.join(out, '.vite/manifest.json'), 'utf8')) as Manifest;

/** The chunk and everything it imports statically, with their CSS. */
function closure(key: string, files: Set<string>, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return files;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) throw new Error(`not in the build manifest: ${key}`);
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const imported of chunk.imports ?? []) closure(imported, files, seen);
  return files;
}

const entryKey = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
if (!entryKey) throw new Error('no entry in the build manifest');
const firstScreen = closure(entryKey, new Set());
closure('src/features/auth/login-page.tsx', firstScreen);
closure(`src/i18n/locales/${lang}/core.json`, firstScreen);

const afterLoad = new Set<string>();
for (const key of Object.keys(manifest)) {
  if (/pwa-register|workbox-window/.test(key)) closure(key, afterLoad);
}
for (const file of firstScreen) afterLoad.delete(file);

const gzip = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(out, file)), { level: 9 }).length;
const raw = (file: string) => fs.statSync(path.join(out, file)).size;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

function table(title: string, files: Set<string>): number {
  let total = 0;
  console.log(title);
  for (const file of [...files].sort((a, b) => gzip(b) - gzip(a))) {
    const size = gzip(file);
    total += size;
    console.log(`  ${kb(size).padStart(9)} gzip  ${kb(raw(file)).padStart(9)} raw  ${file}`);
  }
  return total;
}

console.log(`\nLogin screen weight (${lang}; build ${buildSeconds.toFixed(1)} s)\n`);
const total = table('Loaded before the login screen shows:', firstScreen);
const later = table('\nLoaded after the page load event (offline worker registration):', afterLoad);
console.log('');
console.log(`login screen JS + CSS (gzip): ${kb(total)}   budget ${BUDGET_KB} KB   ${total <= BUDGET_KB * 1024 ? 'OK' : 'OVER BUDGET'}`);
console.log(`with the worker registration:  ${kb(total + later)}`);
console.log(`traccar-web login screen:      ~${TRACCAR_WEB_KB} KB   (Rastro is ${((TRACCAR_WEB_KB * 1024) / total).toFixed(1)}× lighter)`);

if (process.argv.includes('--keep')) console.log(`build kept in ${out}`);
else fs.rmSync(out, { recursive: true, force: true });
process.exitCode = total + later <= BUDGET_KB * 1024 ? 0 : 1;
