import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@rastro/domain/errors';
import ptBR from './locales/pt-BR.json';
import es from './locales/es.json';
import en from './locales/en.json';

function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

const languages = { 'pt-BR': ptBR, es, en };

describe('translations', () => {
  const all = new Set(Object.values(languages).flatMap((m) => keys(m)));
  for (const [name, messages] of Object.entries(languages)) {
    it(`${name} has every key, none empty`, () => {
      const own = new Set(keys(messages));
      const missing = [...all].filter((k) => !own.has(k));
      expect(missing, `missing in ${name}`).toEqual([]);
      const empty = keys(messages).filter((k) => {
        const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], messages);
        return typeof v !== 'string' || v.trim() === '';
      });
      expect(empty, `empty in ${name}`).toEqual([]);
    });
  }
  it('translates every error code of the catalogue', () => {
    for (const code of ERROR_CODES) expect(Object.keys(en.errors)).toContain(code);
  });
});
