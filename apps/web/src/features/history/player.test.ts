import { describe, expect, it } from 'vitest';
import { playerReducer, type PlayerState } from './player.ts';

const at = (index: number, playing = false): PlayerState => ({ count: 5, index, playing, speed: 1 });

describe('route player', () => {
  it('plays point by point and pauses on the last one', () => {
    let s = playerReducer(at(2), { type: 'toggle' });
    expect(s.playing).toBe(true);
    s = playerReducer(s, { type: 'tick' });
    expect(s).toMatchObject({ index: 3, playing: true });
    s = playerReducer(s, { type: 'tick' });
    expect(s).toMatchObject({ index: 4, playing: false });
    expect(playerReducer(s, { type: 'tick' })).toBe(s);
  });

  it('starts over when play is pressed at the end', () => {
    expect(playerReducer(at(4), { type: 'toggle' })).toMatchObject({ index: 0, playing: true });
  });

  it('steps and seeks within the route, stepping pauses', () => {
    expect(playerReducer(at(0, true), { type: 'step', by: -1 })).toMatchObject({ index: 0, playing: false });
    expect(playerReducer(at(3), { type: 'step', by: 5 }).index).toBe(4);
    expect(playerReducer(at(0), { type: 'seek', index: 2.6 }).index).toBe(3);
  });

  it('keeps only the offered speeds and resets on a new route', () => {
    expect(playerReducer(at(0), { type: 'speed', speed: 8 }).speed).toBe(8);
    expect(playerReducer(at(0), { type: 'speed', speed: 3 }).speed).toBe(1);
    expect(playerReducer(at(3, true), { type: 'reset', count: 9 })).toMatchObject({ count: 9, index: 0, playing: false });
    expect(playerReducer({ count: 1, index: 0, playing: false, speed: 1 }, { type: 'toggle' }).playing).toBe(false);
  });
});
