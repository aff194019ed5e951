// The navigation guard of spec §2: public routes pass; otherwise load server info, then the
// session (remembered login or cookie), then the user's data. Failures send the person to
// /login?to=… (/motorista?to=… for driver routes), or to /maintenance when the server
// cannot be reached (with ?to= so it can come back by itself).

export interface GuardDeps {
  hasSession(): boolean;
  loadServerInfo(): Promise<void>;
  restoreSession(): Promise<void>;
  loadUserData(): Promise<void>;
}

export type GuardResult = { allow: true } | { redirect: string };

const PUBLIC_PATHS = [/^\/login(\/.*)?$/, /^\/share\/[^/]+$/, /^\/register$/, /^\/motorista$/, /^\/maintenance$/];
const DRIVER_PATHS = [/^\/qr-driver(\/scan\/[^/]+)?$/];

export const isPublicPath = (path: string) => PUBLIC_PATHS.some((r) => r.test(path));
export const isDriverPath = (path: string) => DRIVER_PATHS.some((r) => r.test(path));

export function loginRedirect(pathWithSearch: string): string {
  const path = pathWithSearch.split('?')[0] ?? '/';
  const base = isDriverPath(path) ? '/motorista' : '/login';
  return `${base}?to=${encodeURIComponent(pathWithSearch)}`;
}

/** Only same-site paths may be returned to after login (no open redirects). */
export function safeReturnPath(to: string | null): string | null {
  if (!to || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return null;
  if (isPublicPath(to.split('?')[0] ?? '')) return null;
  return to;
}

/** Where /maintenance returns to: any same-site path except itself (public ones included). */
export function safeMaintenanceReturn(to: string | null): string | null {
  if (!to || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return null;
  if (/^\/maintenance(\?|$)/.test(to)) return null;
  return to;
}

export const maintenanceRedirect = (pathWithSearch: string) => `/maintenance?to=${encodeURIComponent(pathWithSearch)}`;

/** QR drivers see only their screen (spec §6): any other session route sends them there. */
export function driverRedirect(path: string, isQrDriver: boolean): string | null {
  if (!isQrDriver || isPublicPath(path) || isDriverPath(path)) return null;
  return '/qr-driver';
}

export async function guard(pathWithSearch: string, deps: GuardDeps): Promise<GuardResult> {
  const path = pathWithSearch.split('?')[0] ?? '/';
  if (isPublicPath(path) || deps.hasSession()) return { allow: true };
  try {
    await deps.loadServerInfo();
  } catch {
    return { redirect: maintenanceRedirect(pathWithSearch) };
  }
  try {
    await deps.restoreSession();
    await deps.loadUserData();
  } catch {
    return { redirect: loginRedirect(pathWithSearch) };
  }
  return { allow: true };
}
