// The signed-in shell: the layout route of every session screen (they render in its <Outlet/>).
// Desktop: header, side menu, and the map filling the rest with screens in a panel over it.
// Mobile (≤ 768 px or a mobile browser): header, the map, screens as bottom sheets and a bottom
// navigation bar. Shared users get no menu and a full-width map; QR drivers never get here.
// The component library, the query client and the live session live in this lazily loaded
// chunk (MapLibre loads later still, from the map view), so public screens stay light.
import '@mantine/core/styles.css';
import './shell.css';
import { useMemo } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Navigate, Outlet } from 'react-router';
import { isQrDriver, isSharedUser } from '@rastro/domain/permissions';
import type { MenuContext } from '@rastro/domain/menus';
import { useSession } from '../session-store.ts';
import { theme } from '../theme.ts';
import { Header } from '../../features/header/header.tsx';
import { MapView } from '../../features/map/map-view.tsx';
import { DeviceSessionData } from '../../features/devices/session-data.ts';
import { FilterHint } from '../../features/devices/filter-hint.tsx';
import { useMobileLayout } from './layout.ts';
import { visibleSideEntries } from './menu-availability.ts';
import { BottomNav, SideMenu } from './navigation.tsx';
import { queryClient } from './query-client.ts';
import { ScreenPanel } from './screen-panel.tsx';
import { UserMenu } from './user-menu.tsx';
import { ShellDialogs } from './shell-dialogs-host.tsx';
import { useLiveSession } from './use-live-session.ts';

function useMenuContext(): MenuContext | null {
  const user = useSession((s) => s.user);
  const serverInfo = useSession((s) => s.serverInfo);
  return useMemo(
    () => (user && serverInfo ? { user, server: { plus: serverInfo.plus, attributes: serverInfo.server.attributes } } : null),
    [user, serverInfo],
  );
}

function ShellLayout() {
  const { t } = useTranslation();
  const mobile = useMobileLayout();
  const user = useSession((s) => s.user);
  const context = useMenuContext();
  const shared = user ? isSharedUser(user) : false;
  const reload = useLiveSession(user?.id ?? null, user?.administrator === true);
  const entries = context && !shared ? visibleSideEntries(context) : [];
  const showNavigation = !shared && context !== null;

  return (
    <div className={`shell ${mobile ? 'is-mobile' : 'is-desktop'}${shared ? ' is-shared' : ''}`} data-testid="shell">
      <a className="skip-link" href="#map">{t('shell.skipToMap')}</a>
      <Header mobile={mobile} userMenu={<UserMenu context={context} />} />
      <div className="shell-body">
        {showNavigation && !mobile && <SideMenu entries={entries} />}
        <main className="shell-main">
          <MapView onRetry={reload} compact={mobile} />
          <FilterHint />
          <ScreenPanel mobile={mobile}>
            <Outlet />
          </ScreenPanel>
        </main>
      </div>
      {showNavigation && mobile && <BottomNav entries={entries} />}
      <DeviceSessionData enabled={user !== null} />
      <ShellDialogs />
    </div>
  );
}

export function Component() {
  const user = useSession((s) => s.user);
  if (user && isQrDriver(user)) return <Navigate to="/qr-driver" replace />;
  return (
    <MantineProvider theme={theme}>
      <QueryClientProvider client={queryClient}>
        <ShellLayout />
      </QueryClientProvider>
    </MantineProvider>
  );
}
