// The cap on positions in flight: sessions are admitted until it is reached, then queued and
// woken first come first served once commits bring the count down to `resumeAt`.
import { describe, expect, it } from 'vitest';
import { InFlightLimit, type InFlightWaiter } from './in-flight.ts';

/** A session that, when woken, takes `perWake` positions if admitted (and is queued again if not). */
function session(limit: InFlightLimit, name: string, woken: string[], perWake = 1): InFlightWaiter {
  const waiter: InFlightWaiter = {
    wake() {
      woken.push(name);
      for (let i = 0; i < perWake && limit.admit(waiter); i++) limit.take(1);
    },
  };
  return waiter;
}

describe('InFlightLimit', () => {
  it('admits until the cap, then queues sessions once each, in order', () => {
    const limit = new InFlightLimit(4);
    const woken: string[] = [];
    const [a, b] = [session(limit, 'a', woken), session(limit, 'b', woken)];
    for (let i = 0; i < 4; i++) {
      expect(limit.admit(a)).toBe(true);
      limit.take(1);
    }
    expect(limit.admit(b)).toBe(false);
    expect(limit.admit(a)).toBe(false);
    expect(limit.admit(b)).toBe(false);
    expect(limit.waiting).toBe(2);
    expect(limit.held).toBe(2);
    expect(limit.peak).toBe(4);
  });

  it('opens again only at resumeAt, waking the queue in order until the cap is reached again', () => {
    const limit = new InFlightLimit(4);
    expect(limit.resumeAt).toBe(3);
    const woken: string[] = [];
    const sessions = ['a', 'b', 'c', 'd'].map((name) => session(limit, name, woken));
    limit.take(4);
    for (const s of sessions) expect(limit.admit(s)).toBe(false);
    // 4 → 3 is resumeAt: one position of room, so only the first in the queue gets its turn.
    limit.release(1);
    expect(woken).toEqual(['a']);
    expect(limit.count).toBe(4);
    expect(limit.waiting).toBe(3);
    limit.release(2);
    expect(woken).toEqual(['a', 'b', 'c']);
    // The last one keeps its place; a session refused anew goes behind it.
    expect(limit.admit(sessions[0]!)).toBe(false);
    limit.release(4);
    expect(woken).toEqual(['a', 'b', 'c', 'd', 'a']);
    expect(limit.waiting).toBe(0);
    expect(limit.peak).toBe(4);
  });

  it('passes the cap by one frame at most: a frame is taken whole', () => {
    const limit = new InFlightLimit(10);
    const woken: string[] = [];
    const s = session(limit, 's', woken);
    expect(limit.admit(s)).toBe(true);
    limit.take(8);
    expect(limit.admit(s)).toBe(true);
    limit.take(5);
    expect(limit.count).toBe(13);
    expect(limit.admit(s)).toBe(false);
  });

  it('forgets a session that went away', () => {
    const limit = new InFlightLimit(1);
    const woken: string[] = [];
    const [a, b] = [session(limit, 'a', woken), session(limit, 'b', woken)];
    limit.take(1);
    limit.admit(a);
    limit.admit(b);
    limit.forget(a);
    limit.release(1);
    expect(woken).toEqual(['b']);
  });
});
