import { describe, expect, it } from 'vitest';
import { Translator } from './translator.ts';

async function make() {
  const i18n = new Translator();
  await i18n.init({
    lng: 'pt-BR',
    fallbackLng: 'en',
    resources: {
      'pt-BR': { translation: { a: { hello: 'Olá, {{name}}!', stops_one: '{{count}} parada', stops_other: '{{count}} paradas' } } },
      en: { translation: { a: { hello: 'Hello, {{name}}!', onlyEn: 'Only in English', items_zero: 'No items', items_one: 'One item', items_other: '{{count}} items' } } },
    },
  });
  return i18n;
}

describe('texts engine', () => {
  it('fills {{placeholders}} and leaves no placeholder behind', async () => {
    const i18n = await make();
    expect(i18n.t('a.hello', { name: 'Ana' })).toBe('Olá, Ana!');
    expect(i18n.t('a.hello')).toBe('Olá, {{name}}!');
    expect(i18n.t('a.hello', {})).toBe('Olá, !');
  });

  it('chooses the plural form of the language from count', async () => {
    const i18n = await make();
    expect(i18n.t('a.stops', { count: 1 })).toBe('1 parada');
    // CLDR: Portuguese counts 0 and 1 as singular.
    expect(i18n.t('a.stops', { count: 0 })).toBe('0 parada');
    expect(i18n.t('a.stops', { count: 7 })).toBe('7 paradas');
    await i18n.changeLanguage('en');
    expect(i18n.t('a.items', { count: 0 })).toBe('No items');
    expect(i18n.t('a.items', { count: 1 })).toBe('One item');
    expect(i18n.t('a.items', { count: 3 })).toBe('3 items');
  });

  it('falls back to English, then to defaultValue, then to the key', async () => {
    const i18n = await make();
    expect(i18n.t('a.onlyEn')).toBe('Only in English');
    expect(i18n.t('a.missing', { defaultValue: 'raw {{x}}', x: 1 })).toBe('raw 1');
    expect(i18n.t('a.missing')).toBe('a.missing');
    expect(i18n.t('a')).toBe('a');
    expect(i18n.exists('a.hello')).toBe(true);
    expect(i18n.exists('a.nope')).toBe(false);
  });

  it('tries a list of keys in order', async () => {
    const i18n = await make();
    expect(i18n.t(['a.nope', 'a.hello', 'a.onlyEn'], { name: 'Rui' })).toBe('Olá, Rui!');
    expect(i18n.t(['a.nope', 'a.none'])).toBe('a.none');
  });

  it('merges later texts and tells listeners about every change', async () => {
    const i18n = await make();
    const seen: string[] = [];
    let changes = 0;
    i18n.on('languageChanged', (l) => seen.push(l));
    const stop = i18n.subscribe(() => changes++);
    i18n.addResourceBundle('pt-BR', 'translation', { a: { extra: 'Mais' } });
    expect(i18n.t('a.extra')).toBe('Mais');
    expect(i18n.t('a.hello', { name: 'x' })).toBe('Olá, x!');
    await i18n.changeLanguage('es');
    await i18n.changeLanguage('es');
    expect(seen).toEqual(['es']);
    expect(changes).toBe(2);
    stop();
    await i18n.changeLanguage('en');
    expect(changes).toBe(2);
  });
});
