// What any text the API stores must be: well-formed UTF-16 (a lone surrogate, e.g. a JSON
// "\ud800", has no UTF-8 form and reaches the database as replacement bytes or an error) and
// free of NUL characters (PostgreSQL text cannot hold U+0000).

// In a /u pattern a lone surrogate is a code point of category Cs; a proper pair is not.
const LONE_SURROGATE = /\p{Cs}/u;

export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

export const LONE_SURROGATE_TEXT = 'the text holds an unpaired UTF-16 surrogate';
export const NUL_TEXT = 'the text holds a NUL character';

/** Why `text` cannot be stored (a message tail), or null when it can. */
export function textProblem(text: string): string | null {
  if (LONE_SURROGATE.test(text)) return LONE_SURROGATE_TEXT;
  if (text.includes('\u0000')) return NUL_TEXT;
  return null;
}
