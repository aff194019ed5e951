import { describe, expect, it } from 'vitest';
import { detectLanguage, effectiveLanguage, normalizeLanguage } from './language.ts';

describe('language detection (spec §1)', () => {
  it('takes the locale query parameter first', () => {
    expect(detectLanguage({ query: 'es', browser: 'en-US', page: 'pt-BR' })).toBe('es');
  });
  it('then the browser language, then the page language', () => {
    expect(detectLanguage({ browser: 'en-GB', page: 'es' })).toBe('en');
    expect(detectLanguage({ page: 'es' })).toBe('es');
  });
  it('defaults to Brazilian Portuguese when nothing is known', () => {
    expect(detectLanguage({})).toBe('pt-BR');
    expect(detectLanguage({ query: '', browser: ' ' })).toBe('pt-BR');
  });
  it('falls back to English for languages we do not ship', () => {
    expect(detectLanguage({ browser: 'fr-FR' })).toBe('en');
  });
  it('normalizes regional tags', () => {
    expect(normalizeLanguage('pt-PT')).toBe('pt-BR');
    expect(normalizeLanguage('es_AR')).toBe('es');
    expect(normalizeLanguage('en-US')).toBe('en');
    expect(normalizeLanguage('de')).toBeNull();
  });
  it('lets the user tarkan.lang override the server one and the detected one', () => {
    expect(effectiveLanguage('pt-BR', 'es-ES', 'en-US')).toBe('en');
    expect(effectiveLanguage('pt-BR', 'es-ES', undefined)).toBe('es');
    expect(effectiveLanguage('en', undefined, 'xx')).toBe('en');
  });
});
