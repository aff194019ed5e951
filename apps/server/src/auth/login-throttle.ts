// Slows down password guessing without handing attackers a way to lock people out. Failed
// logins are counted over a sliding window:
//  - per (login name, client network) pair: past `perPair` that pair gets 429 + Retry-After;
//  - per client network, whatever the names: past `perAddress` that network gets 429;
//  - per login name, from everywhere: past `accountSlowAfter` every attempt on that name waits a
//    delay that doubles with each further failure (up to `maxDelayMs`) - it is never refused, so
//    the owner logging in from their own address still gets in while someone hammers the
//    account from elsewhere. The delay is the same for every caller and comes before the
//    password is checked, so it tells nothing about the password.
// A successful login clears its pair (not the network's count, so one good account cannot be
// used to reset the counter while guessing others, nor the name's, so the owner's login does
// not lift the brake for the attacker).
//
// A client network is the address itself for IPv4 and its /64 for IPv6 (one subscriber gets a
// whole /64). The address is `req.ip`: X-Forwarded-For counts only from RASTRO_TRUST_PROXY peers.
//
// Counts live in this process's memory: with several instances behind a balancer each one
// counts separately, so the effective limits are multiplied by the number of instances; a
// restart forgets them. That is acceptable for a brake on guessing, not an audit log.
import net from 'node:net';
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';
import { ApiError } from '../http/errors.ts';
import { normalizeAddress } from '../weather/ip-address.ts';
import { SlidingWindow } from './rate-window.ts';

export interface ThrottleLimits {
  windowMs: number;
  /** Failures of one login name from one network before that pair is refused. */
  perPair: number;
  /** Failures from one network, any login names, before the network is refused. */
  perAddress: number;
  /** Failures of one login name, from anywhere, before attempts on it are slowed down. */
  accountSlowAfter: number;
  /** The first delay; each further failure doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_LIMITS: ThrottleLimits = {
  windowMs: 15 * 60_000,
  perPair: 5,
  perAddress: 30,
  accountSlowAfter: 10,
  baseDelayMs: 100,
  maxDelayMs: 3_000,
};

export class LoginThrottle {
  private readonly pairs: SlidingWindow;
  private readonly networks: SlidingWindow;
  private readonly accounts: SlidingWindow;

  constructor(readonly limits: ThrottleLimits = DEFAULT_LIMITS) {
    this.pairs = new SlidingWindow(limits.windowMs, limits.perPair);
    this.networks = new SlidingWindow(limits.windowMs, limits.perAddress);
    // Enough failures kept to reach the longest delay.
    const doublings = Math.ceil(Math.log2(Math.max(1, limits.maxDelayMs / Math.max(1, limits.baseDelayMs))));
    this.accounts = new SlidingWindow(limits.windowMs, limits.accountSlowAfter + doublings + 1);
  }

  static accountKey(login: string): string {
    return login.trim().toLowerCase();
  }

  /**
   * Throws 429 when the pair or the network has used up its failures; otherwise answers how
   * long (ms) to wait before checking the password, under pressure on the account.
   */
  check(login: string, address: string | null, now = Date.now()): number {
    const account = LoginThrottle.accountKey(login);
    const network = address ? clientNetwork(address) : null;
    const blockedUntil = Math.max(
      this.pairs.freeAt(pairKey(account, network), this.limits.perPair, now),
      network ? this.networks.freeAt(network, this.limits.perAddress, now) : 0,
    );
    if (blockedUntil > now) {
      const seconds = Math.max(1, Math.ceil((blockedUntil - now) / 1000));
      throw new ApiError(429, SERVER_ERROR_TEXTS.tooManyAttempts, { 'Retry-After': String(seconds) });
    }
    const excess = this.accounts.count(account, now) - this.limits.accountSlowAfter;
    return excess < 0 ? 0 : Math.min(this.limits.maxDelayMs, this.limits.baseDelayMs * 2 ** excess);
  }

  failed(login: string, address: string | null, now = Date.now()): void {
    const account = LoginThrottle.accountKey(login);
    const network = address ? clientNetwork(address) : null;
    this.pairs.add(pairKey(account, network), now);
    this.accounts.add(account, now);
    if (network) this.networks.add(network, now);
  }

  succeeded(login: string, address: string | null): void {
    this.pairs.clear(pairKey(LoginThrottle.accountKey(login), address ? clientNetwork(address) : null));
  }
}

const pairKey = (account: string, network: string | null) => `${network ?? '-'} ${account}`;

/** The network a client address stands for: IPv4 as is, IPv6 as its /64. */
export function clientNetwork(address: string): string {
  const ip = normalizeAddress(address);
  if (net.isIP(ip) !== 6) return ip;
  const groups = expandIpv6(ip);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : ip;
}

/** The eight 16-bit groups of an IPv6 address (zone dropped, embedded IPv4 converted). */
function expandIpv6(ip: string): string[] | null {
  let text = ip.toLowerCase().split('%')[0]!;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => g.padStart(4, '0'));
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
