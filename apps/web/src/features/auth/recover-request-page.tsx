// /login/recover: asks for a link to set a new password (spec §5: FILL_EMAIL_FIELD when empty).
// The server answers the same whether or not the account exists, and so does this screen.
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Link, useSearchParams } from 'react-router';
import { AuthCard, Field, Notice, SubmitButton } from '../../ui/light.tsx';
import { errorText } from '../../api/error-text.ts';
import { requestPasswordReset } from './auth-api.ts';

export function Component() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const [email, setEmail] = useState(search.get('user') ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await requestPasswordReset(email);
      setSent(true);
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard heading={t('recover.requestTitle')}>
      {sent ? (
        <div className="ls-stack">
          <Notice kind="success">{t('recover.sent', { email: email.trim() })}</Notice>
          <Link className="ls-button secondary" to="/login">{t('recover.backToLogin')}</Link>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="ls-stack">
          <p className="ls-text">{t('recover.requestHelp')}</p>
          {error && <Notice kind="error">{error}</Notice>}
          <Field
            type="email"
            label={t('recover.email')}
            placeholder={t('login.yourEmail')}
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            name="email"
            value={email}
            required
            onChange={(e) => setEmail(e.currentTarget.value)}
            autoFocus
          />
          <SubmitButton busy={busy}>{t('recover.send')}</SubmitButton>
          <Link className="ls-link" to="/login">{t('recover.backToLogin')}</Link>
        </form>
      )}
    </AuthCard>
  );
}
