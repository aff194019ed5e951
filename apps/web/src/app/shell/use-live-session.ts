// Runs the live session (socket + store) while the shell is up; stops it when a shared session
// expires. Returns a function that loads devices and positions again.
import { useCallback, useEffect, useRef } from 'react';
import { startLiveSession, type LiveSession } from '../../live/live-session.ts';
import { useSession } from '../session-store.ts';

export function useLiveSession(userId: number | null, isAdmin: boolean): () => void {
  const session = useRef<LiveSession | null>(null);
  const expired = useSession((s) => s.expired);

  useEffect(() => {
    if (userId === null || expired) return;
    const live = startLiveSession({ isAdmin });
    session.current = live;
    return () => {
      live.stop();
      if (session.current === live) session.current = null;
    };
  }, [userId, isAdmin, expired]);

  return useCallback(() => void session.current?.reload(), []);
}
