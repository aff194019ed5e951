import { describe, expect, it } from 'vitest';
import { waitForServer } from './wait-for-server.ts';

/** A probe answering from a script: an instance name, or 'down' (a refused connection). */
function script(answers: string[]) {
  const asked: string[] = [];
  let clock = 0;
  return {
    asked,
    probe: async () => {
      const next = answers.shift() ?? 'down';
      asked.push(next);
      if (next === 'down') throw new Error('refused');
      return next;
    },
    sleep: async (ms: number) => {
      clock += ms;
    },
    now: () => clock,
  };
}

describe('waiting for the restarted server', () => {
  it('is back once another instance answers, even without ever seeing it down', async () => {
    const s = script(['old', 'old', 'new']);
    expect(await waitForServer({ previous: 'old', timeoutMs: 60_000, ...s })).toBe('back');
    expect(s.asked).toEqual(['old', 'old', 'new']);
  });

  it('keeps waiting while the old instance answers after the server went down', async () => {
    const s = script(['down', 'old', 'down', 'new']);
    expect(await waitForServer({ previous: 'old', timeoutMs: 60_000, ...s })).toBe('back');
    expect(s.asked).toHaveLength(4);
  });

  it('with a server that names no instance (Traccar), is back when it answers after failing to', async () => {
    const s = script(['', '', 'down', 'down', '']);
    expect(await waitForServer({ previous: null, timeoutMs: 60_000, ...s })).toBe('back');
    expect(s.asked).toEqual(['', '', 'down', 'down', '']);
  });

  it('says late when the server stays away past the patience, and stops when cancelled', async () => {
    const s = script([]);
    expect(await waitForServer({ previous: 'old', timeoutMs: 5_000, intervalMs: 1_000, ...s })).toBe('late');
    expect(s.asked).toHaveLength(5);
    const controller = new AbortController();
    controller.abort();
    expect(await waitForServer({ previous: 'old', timeoutMs: 5_000, signal: controller.signal, ...script(['new']) })).toBe('cancelled');
  });
});
