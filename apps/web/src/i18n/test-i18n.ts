// Unit tests render with the real pt-BR texts (and can switch), without the lazy loaders.
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import ptBR from './locales/pt-BR.json';
import es from './locales/es.json';
import en from './locales/en.json';

export const texts = { 'pt-BR': ptBR, es, en };

export async function initTestI18n(language: 'pt-BR' | 'es' | 'en' = 'pt-BR') {
  if (!i18next.isInitialized) {
    await i18next.use(initReactI18next).init({
      lng: language,
      fallbackLng: 'en',
      resources: { 'pt-BR': { translation: ptBR }, es: { translation: es }, en: { translation: en } },
      interpolation: { escapeValue: false },
    });
  }
  await i18next.changeLanguage(language);
  return i18next;
}
