// i18next set up with only the active language's `core` texts loaded (screens bring their
// own namespaces, see texts.ts; other languages are fetched when the user switches), so the
// login screen stays light. `<html lang>` always names the active language.
import i18next from './translator.ts';
import { loadWantedTexts } from './texts.ts';
import {
  detectLanguage, effectiveLanguage, FALLBACK_LANGUAGE, normalizeLanguage, type Language,
} from '@rastro/domain/language';

export function detectFromBrowser(): Language {
  return detectLanguage({
    query: new URLSearchParams(window.location.search).get('locale'),
    browser: navigator.language,
    page: document.documentElement.getAttribute('lang'),
  });
}

export async function initI18n(): Promise<typeof i18next> {
  const language = detectFromBrowser();
  await i18next.init({
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    resources: {},
  });
  // `core`, and whatever a screen asked for before this point: the router starts (and calls
  // the first route's `withTexts`) when the app module loads, before the texts can be fetched.
  await loadWantedTexts(language);
  document.documentElement.lang = language;
  i18next.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
  });
  await i18next.changeLanguage(language);
  return i18next;
}

export async function setLanguage(language: Language): Promise<void> {
  if (i18next.language === language) return;
  await loadWantedTexts(language);
  await i18next.changeLanguage(language);
}

/** The language on screen now (always one we ship). */
export function currentLanguage(): Language {
  return normalizeLanguage(i18next.language) ?? FALLBACK_LANGUAGE;
}

/**
 * Once the server info or the signed-in user is known, their `tarkan.lang` overrides the
 * detected language (the user's wins over the server's). Before sign-in a `?locale=` in the
 * address (also what the login screen's switcher sets) is an explicit choice and is kept.
 */
export async function applyAccountLanguage(serverAttributes?: Record<string, unknown>, userAttributes?: Record<string, unknown>): Promise<void> {
  const userLang = userAttributes?.['tarkan.lang'];
  const explicit = new URLSearchParams(window.location.search).get('locale');
  if (!userAttributes && explicit) return;
  await setLanguage(effectiveLanguage(currentLanguage(), serverAttributes?.['tarkan.lang'], userLang));
}

export { i18next };
