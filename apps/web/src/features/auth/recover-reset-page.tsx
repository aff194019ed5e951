// /login/recover/:token: the link from the recovery mail; sets a new password (spec §5:
// FILL_TOKEN_FIELD without a token; at least 4 characters, typed twice).
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Link, useParams } from 'react-router';
import { HttpError } from '../../api/http.ts';
import { AuthCard, Field, Notice, SubmitButton } from '../../ui/light.tsx';
import { errorText } from '../../api/error-text.ts';
import { resetPassword } from './auth-api.ts';
import { MIN_PASSWORD, minFor, passwordProblems } from './validation.ts';

export function Component() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; expiredLink: boolean } | null>(null);
  const [done, setDone] = useState(false);
  const problems = passwordProblems(password, confirm);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    setError(null);
    if (problems.password || problems.confirm) return;
    setBusy(true);
    try {
      await resetPassword(token, password);
      setDone(true);
    } catch (e) {
      // A used or expired link answers "Invalid login data": say it in this screen's words.
      const expiredLink = e instanceof HttpError && e.code === 'INVALID_LOGIN_DATA';
      setError({ text: expiredLink ? t('recover.linkInvalid') : errorText(t, e), expiredLink });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard heading={t('recover.resetTitle')}>
      {done ? (
        <div className="ls-stack">
          <Notice kind="success">{t('recover.changed')}</Notice>
          <Link className="ls-button" to="/login">{t('recover.goToLogin')}</Link>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="ls-stack">
          {error && (
            <Notice kind="error">
              {error.text}{' '}
              {error.expiredLink && <Link className="ls-link" to="/login/recover">{t('recover.requestAgain')}</Link>}
            </Notice>
          )}
          <Field
            type="password"
            label={t('recover.newPassword')}
            autoComplete="new-password"
            name="password"
            value={password}
            required
            minLength={MIN_PASSWORD}
            error={touched && problems.password ? t(problems.password, { min: minFor(problems.password) }) : null}
            onChange={(e) => setPassword(e.currentTarget.value)}
            autoFocus
          />
          <Field
            type="password"
            label={t('recover.confirmPassword')}
            autoComplete="new-password"
            name="confirm"
            value={confirm}
            required
            error={touched && problems.confirm ? t(problems.confirm) : null}
            onChange={(e) => setConfirm(e.currentTarget.value)}
          />
          <SubmitButton busy={busy}>{t('recover.save')}</SubmitButton>
          <Link className="ls-link" to="/login">{t('recover.backToLogin')}</Link>
        </form>
      )}
    </AuthCard>
  );
}
