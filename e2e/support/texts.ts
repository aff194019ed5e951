// The interface texts, read from the client's locale files, so tests assert what people read.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './env.ts';

type Messages = Record<string, Record<string, string>>;

/** Every namespace file of a language merged (the app merges them the same way, i18n/texts.ts). */
function load(language: string): Messages {
  const folder = path.join(repoRoot, 'apps/web/src/i18n/locales', language);
  const merged: Messages = {};
  for (const file of fs.readdirSync(folder).filter((f) => f.endsWith('.json')).sort()) {
    Object.assign(merged, JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')) as Messages);
  }
  return merged;
}

export const pt = load('pt-BR');
export const es = load('es');
export const en = load('en');

/** A text with its {{placeholders}} filled in. */
export function fill(text: string | undefined, values: Record<string, string | number>): string {
  if (text === undefined) throw new Error('missing text');
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''));
}

/** A nested text of a locale (pt-BR unless given), filled: t('users.linksOf', { name }). */
export function t(key: string, values?: Record<string, string | number>, texts: Messages = pt): string {
  const text = key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], texts);
  if (typeof text !== 'string') throw new Error(`missing text ${key}`);
  return values ? fill(text, values) : text;
}
