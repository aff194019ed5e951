// The root of every route: runs the navigation guard on each navigation (its loader), shows
// a progress bar while a screen loads, loads server info behind public screens, and hosts
// what must outlive any screen (session-expiry dialog, new-version prompt).
import { useEffect } from 'react';
import { useTranslation } from '../i18n/use-translation.ts';
import {
  Outlet, redirect, useLocation, useNavigate, useNavigation, useRouteError, type LoaderFunctionArgs,
} from 'react-router';
import { isQrDriver } from '@rastro/domain/permissions';
import { driverRedirect, guard, isDriverPath, isPublicPath, maintenanceRedirect } from './guard.ts';
import { useSession } from './session-store.ts';
import { ensureServerInfo, guardDeps } from '../features/auth/session.ts';
import { SessionExpiry } from './session-expiry.tsx';
import { PwaPrompt } from './pwa-prompt.tsx';
import { useProductName } from '../ui/light.tsx';
import { withTexts } from '../i18n/texts.ts';

let shellModule: Promise<typeof import('./shell/shell.tsx')> | null = null;
/**
 * The signed-in shell's chunk and its texts (map, menus, devices), fetched once; the guard
 * awaits it so screens never flash untranslated keys.
 */
export const loadShell = () => (shellModule ??= withTexts(['shell'], () => import('./shell/shell.tsx'))());

const isShellPath = (path: string) => !isPublicPath(path) && !isDriverPath(path);

export async function rootLoader({ request }: LoaderFunctionArgs): Promise<null> {
  const url = new URL(request.url);
  const result = await guard(url.pathname + url.search, guardDeps);
  if ('redirect' in result) throw redirect(result.redirect);
  const user = useSession.getState().user;
  if (user) {
    const toDriverScreen = driverRedirect(url.pathname, isQrDriver(user));
    if (toDriverScreen) throw redirect(toDriverScreen);
    if (isShellPath(url.pathname)) await loadShell();
  }
  return null;
}

/** The guard runs on every navigation, not only when parameters change. */
export const shouldRevalidate = () => true;

export function RootLayout() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const location = useLocation();
  const navigate = useNavigate();
  const path = location.pathname;
  const search = location.search;

  const product = useProductName();
  useEffect(() => {
    // Public and driver screens name themselves (AuthCard); the shell's screens carry the product name.
    if (!isPublicPath(path) && !isDriverPath(path)) document.title = product;
  }, [path, product]);

  useEffect(() => {
    // Public screens need server info too (registration switch, language, title); when it
    // cannot be loaded the platform is unreachable.
    if (!isPublicPath(path) || path === '/maintenance') return;
    ensureServerInfo().catch(() => navigate(maintenanceRedirect(path + search), { replace: true }));
  }, [path, search, navigate]);

  return (
    <>
      {navigation.state !== 'idle' && <div className="ls-progress" role="progressbar" aria-label={t('app.loading')} />}
      <Outlet />
      <SessionExpiry />
      <PwaPrompt />
    </>
  );
}

/** Shown while the first screen loads (guard + chunks). */
export function BootScreen() {
  const { t } = useTranslation();
  return (
    <main className="auth-screen" aria-busy="true">
      <div className="ls-center boot">
        <div className="ls-spinner" aria-hidden />
        <p>{t('app.loading')}</p>
      </div>
    </main>
  );
}

/** A screen that failed to load or render (often an outdated chunk after an update). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <main className="auth-screen">
      <div className="auth-card ls-stack" role="alert">
        <h1 className="auth-title">{t('app.errorTitle')}</h1>
        <p className="ls-text">{t('app.errorText')}</p>
        <button type="button" className="ls-button" onClick={() => window.location.reload()}>
          {t('app.reload')}
        </button>
      </div>
    </main>
  );
}
