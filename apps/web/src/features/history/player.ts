// The route player: an index into the route's points that moves one point per tick while
// playing. Speeds are multiples of one point per 500 ms; play at the end starts over; the last
// point pauses. A pure reducer (tested) driven by usePlayer's timer.
import { useEffect, useReducer } from 'react';

export const PLAYER_SPEEDS = [1, 2, 4, 8, 16, 32] as const;
export const BASE_STEP_MS = 500;

export interface PlayerState {
  count: number;
  index: number;
  playing: boolean;
  speed: number;
}

export type PlayerAction =
  | { type: 'reset'; count: number }
  | { type: 'toggle' }
  | { type: 'pause' }
  | { type: 'tick' }
  | { type: 'step'; by: number }
  | { type: 'seek'; index: number }
  | { type: 'speed'; speed: number };

const clamp = (i: number, count: number) => Math.max(0, Math.min(count - 1, Math.round(i)));

export function playerReducer(s: PlayerState, a: PlayerAction): PlayerState {
  switch (a.type) {
    case 'reset':
      return { ...s, count: a.count, index: 0, playing: false };
    case 'toggle':
      if (s.count < 2) return s;
      if (s.playing) return { ...s, playing: false };
      return { ...s, playing: true, index: s.index >= s.count - 1 ? 0 : s.index };
    case 'pause':
      return s.playing ? { ...s, playing: false } : s;
    case 'tick': {
      if (!s.playing) return s;
      const index = Math.min(s.index + 1, s.count - 1);
      return { ...s, index, playing: index < s.count - 1 };
    }
    case 'step':
      return s.count === 0 ? s : { ...s, playing: false, index: clamp(s.index + a.by, s.count) };
    case 'seek':
      return s.count === 0 ? s : { ...s, index: clamp(a.index, s.count) };
    case 'speed':
      return (PLAYER_SPEEDS as readonly number[]).includes(a.speed) ? { ...s, speed: a.speed } : s;
  }
}

export function usePlayer(count: number) {
  const [state, dispatch] = useReducer(playerReducer, { count, index: 0, playing: false, speed: 1 });
  useEffect(() => dispatch({ type: 'reset', count }), [count]);
  useEffect(() => {
    if (!state.playing) return;
    const timer = setInterval(() => dispatch({ type: 'tick' }), BASE_STEP_MS / state.speed);
    return () => clearInterval(timer);
  }, [state.playing, state.speed]);
  return [state, dispatch] as const;
}
