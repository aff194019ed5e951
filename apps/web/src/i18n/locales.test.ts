import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@rastro/domain/errors';
import { LANGUAGES } from '@rastro/domain/language';
import { namespaceFiles } from './all-texts.ts';

function keys(value: unknown, prefix = ''): string[] {
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
  }
  return [prefix];
}

const namespaces = [...new Set(LANGUAGES.flatMap((l) => Object.keys(namespaceFiles[l] ?? {})))].sort();

describe('translations', () => {
  it('every language has the same namespace files', () => {
    for (const language of LANGUAGES) expect(Object.keys(namespaceFiles[language] ?? {}).sort(), language).toEqual(namespaces);
  });

  for (const ns of namespaces) {
    const all = new Set(LANGUAGES.flatMap((l) => keys(namespaceFiles[l]?.[ns] ?? {})));
    for (const language of LANGUAGES) {
      it(`${language}/${ns} has every key, none empty`, () => {
        const messages = namespaceFiles[language]?.[ns] ?? {};
        const own = new Set(keys(messages));
        expect([...all].filter((k) => !own.has(k)), `missing in ${language}/${ns}`).toEqual([]);
        const empty = keys(messages).filter((k) => {
          const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], messages);
          return typeof v !== 'string' || v.trim() === '';
        });
        expect(empty, `empty in ${language}/${ns}`).toEqual([]);
      });
    }
  }

  it('each key prefix lives in one namespace only (they merge into one translation)', () => {
    const owner = new Map<string, string>();
    for (const ns of namespaces) {
      for (const prefix of Object.keys(namespaceFiles.en?.[ns] ?? {})) {
        expect(owner.get(prefix), `${prefix} is in ${owner.get(prefix)} and ${ns}`).toBeUndefined();
        owner.set(prefix, ns);
      }
    }
  });

  it('the login screen needs only core: errors and auth texts are there', () => {
    const core = namespaceFiles.en?.core ?? {};
    for (const prefix of ['app', 'login', 'errors', 'recover', 'register']) expect(Object.keys(core)).toContain(prefix);
    for (const code of ERROR_CODES) expect(Object.keys((core as { errors: object }).errors)).toContain(code);
  });
});
