// Login (spec §2, §5, §8): /login, /motorista (driver: the login gets the `qrcode-` prefix)
// and /share/:token (token login straight into the shared device).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { Alert, Anchor, Button, Group, Loader, Paper, PasswordInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import type { User } from '@rastro/domain/entities';
import { useSession } from '../../app/session-store.ts';
import { safeReturnPath } from '../../app/guard.ts';
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
    if (!serverInfo) {
      loadServerInfo().then(setServerInfo, () => navigate('/maintenance', { replace: true }));
    }
  }, [serverInfo, setServerInfo, navigate]);

  const enter = (user: User, fallback: string) => {
    setUser(user);
    const to = safeReturnPath(search.get('to'));
    navigate(to ?? fallback, { replace: true });
  };

  useEffect(() => {
    if (!isShare || !token) return;
    loginWithToken(token).then(
      (user) => {
        const deviceId = user.attributes?.deviceId;
        enter(user, deviceId ? `/devices/${String(deviceId)}` : '/home');
      },
      (e: unknown) => setError(errorText(t, e) === t('errors.INVALID_LOGIN_DATA') ? t('errors.INVALID_SHARE') : errorText(t, e)),
    );
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
  return (
    <main className="auth-screen">
      <Paper className="auth-card" shadow="xl" p="xl" radius="lg" withBorder>
        <div className="auth-brand">
          <img src="/favicon.svg" alt="" />
          <div>
            <Title order={1} size="h3">{String(server?.attributes?.title ?? t('app.name'))}</Title>
            <Text size="sm" c="dimmed">{t('app.tagline')}</Text>
          </div>
        </div>
        {isShare ? (
          <Stack align="center" py="lg" gap="md" aria-live="polite">
            {error ? (
              <Alert color="red" role="alert" w="100%">{error}</Alert>
            ) : (
              <>
                <Loader aria-hidden />
                <Text>{t('login.accessingShare')}</Text>
              </>
            )}
          </Stack>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="md" mt="md">
              <Title order={2} size="h4">{isDriver ? t('login.driverTitle') : t('login.title')}</Title>
              {error && <Alert color="red" role="alert">{error}</Alert>}
              <TextInput
                label={t('login.username')}
                placeholder={t('login.yourEmail')}
                autoComplete="username"
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
              <PasswordInput
                ref={passwordRef}
                label={t('login.password')}
                placeholder={t('login.yourPassword')}
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              <Switch label={t('login.rememberMe')} checked={remember} onChange={(e) => setRemember(e.currentTarget.checked)} />
              <Button type="submit" loading={busy} fullWidth size="md">{t('login.signIn')}</Button>
              <Group justify="space-between">
                <Anchor component={Link} to={`/login/recover${email ? `?user=${encodeURIComponent(email)}` : ''}`} size="sm">
                  {t('login.lostPassword')}
                </Anchor>
                {server?.registration && !isDriver && (
                  <Anchor component={Link} to="/register" size="sm">{t('login.register')}</Anchor>
                )}
              </Group>
            </Stack>
          </form>
        )}
      </Paper>
    </main>
  );
}
