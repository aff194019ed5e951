// Every namespace of every language merged, for tests and tooling that need all the texts at
// once (the app itself loads them per screen, see texts.ts). Node-side: reads the files eagerly.
import type { Language } from '@rastro/domain/language';
// The English files give the merged texts their type (a new namespace adds its line here).
import type core from './locales/en/core.json';
import type shell from './locales/en/shell.json';
import type history from './locales/en/history.json';
import type reports from './locales/en/reports.json';
import type users from './locales/en/users.json';
import type server from './locales/en/server.json';
import type logs from './locales/en/logs.json';
import type userEditor from './locales/en/userEditor.json';
import type calendars from './locales/en/calendars.json';

type Texts = typeof core & typeof shell & typeof history & typeof reports & typeof users & typeof server & typeof logs & typeof userEditor & typeof calendars;

type Messages = Record<string, unknown>;

const files = import.meta.glob<Messages>('./locales/*/*.json', { import: 'default', eager: true });

/** `{ language: { namespace: messages } }` as the files hold them. */
export const namespaceFiles: Record<string, Record<string, Messages>> = {};
for (const [path, messages] of Object.entries(files)) {
  const [, , language, file] = path.split('/');
  (namespaceFiles[language!] ??= {})[file!.replace(/\.json$/, '')] = messages;
}

function merged(language: Language): Texts {
  return Object.assign({}, ...Object.values(namespaceFiles[language] ?? {})) as Texts;
}

export const allTexts: Record<Language, Texts> = { 'pt-BR': merged('pt-BR'), es: merged('es'), en: merged('en') };
