// The interface texts, read from the client's locale files, so tests assert what people read.
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './env.ts';

type Messages = Record<string, Record<string, string>>;

function load(language: string): Messages {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, `apps/web/src/i18n/locales/${language}.json`), 'utf8')) as Messages;
}

export const pt = load('pt-BR');
export const es = load('es');
export const en = load('en');

/** A text with its {{placeholders}} filled in. */
export function fill(text: string | undefined, values: Record<string, string | number>): string {
  if (text === undefined) throw new Error('missing text');
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => String(values[key] ?? ''));
}
