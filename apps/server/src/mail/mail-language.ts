// The language of mail sent to a user: the product stores it in the user attribute
// `tarkan.lang` (pt-BR, es or en); anything else falls back to Portuguese, the product's default.

export type MailLanguage = 'pt-BR' | 'es' | 'en';

export function mailLanguage(attributes: Record<string, unknown>): MailLanguage {
  const raw = attributes['tarkan.lang'];
  if (typeof raw !== 'string') return 'pt-BR';
  const lang = raw.trim().toLowerCase().replace('_', '-');
  if (lang === 'es' || lang.startsWith('es-')) return 'es';
  if (lang === 'en' || lang.startsWith('en-')) return 'en';
  return 'pt-BR';
}
