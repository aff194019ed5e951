// Shared (visitor) sessions end at the user's expirationTime (spec §4, §9). The countdown
// ticks every second; when it passes zero the session is cleared (DELETE /api/session) and
// the store's `expired` flag raises the "session expired" dialog (session-expiry.tsx).
import { useEffect, useState } from 'react';
import type { User } from '@rastro/domain/entities';
import { countdown, type Countdown } from '@rastro/domain/countdown';
import { isSharedUser } from '@rastro/domain/permissions';
import { api } from '../api/http.ts';
import { REMEMBER_KEY } from '../features/auth/auth-api.ts';
import { useSession } from './session-store.ts';

/** When a shared user's session ends (ms), or null for everyone else. */
export function shareExpiration(user: User | null): number | null {
  if (!user || !isSharedUser(user) || !user.expirationTime) return null;
  const ms = Date.parse(user.expirationTime);
  return Number.isFinite(ms) ? ms : null;
}

let expiring = false;

/** Ends the shared session once: the server session is deleted and the dialog comes up. */
export async function expireSession(): Promise<void> {
  if (expiring || useSession.getState().expired) return;
  expiring = true;
  useSession.getState().setExpired(true);
  localStorage.removeItem(REMEMBER_KEY);
  await api.delete('/session').catch(() => undefined);
}

/**
 * The signed-in shared user's remaining time, re-computed every second (null when the user is
 * not a shared one). Expires the session when it runs out, so any screen showing it (the
 * header) and the root layout agree. Render it with the `countdown.<unit>` texts.
 */
export function useShareCountdown(): Countdown | null {
  const expiration = useSession((s) => shareExpiration(s.user));
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    if (expiration === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [expiration]);

  const value = expiration === null ? null : countdown(expiration, now);
  const expired = value?.expired === true;
  useEffect(() => {
    if (expired) void expireSession();
  }, [expired]);
  return value;
}

/** Test helper: forget that a session was expired in this page. */
export function resetExpiryForTests(): void {
  expiring = false;
}
