import { describe, expect, it } from 'vitest';
import { deriveErrorCode } from '@rastro/domain/errors';
import { ApiError } from '../http/errors.ts';
import { LoginThrottle } from './login-throttle.ts';

function refusal(fn: () => void): ApiError | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error as ApiError;
  }
}

describe('LoginThrottle', () => {
  const limits = { perAccount: 3, perAddress: 5, windowMs: 60_000 };

  it('blocks an account after its failures, with Retry-After until the oldest expires', () => {
    const t = new LoginThrottle(limits);
    t.failed('Ana@X', '1.1.1.1', 1000);
    t.failed('ana@x ', '1.1.1.2', 2000);
    expect(refusal(() => t.check('ana@x', '9.9.9.9', 3000))).toBeNull();
    t.failed('ANA@x', '1.1.1.3', 3000);
    const error = refusal(() => t.check('ana@x', '9.9.9.9', 4000));
    expect(error?.status).toBe(429);
    expect(deriveErrorCode(error!.message)).toBe('TOO_MANY_ATTEMPTS');
    expect(error?.headers['Retry-After']).toBe('57'); // 1000 + 60000 - 4000
    expect(refusal(() => t.check('other', '9.9.9.9', 4000))).toBeNull();
    // The oldest failure leaves the window.
    expect(refusal(() => t.check('ana@x', '9.9.9.9', 61_001))).toBeNull();
  });

  it('blocks an address across accounts', () => {
    const t = new LoginThrottle(limits);
    for (let i = 0; i < 5; i++) t.failed(`user${i}`, '2.2.2.2', 1000 + i);
    expect(refusal(() => t.check('fresh', '2.2.2.2', 2000))?.status).toBe(429);
    expect(refusal(() => t.check('fresh', '3.3.3.3', 2000))).toBeNull();
  });

  it('clears the account on success but not the address', () => {
    const t = new LoginThrottle(limits);
    for (let i = 0; i < 3; i++) t.failed('bob', '4.4.4.4', 1000);
    t.succeeded('BOB');
    expect(refusal(() => t.check('bob', null, 2000))).toBeNull();
    t.failed('carl', '4.4.4.4', 1000);
    t.failed('dave', '4.4.4.4', 1000);
    expect(refusal(() => t.check('bob', '4.4.4.4', 2000))?.status).toBe(429);
  });
});
