import { describe, expect, it } from 'vitest';
import { sweepInterval } from './command-lifecycle.ts';

describe('command lifecycle job', () => {
  it('runs a few times per timeout, at most every 5 s and at least every 250 ms', () => {
    expect(sweepInterval(120_000)).toBe(5_000);
    expect(sweepInterval(8_000)).toBe(2_000);
    expect(sweepInterval(1_000)).toBe(250);
    expect(sweepInterval(100)).toBe(250);
  });
});
