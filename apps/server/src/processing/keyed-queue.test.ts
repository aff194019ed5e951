import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue.ts';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('KeyedQueue', () => {
  it('runs tasks of one key strictly in order even when earlier ones are slower', async () => {
    const q = new KeyedQueue<number>();
    const seen: number[] = [];
    const all = [30, 1, 10, 0, 5].map((delay, i) =>
      q.run(1, async () => {
        await tick(delay);
        seen.push(i);
      }),
    );
    await Promise.all(all);
    expect(seen).toEqual([0, 1, 2, 3, 4]);
    expect(q.busyKeys).toBe(0);
  });

  it('runs synchronous tasks at once and keeps other keys independent', async () => {
    const q = new KeyedQueue<number>();
    const seen: string[] = [];
    const slow = q.run(1, async () => {
      await tick(20);
      seen.push('a1');
    });
    const sync = q.run(2, () => {
      seen.push('b1');
      return 7;
    });
    expect(seen).toEqual(['b1']);
    expect(await sync).toBe(7);
    await slow;
    expect(seen).toEqual(['b1', 'a1']);
  });

  it('a failing task does not block the next one of its key', async () => {
    const q = new KeyedQueue<number>();
    const failed = q.run(1, async () => {
      await tick(5);
      throw new Error('boom');
    });
    const next = q.run(1, () => 'ok');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ok');
  });
});
