import { describe, expect, it } from 'vitest';
import { deriveErrorCode } from '@rastro/domain/errors';
import { ApiError } from '../http/errors.ts';
import { clientNetwork, LoginThrottle } from './login-throttle.ts';

/** The 429 thrown by `check`, or the delay it answered. */
function outcome(fn: () => number): ApiError | number {
  try {
    return fn();
  } catch (error) {
    return error as ApiError;
  }
}
const refused = (o: ApiError | number): o is ApiError => o instanceof ApiError;

describe('LoginThrottle', () => {
  const limits = { windowMs: 60_000, perPair: 3, perAddress: 5, accountSlowAfter: 4, baseDelayMs: 100, maxDelayMs: 1000 };

  it('refuses an (account, address) pair after its failures, with Retry-After until the oldest expires', () => {
    const t = new LoginThrottle(limits);
    t.failed('Ana@X', '1.1.1.1', 1000);
    t.failed('ana@x ', '1.1.1.1', 2000);
    expect(t.check('ana@x', '1.1.1.1', 3000)).toBe(0);
    t.failed('ANA@x', '1.1.1.1', 3000);
    const error = outcome(() => t.check('ana@x', '1.1.1.1', 4000));
    expect(refused(error) && error.status).toBe(429);
    expect(refused(error) && deriveErrorCode(error.message)).toBe('TOO_MANY_ATTEMPTS');
    expect(refused(error) && error.headers['Retry-After']).toBe('57'); // 1000 + 60000 - 4000
    // The same account from elsewhere, and another account from there, are not refused.
    expect(t.check('ana@x', '9.9.9.9', 4000)).toBe(0);
    expect(t.check('other', '1.1.1.1', 4000)).toBe(0);
    // The oldest failure leaves the window.
    expect(t.check('ana@x', '1.1.1.1', 61_001)).toBe(0);
  });

  it('refuses an address across accounts', () => {
    const t = new LoginThrottle(limits);
    for (let i = 0; i < 5; i++) t.failed(`user${i}`, '2.2.2.2', 1000 + i);
    expect(refused(outcome(() => t.check('fresh', '2.2.2.2', 2000)))).toBe(true);
    expect(t.check('fresh', '3.3.3.3', 2000)).toBe(0);
  });

  it('never refuses an account hammered from many addresses, but slows it with a growing delay', () => {
    const t = new LoginThrottle(limits);
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      delays.push(t.check('boss', '7.7.7.7', 1000 + i));
      t.failed('boss', `6.6.6.${i}`, 1000 + i);
    }
    expect(delays).toEqual([0, 0, 0, 0, 100, 200, 400, 800, 1000, 1000]);
    expect(t.check('boss', '7.7.7.7', 2000)).toBe(1000);
    // Once the failures leave the window, the brake is off.
    expect(t.check('boss', '7.7.7.7', 1000 + 60_000 + 10)).toBe(0);
  });

  it('clears the pair on success, not the address nor the account pressure', () => {
    const t = new LoginThrottle(limits);
    for (let i = 0; i < 3; i++) t.failed('bob', '4.4.4.4', 1000);
    t.succeeded('BOB', '4.4.4.4');
    expect(t.check('bob', '4.4.4.4', 2000)).toBe(0);
    t.failed('carl', '4.4.4.4', 1000);
    t.failed('dave', '4.4.4.4', 1000);
    expect(refused(outcome(() => t.check('bob', '4.4.4.4', 2000)))).toBe(true);
    const u = new LoginThrottle(limits);
    for (let i = 0; i < 5; i++) u.failed('eve', `5.5.5.${i}`, 1000);
    u.succeeded('eve', '5.5.5.9');
    expect(u.check('eve', '5.5.5.9', 2000)).toBe(200);
  });

  it('counts IPv6 clients by their /64 and IPv4-mapped addresses as IPv4', () => {
    expect(clientNetwork('2001:db8:1:2::1')).toBe('2001:0db8:0001:0002::/64');
    expect(clientNetwork('2001:DB8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:0db8:0001:0002::/64');
    expect(clientNetwork('::1')).toBe('0000:0000:0000:0000::/64');
    expect(clientNetwork('64:ff9b::192.0.2.1')).toBe('0064:ff9b:0000:0000::/64');
    expect(clientNetwork('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(clientNetwork('10.0.0.1')).toBe('10.0.0.1');
    const t = new LoginThrottle(limits);
    for (let i = 0; i < 3; i++) t.failed('six', `2001:db8:1:2::${i}`, 1000);
    expect(refused(outcome(() => t.check('six', '2001:db8:1:2:aaaa::1', 2000)))).toBe(true);
    expect(t.check('six', '2001:db8:1:3::1', 2000)).toBe(0);
  });
});
