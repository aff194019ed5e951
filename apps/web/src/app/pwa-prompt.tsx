// "A new version is available" (NEW_VERSION_AVAILABLE, spec §1): update now or later.
import { useState } from 'react';
import { useTranslation } from '../i18n/use-translation.ts';
import { usePwa } from './pwa-store.ts';

export function PwaPrompt() {
  const { t } = useTranslation();
  const needRefresh = usePwa((s) => s.needRefresh);
  const update = usePwa((s) => s.update);
  const dismiss = usePwa((s) => s.dismiss);
  const [updating, setUpdating] = useState(false);
  if (!needRefresh || !update) return null;
  return (
    <section className="ls-toast" aria-labelledby="pwa-prompt-text" role="region">
      <p id="pwa-prompt-text" aria-live="polite">{t('pwa.NEW_VERSION_AVAILABLE')}</p>
      <div className="ls-toast-actions">
        <button type="button" className="ls-button secondary small" onClick={dismiss}>
          {t('pwa.later')}
        </button>
        <button
          type="button"
          className="ls-button small"
          disabled={updating}
          aria-busy={updating || undefined}
          onClick={() => {
            setUpdating(true);
            void update();
          }}
        >
          {t('pwa.update')}
        </button>
      </div>
    </section>
  );
}
