// Turns any failure into a translated sentence: catalogue codes have a text in every
// language; anything else falls back to UNKNOWN_ERROR.
import type { TFunction } from 'i18next';
import { HttpError } from '../../api/http.ts';

export function errorText(t: TFunction, error: unknown): string {
  const code = error instanceof HttpError ? error.code : 'UNKNOWN_ERROR';
  const key = `errors.${code}`;
  const text = t(key);
  return text === key ? t('errors.UNKNOWN_ERROR') : text;
}
