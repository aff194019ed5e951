// The sentence shown when a save or a link is refused: the catalogue text of the server's
// error code when there is one, else the server's own first line for a 4xx (Traccar-style
// "Title - explanation", written for people), else the generic failure.
import type { TFunction } from '../../i18n/translator.ts';
import { HttpError } from '../../api/http.ts';
import { errorText, knownErrorText } from '../../api/error-text.ts';

/** Longest server line shown as is (anything longer is a stack trace, not a message). */
const MAX_LINE = 300;

export function saveErrorText(t: TFunction, error: unknown): string {
  const known = knownErrorText(t, error);
  if (known) return known;
  if (error instanceof HttpError && error.status >= 400 && error.status < 500) {
    const line = error.text.split('\n')[0]!.trim();
    if (line && line.length <= MAX_LINE && !line.startsWith('<')) return line;
  }
  return errorText(t, error);
}
