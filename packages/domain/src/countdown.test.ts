import { describe, expect, it } from 'vitest';
import { countdown } from './countdown.ts';

describe('countdown (spec §9 units)', () => {
  const now = 1_700_000_000_000;
  it('uses days above 86,400 s', () => {
    expect(countdown(now + 86_401_000, now)).toEqual({ value: 2, unit: 'days', expired: false });
  });
  it('uses hours above 3,600 s up to a day', () => {
    expect(countdown(now + 86_400_000, now)).toEqual({ value: 24, unit: 'hours', expired: false });
    expect(countdown(now + 3_601_000, now)).toEqual({ value: 2, unit: 'hours', expired: false });
  });
  it('uses minutes above 60 s', () => {
    expect(countdown(now + 3_600_000, now)).toEqual({ value: 60, unit: 'minutes', expired: false });
    expect(countdown(now + 61_000, now)).toEqual({ value: 2, unit: 'minutes', expired: false });
  });
  it('uses seconds at or below 60 s', () => {
    expect(countdown(now + 60_000, now)).toEqual({ value: 60, unit: 'seconds', expired: false });
    expect(countdown(now, now)).toEqual({ value: 0, unit: 'seconds', expired: false });
  });
  it('reports expiry once past the time', () => {
    expect(countdown(now - 1_000, now).expired).toBe(true);
  });
});
