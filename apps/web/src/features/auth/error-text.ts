// Turns any failure into a translated sentence: catalogue codes have a text in every
// language; anything else falls back to the given code (UNKNOWN_ERROR by default).
import type { TFunction } from 'i18next';
import { HttpError } from '../../api/http.ts';

export function errorText(t: TFunction, error: unknown, fallback = 'UNKNOWN_ERROR'): string {
  const code = error instanceof HttpError ? error.code : fallback;
  const key = `errors.${code}`;
  const text = t(key);
  return text === key ? t(`errors.${fallback}`) : text;
}
