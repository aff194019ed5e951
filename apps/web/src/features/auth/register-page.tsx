// /register: a new account (spec §5: name ≥ 3, e-mail ≥ 4, password ≥ 4 typed twice), then
// signed in at once. The server refuses with REGISTRATION_DISABLED when it is switched off.
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Link, useNavigate } from 'react-router';
import { AuthCard, Field, Notice, SubmitButton } from '../../ui/light.tsx';
import { errorText } from '../../api/error-text.ts';
import { login, register } from './auth-api.ts';
import { signIn } from './session.ts';
import { hasProblems, minFor, registrationProblems } from './validation.ts';

export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const problems = registrationProblems(name, email, password, confirm);
  const show = (key: string | null) => (touched && key ? t(key, { min: minFor(key) }) : null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    setError(null);
    if (hasProblems(problems)) return;
    setBusy(true);
    try {
      await register(name.trim(), email.trim(), password);
      const user = await login(email.trim(), password);
      await signIn(user);
      navigate('/home', { replace: true });
    } catch (e) {
      setError(errorText(t, e));
      setBusy(false);
    }
  }

  return (
    <AuthCard heading={t('register.title')}>
      <form onSubmit={submit} noValidate className="ls-stack">
        {error && <Notice kind="error">{error}</Notice>}
        <Field
          label={t('register.name')}
          autoComplete="name"
          name="name"
          value={name}
          required
          error={show(problems.name)}
          onChange={(e) => setName(e.currentTarget.value)}
          autoFocus
        />
        <Field
          type="email"
          label={t('register.email')}
          placeholder={t('login.yourEmail')}
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          name="email"
          value={email}
          required
          error={show(problems.email)}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <Field
          type="password"
          label={t('register.password')}
          autoComplete="new-password"
          name="password"
          value={password}
          required
          error={show(problems.password)}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Field
          type="password"
          label={t('register.confirmPassword')}
          autoComplete="new-password"
          name="confirm"
          value={confirm}
          required
          error={show(problems.confirm)}
          onChange={(e) => setConfirm(e.currentTarget.value)}
        />
        <SubmitButton busy={busy}>{t('register.submit')}</SubmitButton>
        <p className="ls-text">
          {t('register.haveAccount')} <Link className="ls-link" to="/login">{t('register.signIn')}</Link>
        </p>
      </form>
    </AuthCard>
  );
}
