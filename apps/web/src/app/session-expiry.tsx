// The "Sua sessão expirou!" dialog of spec §4/§8: modal, one exit button that reloads the
// page. Mounted once in the root layout, which also keeps the countdown running.
import { useEffect, useRef } from 'react';
import { useTranslation } from '../i18n/use-translation.ts';
import { useSession } from './session-store.ts';
import { useShareCountdown } from './session-expiry-countdown.ts';

export function SessionExpiry() {
  useShareCountdown();
  const expired = useSession((s) => s.expired);
  return expired ? <ExpiredDialog /> : null;
}

function ExpiredDialog() {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal?.();
  }, []);
  return (
    <dialog
      ref={ref}
      className="ls-dialog"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby="session-expired-title"
      aria-describedby="session-expired-text"
      // The session is gone: Escape must not reveal the screens behind.
      onCancel={(e) => e.preventDefault()}
    >
      <h2 id="session-expired-title">{t('session.expiredTitle')}</h2>
      <p id="session-expired-text">{t('session.expired')}</p>
      <button type="button" className="ls-button" autoFocus onClick={() => window.location.reload()}>
        {t('session.exit')}
      </button>
    </dialog>
  );
}
