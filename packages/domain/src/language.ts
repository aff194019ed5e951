// Spec §1 language choice: the first of (?locale=, browser language, page language) that is
// present decides, else Brazilian Portuguese; a language we do not ship falls back to English.
// The user's or server's `tarkan.lang` attribute overrides the detected one.

export const LANGUAGES = ['pt-BR', 'es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'pt-BR';
export const FALLBACK_LANGUAGE: Language = 'en';

/** Maps any BCP 47 tag (pt, pt-PT, es-ES, en-US, es_AR…) to a shipped language, or null. */
export function normalizeLanguage(tag: unknown): Language | null {
  if (typeof tag !== 'string') return null;
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
  if (primary === 'pt') return 'pt-BR';
  if (primary === 'es') return 'es';
  if (primary === 'en') return 'en';
  return null;
}

export interface LanguageSources {
  query?: string | null;
  browser?: string | null;
  page?: string | null;
}

export function detectLanguage(sources: LanguageSources): Language {
  for (const candidate of [sources.query, sources.browser, sources.page]) {
    if (candidate && candidate.trim() !== '') return normalizeLanguage(candidate) ?? FALLBACK_LANGUAGE;
  }
  return DEFAULT_LANGUAGE;
}

/** `tarkan.lang` of the user wins over the server's, which wins over the detected language. */
export function effectiveLanguage(detected: Language, serverLang?: unknown, userLang?: unknown): Language {
  return normalizeLanguage(userLang) ?? normalizeLanguage(serverLang) ?? detected;
}

/** Version strings the spec gives each language's texts (shown in the menu's about line). */
export const LANGUAGE_VERSIONS: Record<Language, string> = { 'pt-BR': '2.0.1', es: '1.14.0', en: '1.12.7' };
