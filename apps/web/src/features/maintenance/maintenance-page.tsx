// /maintenance: the server info could not be loaded (spec §2, §8). Tries again at once and
// every 30 s, or when asked, and goes back by itself (to ?to= or /home) once it answers.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useNavigate, useSearchParams } from 'react-router';
import { safeMaintenanceReturn } from '../../app/guard.ts';
import { useSession } from '../../app/session-store.ts';
import { AuthCard, Notice } from '../../ui/light.tsx';
import { loadServerInfo } from '../auth/index.ts';

export const RETRY_MS = 30_000;

export function Component() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const to = safeMaintenanceReturn(search.get('to')) ?? '/home';
  const [checking, setChecking] = useState(false);
  const [lastFailure, setLastFailure] = useState<Date | null>(null);
  const inFlight = useRef(false);

  const check = useCallback(async () => {
    if (inFlight.current) return;
    inFlight.current = true;
    setChecking(true);
    try {
      const info = await loadServerInfo();
      useSession.getState().setServerInfo(info);
      navigate(to, { replace: true });
    } catch {
      setLastFailure(new Date());
      setChecking(false);
    } finally {
      inFlight.current = false;
    }
  }, [navigate, to]);

  useEffect(() => {
    void check();
    const timer = setInterval(() => void check(), RETRY_MS);
    return () => clearInterval(timer);
  }, [check]);

  const time = lastFailure?.toLocaleTimeString(i18n.language, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  return (
    <AuthCard heading={t('maintenance.title')}>
      <div className="ls-stack">
        <div className="ls-illustration" aria-hidden>
          <svg viewBox="0 0 24 24" width="40" height="40" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
            <path d="M2 8.8a15 15 0 0 1 20 0" />
            <path d="M5 12.5a10 10 0 0 1 14 0" />
            <path d="M8.5 16a5 5 0 0 1 7 0" />
            <path d="M12 20h.01" />
            <path d="M3 3l18 18" />
          </svg>
        </div>
        <p className="ls-text">{t('maintenance.text')}</p>
        <p className="ls-text ls-muted">{t('maintenance.auto', { seconds: RETRY_MS / 1000 })}</p>
        <div aria-live="polite">
          {checking ? (
            <p className="ls-text ls-muted">{t('maintenance.checking')}</p>
          ) : (
            time && <Notice kind="info">{t('maintenance.stillDown', { time })}</Notice>
          )}
        </div>
        <button type="button" className="ls-button" onClick={() => void check()} disabled={checking} aria-busy={checking || undefined}>
          {checking && <span className="ls-spinner" aria-hidden />}
          {t('maintenance.retry')}
        </button>
      </div>
    </AuthCard>
  );
}
