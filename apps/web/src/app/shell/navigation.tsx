// The shell's navigation: a side rail on desktop, a bottom bar on mobile. Both list the map
// (home) and the side-menu entries this person may use whose screens exist. Shared users get
// neither (the shell does not render them).
import { useTranslation } from '../../i18n/use-translation.ts';
import { NavLink } from 'react-router';
import type { SideMenuEntry } from '@rastro/domain/menus';
import { LANGUAGE_VERSIONS } from '@rastro/domain/language';
import { currentLanguage } from '../../i18n/i18n.ts';
import { MapIcon, sideMenuIcon } from './menu-icons.tsx';

function Entries({ entries, className }: { entries: SideMenuEntry[]; className: string }) {
  const { t } = useTranslation();
  return (
    <ul className={className}>
      <li>
        <NavLink to="/home" className="nav-item" end>
          <MapIcon />
          <span className="nav-label">{t('shell.home')}</span>
        </NavLink>
      </li>
      {entries.map((entry) => (
        <li key={entry.id}>
          <NavLink to={entry.path} className="nav-item" data-menu={entry.id}>
            {sideMenuIcon(entry.id)}
            <span className="nav-label">{t(`menu.side.${entry.id}`)}</span>
          </NavLink>
        </li>
      ))}
    </ul>
  );
}

export function SideMenu({ entries }: { entries: SideMenuEntry[] }) {
  const { t } = useTranslation();
  return (
    <nav className="side-menu" aria-label={t('shell.navigation')} data-testid="side-menu">
      <Entries entries={entries} className="side-menu-list" />
      <p className="side-menu-version">{t('shell.version', { version: LANGUAGE_VERSIONS[currentLanguage()] })}</p>
    </nav>
  );
}

export function BottomNav({ entries }: { entries: SideMenuEntry[] }) {
  const { t } = useTranslation();
  return (
    <nav className="bottom-nav" aria-label={t('shell.bottomNavigation')} data-testid="bottom-nav">
      <Entries entries={entries} className="bottom-nav-list" />
    </nav>
  );
}
