import { describe, expect, it } from 'vitest';
import { LiveFeed } from './live.ts';
import { LOG_WISH_EXPIRE_MS, LogWish, logWish } from './log-wish.ts';

describe('log wish', () => {
  it('is on while this instance or another one wants logs, and lets a silent instance lapse', () => {
    let now = 1_000;
    const live = new LiveFeed();
    const wish = new LogWish(live, () => now);
    const told: boolean[] = [];
    wish.onLocalChange = (w) => told.push(w);
    expect(live.logsWanted).toBe(false);
    wish.setLocal(true);
    wish.setLocal(true);
    expect([live.logsWanted, told]).toEqual([true, [true]]);
    wish.setLocal(false);
    expect([live.logsWanted, told]).toEqual([false, [true, false]]);

    wish.setRemote('b', true);
    expect(live.logsWanted).toBe(true);
    now += LOG_WISH_EXPIRE_MS - 1;
    wish.expire();
    expect(live.logsWanted).toBe(true);
    wish.setRemote('b', true); // renewed
    now += LOG_WISH_EXPIRE_MS - 1;
    wish.expire();
    expect(live.logsWanted).toBe(true);
    now += 1;
    wish.expire();
    expect(live.logsWanted).toBe(false);

    wish.setRemote('c', true);
    wish.setRemote('c', false);
    expect(live.logsWanted).toBe(false);
    // Remote wishes never count as this instance's own.
    expect(told).toEqual([true, false]);
  });

  it('one per live feed', () => {
    const live = new LiveFeed();
    expect(logWish(live)).toBe(logWish(live));
    expect(logWish(new LiveFeed())).not.toBe(logWish(live));
  });
});
