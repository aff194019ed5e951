// The interface texts are split into namespaces, one JSON file per language and namespace
// (`locales/<language>/<namespace>.json`), so a screen brings its own texts and the login
// screen carries only `core`. Each file's top-level keys are the key prefixes it owns
// (`reports.json` holds `reports.*`), and every file is merged into i18next's one
// `translation` namespace: call sites keep writing `t('reports.title')` whatever file the
// text lives in. A screen declares what it needs with `withTexts` (routes) or `useTexts`
// (dialogs opened from anywhere); `core` is always loaded first.
import i18next from './translator.ts';
import { use } from 'react';
import { FALLBACK_LANGUAGE, normalizeLanguage, type Language } from '@rastro/domain/language';

type Messages = Record<string, unknown>;

/** Every namespace file, fetched only when asked for (one chunk each). */
const files = import.meta.glob<Messages>('./locales/*/*.json', { import: 'default' });

/** The namespaces that exist (read off the `en` folder; the locales test keeps the others equal). */
export const NAMESPACES = Object.keys(files)
  .filter((p) => p.startsWith('./locales/en/'))
  .map((p) => p.slice('./locales/en/'.length, -'.json'.length));

export type Namespace = string;

const pending = new Map<string, Promise<void>>();

function loadOne(language: Language, namespace: Namespace): Promise<void> {
  const key = `${language}/${namespace}`;
  let promise = pending.get(key);
  if (!promise) {
    const file = files[`./locales/${key}.json`];
    if (!file) throw new Error(`no texts for ${key}`);
    promise = file().then((messages) => {
      i18next.addResourceBundle(language, 'translation', messages);
    });
    // A failed fetch (offline) may be retried by the next screen that asks.
    promise.catch(() => pending.delete(key));
    pending.set(key, promise);
  }
  return promise;
}

/** Namespaces asked for so far: a language switch loads all of them in the new language. */
const wanted = new Set<Namespace>(['core']);

/** Loads namespaces in the active language (and remembers them for later language switches). */
export async function loadTexts(namespaces: readonly Namespace[], language?: Language): Promise<void> {
  for (const n of namespaces) wanted.add(n);
  // Before initI18n (unit tests that render without texts) there is no store to fill yet;
  // initI18n loads `core` and later switches load everything wanted.
  if (!i18next.isInitialized && !language) return;
  const lang = language ?? normalizeLanguage(i18next.language) ?? FALLBACK_LANGUAGE;
  await Promise.all(namespaces.map((n) => loadOne(lang, n)));
}

/** Everything asked for so far, in another language (before switching to it). */
export function loadWantedTexts(language: Language): Promise<void> {
  return Promise.all([...wanted].map((n) => loadOne(language, n))).then(() => undefined);
}

/** A route's `lazy` that also brings the screen's texts (fetched in parallel with its code). */
export function withTexts<T>(namespaces: readonly Namespace[], load: () => Promise<T>): () => Promise<T> {
  return async () => (await Promise.all([load(), loadTexts(namespaces)]))[0];
}

const ready = new Map<string, Promise<void>>();

/**
 * For components mounted outside a route (dialogs): suspends until the namespaces are loaded
 * in the active language. Wrap the component in a Suspense boundary.
 */
export function useTexts(...namespaces: Namespace[]): void {
  const key = `${i18next.language}:${namespaces.join(',')}`;
  let promise = ready.get(key);
  if (!promise) {
    promise = loadTexts(namespaces);
    ready.set(key, promise);
    promise.catch(() => ready.delete(key));
  }
  use(promise);
}
