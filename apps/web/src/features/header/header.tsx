// The signed-in header (spec §1, tarkan-reference §3.3): product, weather, local time, the mute
// toggle, who is signed in (or, for a shared link, the time left), the user menu and sign-out.
// The shell passes the user menu in (it owns the menu rules); everything else lives here.
import type { ReactNode } from 'react';
import { ActionIcon, Tooltip } from '@mantine/core';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Link } from 'react-router';
import { isSharedUser } from '@rastro/domain/permissions';
import { useSession } from '../../app/session-store.ts';
import { useShareCountdown } from '../../app/session-expiry-countdown.ts';
import { signOut } from '../auth/index.ts';
import { useProductName } from '../../ui/light.tsx';
import { useMute } from '../../live/mute.ts';
import { Clock } from './clock.tsx';
import { Weather } from './weather.tsx';
import { HourglassIcon, LogoutIcon, SpeakerIcon, SpeakerOffIcon } from './icons.tsx';
import './header.css';

export function MuteToggle() {
  const { t } = useTranslation();
  const muted = useMute((s) => s.muted);
  const toggle = useMute((s) => s.toggle);
  return (
    <Tooltip label={muted ? t('header.soundsOff') : t('header.soundsOn')} withArrow>
      <ActionIcon
        variant="subtle"
        color="gray.0"
        size={38}
        radius="xl"
        className="hdr-icon-button"
        aria-label={t('header.mute')}
        aria-pressed={muted}
        data-testid="mute-toggle"
        onClick={toggle}
      >
        {muted ? <SpeakerOffIcon /> : <SpeakerIcon />}
      </ActionIcon>
    </Tooltip>
  );
}

export function ShareCountdown({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const left = useShareCountdown();
  if (!left) return null;
  return (
    <div className={`hdr-countdown${compact ? ' is-compact' : ''}`} data-testid="share-countdown" aria-live="off">
      {!compact && <HourglassIcon />}
      <span className="hdr-countdown-text">
        <span className="hdr-countdown-label">{t('session.expiresIn')}</span>{' '}
        <strong>{t(`countdown.${left.unit}`, { count: left.value })}</strong>
      </span>
    </div>
  );
}

function LogoutButton() {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('session.logout')} withArrow>
      <ActionIcon variant="subtle" color="gray.0" size={38} radius="xl" className="hdr-icon-button" aria-label={t('session.logout')} onClick={() => void signOut()}>
        <LogoutIcon />
      </ActionIcon>
    </Tooltip>
  );
}

export function Header({ mobile, userMenu }: { mobile: boolean; userMenu: ReactNode }) {
  const { t } = useTranslation();
  const product = useProductName();
  const user = useSession((s) => s.user);
  const shared = user ? isSharedUser(user) : false;
  return (
    <header className={`hdr${mobile ? ' is-mobile' : ''}`}>
      <Link to="/home" className="hdr-brand" aria-label={mobile ? t('header.home') : undefined} title={t('header.home')}>
        <img src="/favicon.svg" alt="" width={28} height={28} />
        {!mobile && <span className="hdr-product">{product}</span>}
      </Link>
      <div className="hdr-spacer" />
      <Weather compact={mobile} />
      <Clock twelveHour={user?.twelveHourFormat === true} />
      <MuteToggle />
      {shared ? (
        <ShareCountdown compact={mobile} />
      ) : (
        !mobile && user && <span className="hdr-user-name">{user.name}</span>
      )}
      {userMenu}
      <LogoutButton />
    </header>
  );
}
