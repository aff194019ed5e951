// Unit tests render with the real pt-BR texts (and can switch), without the lazy loaders.
import i18next from './translator.ts';
import { allTexts } from './all-texts.ts';

export const texts = allTexts;
const { 'pt-BR': ptBR, es, en } = allTexts;

export async function initTestI18n(language: 'pt-BR' | 'es' | 'en' = 'pt-BR') {
  if (!i18next.isInitialized) {
    await i18next.init({
      lng: language,
      fallbackLng: 'en',
      resources: { 'pt-BR': { translation: ptBR }, es: { translation: es }, en: { translation: en } },
    });
  }
  await i18next.changeLanguage(language);
  return i18next;
}
