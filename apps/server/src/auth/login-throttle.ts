// Slows down password guessing: failed logins are counted per account (the login name as
// typed, normalised) and per client address over a sliding window; past the limit further
// attempts are refused with 429 and Retry-After until the oldest failure leaves the window.
// A successful login clears its account's count (not the address's, so one good account
// cannot be used to reset the counter while guessing others).
//
// Counts live in this process's memory: with several instances behind a balancer each one
// counts separately, so the effective limit is multiplied by the number of instances; a
// restart forgets them. That is acceptable for a brake on guessing, not an audit log.
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';
import { ApiError } from '../http/errors.ts';

export interface ThrottleLimits {
  perAccount: number;
  perAddress: number;
  windowMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = { perAccount: 10, perAddress: 30, windowMs: 15 * 60_000 };

/** Failure instants per key, oldest first, never longer than the key's limit. */
class FailureLog {
  private readonly entries = new Map<string, number[]>();

  constructor(private readonly max: number) {}

  recent(key: string, since: number): number[] {
    const list = this.entries.get(key);
    if (!list) return [];
    while (list.length > 0 && list[0]! <= since) list.shift();
    if (list.length === 0) this.entries.delete(key);
    return list;
  }

  add(key: string, now: number, since: number): void {
    const list = this.recent(key, since);
    list.push(now);
    if (list.length > this.max) list.shift();
    if (!this.entries.has(key)) {
      // Bound memory under a spray of distinct names: forget everything stale first.
      if (this.entries.size >= 50_000) this.prune(since);
      this.entries.set(key, list);
    }
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  private prune(since: number): void {
    for (const key of [...this.entries.keys()]) this.recent(key, since);
    if (this.entries.size >= 50_000) this.entries.clear();
  }
}

export class LoginThrottle {
  private readonly accounts: FailureLog;
  private readonly addresses: FailureLog;

  constructor(readonly limits: ThrottleLimits = DEFAULT_LIMITS) {
    this.accounts = new FailureLog(limits.perAccount);
    this.addresses = new FailureLog(limits.perAddress);
  }

  static accountKey(login: string): string {
    return login.trim().toLowerCase();
  }

  /** Throws 429 when the account or the address has used up its failures. */
  check(login: string, address: string | null, now = Date.now()): void {
    const since = now - this.limits.windowMs;
    const blockedUntil = Math.max(
      this.until(this.accounts.recent(LoginThrottle.accountKey(login), since), this.limits.perAccount),
      address ? this.until(this.addresses.recent(address, since), this.limits.perAddress) : 0,
    );
    if (blockedUntil > now) {
      const seconds = Math.max(1, Math.ceil((blockedUntil - now) / 1000));
      throw new ApiError(429, SERVER_ERROR_TEXTS.tooManyAttempts, { 'Retry-After': String(seconds) });
    }
  }

  failed(login: string, address: string | null, now = Date.now()): void {
    const since = now - this.limits.windowMs;
    this.accounts.add(LoginThrottle.accountKey(login), now, since);
    if (address) this.addresses.add(address, now, since);
  }

  succeeded(login: string): void {
    this.accounts.clear(LoginThrottle.accountKey(login));
  }

  /** When a full list's oldest failure leaves the window; 0 when not full. */
  private until(list: number[], limit: number): number {
    return list.length >= limit ? list[0]! + this.limits.windowMs : 0;
  }
}

// One throttle per running server (several run in one process in tests and across restarts).
const throttles = new WeakMap<object, LoginThrottle>();

export function loginThrottle(owner: object): LoginThrottle {
  let throttle = throttles.get(owner);
  if (!throttle) {
    throttle = new LoginThrottle();
    throttles.set(owner, throttle);
  }
  return throttle;
}
