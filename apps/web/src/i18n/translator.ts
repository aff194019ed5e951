// The texts engine: what the client needs of an i18n library and nothing more, so the login
// screen does not carry one (i18next + react-i18next weighed 18 KB gzip of a 120 KB budget).
// Supports what our locale files use: nested keys, `{{name}}` interpolation (no escaping —
// React escapes), plurals through `count` with the `_one` / `_other` (CLDR category) suffixes,
// `defaultValue`, a list of keys tried in order, and a fallback language. The API mirrors the
// usual i18next shape (`t`, `language`, `changeLanguage`, `addResourceBundle`, `exists`) so
// call sites read as they would with that library.

type Messages = { [key: string]: unknown };

export interface TOptions {
  count?: number;
  defaultValue?: string;
  [value: string]: unknown;
}

export type TFunction = (key: string | readonly string[], options?: TOptions) => string;

interface InitOptions {
  lng: string;
  fallbackLng?: string;
  resources?: Record<string, { translation: Messages }>;
}

type Listener = () => void;

function isObject(value: unknown): value is Messages {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep merge of `source` into `target` (later files add keys, overwrite equal ones). */
function merge(target: Messages, source: Messages): void {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (isObject(value) && isObject(current)) merge(current, value);
    else target[key] = isObject(value) ? structuredClone(value) : value;
  }
}

function lookup(messages: Messages | undefined, key: string): string | undefined {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (!isObject(node)) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function interpolate(text: string, options: TOptions | undefined): string {
  if (!options || !text.includes('{{')) return text;
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    const value = options[name];
    return value === undefined || value === null ? '' : String(value);
  });
}

export class Translator {
  language = '';
  isInitialized = false;
  private fallback = 'en';
  private readonly store = new Map<string, Messages>();
  private readonly plurals = new Map<string, Intl.PluralRules>();
  private readonly languageListeners = new Set<(language: string) => void>();
  private readonly changeListeners = new Set<Listener>();
  /** Bumped on every language switch or text load: what hooks re-render on. */
  version = 0;

  async init(options: InitOptions): Promise<void> {
    this.fallback = options.fallbackLng ?? this.fallback;
    for (const [language, bundle] of Object.entries(options.resources ?? {})) this.addResourceBundle(language, 'translation', bundle.translation);
    this.language = options.lng;
    this.isInitialized = true;
    this.changed();
  }

  hasResourceBundle(language: string): boolean {
    return this.store.has(language);
  }

  /** Adds texts to a language (the namespace argument is kept for the familiar call shape). */
  addResourceBundle(language: string, _namespace: string, messages: Messages): void {
    let target = this.store.get(language);
    if (!target) this.store.set(language, (target = {}));
    merge(target, messages);
    this.changed();
  }

  async changeLanguage(language: string): Promise<void> {
    if (language === this.language) return;
    this.language = language;
    for (const listener of this.languageListeners) listener(language);
    this.changed();
  }

  on(event: 'languageChanged', listener: (language: string) => void): void {
    if (event === 'languageChanged') this.languageListeners.add(listener);
  }

  /** For hooks: called after every change of language or texts; returns the unsubscribe. */
  subscribe(listener: Listener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  exists(key: string): boolean {
    return this.resolve(key, undefined) !== undefined;
  }

  readonly t: TFunction = (keys, options) => {
    for (const key of typeof keys === 'string' ? [keys] : keys) {
      const text = this.resolve(key, options?.count);
      if (text !== undefined) return interpolate(text, options);
    }
    if (options?.defaultValue !== undefined) return interpolate(options.defaultValue, options);
    return typeof keys === 'string' ? keys : (keys[keys.length - 1] ?? '');
  };

  private resolve(key: string, count: number | undefined): string | undefined {
    for (const language of this.language === this.fallback ? [this.language] : [this.language, this.fallback]) {
      const messages = this.store.get(language);
      if (count !== undefined) {
        const category = this.pluralRules(language).select(count);
        const plural = (count === 0 ? lookup(messages, `${key}_zero`) : undefined)
          ?? lookup(messages, `${key}_${category}`) ?? lookup(messages, `${key}_other`);
        if (plural !== undefined) return plural;
      }
      const text = lookup(messages, key);
      if (text !== undefined) return text;
    }
    return undefined;
  }

  private pluralRules(language: string): Intl.PluralRules {
    let rules = this.plurals.get(language);
    if (!rules) this.plurals.set(language, (rules = new Intl.PluralRules(language)));
    return rules;
  }

  private changed(): void {
    this.version++;
    for (const listener of this.changeListeners) listener();
  }
}

/** The one instance the client uses. */
const i18next = new Translator();
export default i18next;
