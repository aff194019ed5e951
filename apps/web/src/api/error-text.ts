// Turns a failed request into a translated sentence. The server's first line derives to a code
// (spec §8, HttpError.code); codes of the catalogue (`errors.*`) have a text in every language.
import type { TFunction } from '../i18n/translator.ts';
import { HttpError } from './http.ts';

/** The catalogue text of the error's code, or null when the code has none (or it is not an HttpError). */
export function knownErrorText(t: TFunction, error: unknown): string | null {
  if (!(error instanceof HttpError)) return null;
  const key = `errors.${error.code}`;
  const text = t(key);
  return text === key ? null : text;
}

/** The catalogue text of the error's code, else the text of the `fallback` code. */
export function errorText(t: TFunction, error: unknown, fallback = 'UNKNOWN_ERROR'): string {
  return knownErrorText(t, error) ?? t(`errors.${fallback}`);
}
