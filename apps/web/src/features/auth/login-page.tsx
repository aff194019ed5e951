// Login (spec §2, §5, §8): /login, /motorista (driver: the login gets the `qrcode-` prefix)
// and /share/:token (token login straight into the shared device).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import type { User } from '@rastro/domain/entities';
import { useSession } from '../../app/session-store.ts';
import { safeReturnPath } from '../../app/guard.ts';
import { AuthCard, Check, Field, Notice, Spinner, SubmitButton } from '../../ui/light.tsx';
import { errorText } from './error-text.ts';
import { loadServerInfo, login, loginWithToken, rememberSession } from './auth-api.ts';

export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { token } = useParams();
  const [search] = useSearchParams();
  const isDriver = location.pathname === '/motorista';
  const isShare = token !== undefined;
  const serverInfo = useSession((s) => s.serverInfo);
  const setServerInfo = useSession((s) => s.setServerInfo);
  const setUser = useSession((s) => s.setUser);
  const [email, setEmail] = useState(search.get('user') ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!serverInfo) loadServerInfo().then(setServerInfo, () => navigate('/maintenance', { replace: true }));
  }, [serverInfo, setServerInfo, navigate]);

  const enter = (user: User, fallback: string) => {
    setUser(user);
    navigate(safeReturnPath(search.get('to')) ?? fallback, { replace: true });
  };

  useEffect(() => {
    if (!isShare || !token) return;
    loginWithToken(token).then(
      (user) => {
        const deviceId = user.attributes?.deviceId;
        enter(user, deviceId ? `/devices/${String(deviceId)}` : '/home');
      },
      (e: unknown) => setError(errorText(t, e, 'INVALID_SHARE')),
    );
    // The token login runs once per token.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isShare, token]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const name = isDriver && email.trim() ? `qrcode-${email.trim()}` : email;
      const user = await login(name, password);
      if (remember) await rememberSession().catch(() => undefined);
      enter(user, isDriver ? '/qr-driver' : '/home');
    } catch (e) {
      setError(errorText(t, e));
      setBusy(false);
    }
  }

  const server = serverInfo?.server;
  const title = typeof server?.attributes?.title === 'string' && server.attributes.title ? server.attributes.title : t('app.name');
  return (
    <AuthCard title={title} subtitle={t('app.tagline')}>
      {isShare ? (
        <div className="ls-center" aria-live="polite">
          {error ? <Notice kind="error">{error}</Notice> : (
            <>
              <Spinner />
              <p>{t('login.accessingShare')}</p>
            </>
          )}
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="ls-stack">
          <h2 className="auth-title">{isDriver ? t('login.driverTitle') : t('login.title')}</h2>
          {error && <Notice kind="error">{error}</Notice>}
          <Field
            label={t('login.username')}
            placeholder={t('login.yourEmail')}
            autoComplete="username"
            name="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                passwordRef.current?.focus();
              }
            }}
            autoFocus
          />
          <Field
            inputRef={passwordRef}
            type="password"
            label={t('login.password')}
            placeholder={t('login.yourPassword')}
            autoComplete="current-password"
            name="password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
          <Check label={t('login.rememberMe')} checked={remember} onChange={setRemember} />
          <SubmitButton busy={busy}>{t('login.signIn')}</SubmitButton>
          <div className="ls-row">
            <Link className="ls-link" to={`/login/recover${email ? `?user=${encodeURIComponent(email)}` : ''}`}>
              {t('login.lostPassword')}
            </Link>
            {server?.registration && !isDriver && <Link className="ls-link" to="/register">{t('login.register')}</Link>}
          </div>
        </form>
      )}
    </AuthCard>
  );
}
