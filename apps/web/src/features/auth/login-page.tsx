// Login (spec §2, §5, §8): /login, /motorista (driver: the login gets the `qrcode-` prefix)
// and /share/:token (token login straight into the shared device).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import type { User } from '@rastro/domain/entities';
import { useSession } from '../../app/session-store.ts';
import { safeReturnPath } from '../../app/guard.ts';
import { AuthCard, Check, Field, Notice, Spinner, SubmitButton } from '../../ui/light.tsx';
import { HttpError } from '../../api/http.ts';
import { errorText } from '../../api/error-text.ts';
import { login, loginWithToken, rememberSession } from './auth-api.ts';
import { signIn } from './session.ts';

export const DRIVER_PREFIX = 'qrcode-';

/** The login a driver's name is stored under: `qrcode-<name>` (never prefixed twice). */
export const driverLogin = (name: string) => {
  const trimmed = name.trim();
  return trimmed && !trimmed.startsWith(DRIVER_PREFIX) ? DRIVER_PREFIX + trimmed : trimmed;
};

const isSuspended = (error: unknown) => error instanceof HttpError && error.code.startsWith('ACCOUNT_IS_SUSPENDED');

export function Component() {
  const { token } = useParams();
  const location = useLocation();
  const isDriver = location.pathname === '/motorista';
  return token !== undefined ? <ShareAccess token={token} /> : <LoginForm key={isDriver ? 'driver' : 'user'} isDriver={isDriver} />;
}

function useEnter() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  return async (user: User, fallback: string) => {
    await signIn(user);
    navigate(safeReturnPath(search.get('to')) ?? fallback, { replace: true });
  };
}

function LoginForm({ isDriver }: { isDriver: boolean }) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const enter = useEnter();
  const registration = useSession((s) => s.serverInfo?.server.registration === true);
  const [email, setEmail] = useState(search.get('user') ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; suspended: boolean } | null>(null);
  const [missing, setMissing] = useState<{ email: boolean; password: boolean }>({ email: false, password: false });
  const passwordRef = useRef<HTMLInputElement>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const empty = { email: !email.trim(), password: !password };
    setMissing(empty);
    setBusy(true);
    try {
      const user = await login(isDriver ? driverLogin(email) : email, password);
      if (remember) await rememberSession().catch(() => undefined);
      await enter(user, isDriver ? '/qr-driver' : '/home');
    } catch (e) {
      setError({ text: errorText(t, e), suspended: isSuspended(e) });
      setBusy(false);
    }
  }

  return (
    <AuthCard heading={isDriver ? t('login.driverTitle') : t('login.title')}>
      <form onSubmit={submit} noValidate className="ls-stack">
        {error && (
          <Notice kind="error" title={error.suspended ? t('login.suspended') : undefined}>
            {error.text}
          </Notice>
        )}
        <Field
          label={isDriver ? t('login.driverName') : t('login.username')}
          placeholder={isDriver ? undefined : t('login.yourEmail')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          name="email"
          value={email}
          required
          error={missing.email ? t('login.required') : null}
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
          required
          error={missing.password ? t('login.required') : null}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Check label={t('login.rememberMe')} checked={remember} onChange={setRemember} />
        <SubmitButton busy={busy}>{t('login.signIn')}</SubmitButton>
        <div className="ls-row">
          <Link className="ls-link" to={`/login/recover${email.trim() ? `?user=${encodeURIComponent(email.trim())}` : ''}`}>
            {t('login.lostPassword')}
          </Link>
          {registration && !isDriver && (
            <Link className="ls-link" to="/register">
              {t('login.register')}
            </Link>
          )}
        </div>
      </form>
    </AuthCard>
  );
}

/** /share/:token: a token login, then the shared device (spec §2, §4.1). */
function ShareAccess({ token }: { token: string }) {
  const { t } = useTranslation();
  const enter = useEnter();
  const [error, setError] = useState<string | null>(null);
  const started = useRef<string | null>(null);

  useEffect(() => {
    if (started.current === token) return;
    started.current = token;
    loginWithToken(token).then(
      (user) => {
        const deviceId = user.attributes?.deviceId;
        return enter(user, deviceId !== undefined && deviceId !== null && deviceId !== '' ? `/devices/${String(deviceId)}` : '/home');
      },
      (e: unknown) => {
        // Any refusal means the link no longer works; only a silent server is told apart.
        const code = e instanceof HttpError && e.code === 'CONNECTION_ERROR' ? 'CONNECTION_ERROR' : 'INVALID_SHARE';
        setError(t(`errors.${code}`));
      },
    );
  }, [token, enter, t]);

  return (
    <AuthCard heading={t('login.shareTitle')}>
      <div className="ls-center" aria-live="polite">
        {error ? (
          <>
            <Notice kind="error">{error}</Notice>
            <Link className="ls-link" to="/login">{t('login.goToLogin')}</Link>
          </>
        ) : (
          <>
            <Spinner />
            <p>{t('login.accessingShare')}</p>
          </>
        )}
      </div>
    </AuthCard>
  );
}
