// The offline-capable worker (vite-plugin-pwa, generateSW, registerType 'prompt'). It is
// registered in production builds only; when a new version is installed and waiting, the
// store's `needRefresh` raises the prompt (pwa-prompt.tsx) whose accept button activates it
// and reloads into it.
import { usePwa } from './pwa-store.ts';

/** A long-lived page (a control room screen) looks for a new version every hour. */
export const UPDATE_CHECK_MS = 60 * 60 * 1000;

export async function registerWorker(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  const { registerSW } = await import('virtual:pwa-register');
  const updateSW = registerSW({
    // Called after the page's load event already.
    immediate: true,
    onNeedRefresh() {
      usePwa.setState({ needRefresh: true, update: () => updateSW(true) });
    },
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS);
    },
    onRegisterError(error: unknown) {
      console.warn('The offline worker could not be registered', error);
    },
  });
}
