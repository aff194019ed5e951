// The running day's statistics of this instance, in memory: counters and the users and
// devices seen, what Traccar's StatisticsManager keeps. Counting is a few additions, no I/O;
// `take` hands over what was counted since the last take (statistics-repo.ts adds it to the
// day's row) — new ids only, since earlier ones are stored already.
//
// Days are UTC days. A count made at or after the day's end first closes the day: what was
// not taken yet leaves as a delta of the day that ended, and counting starts afresh.

export const DAY_MS = 86_400_000;

/** The midnight (UTC) that ends the day holding `instant`: a day's `captureTime`. */
export const dayEnd = (instant: number): number => Math.floor(instant / DAY_MS) * DAY_MS + DAY_MS;

export type Counter = 'requests' | 'messagesReceived' | 'messagesStored' | 'mailSent' | 'smsSent' | 'geocoderRequests' | 'geolocationRequests';

export const COUNTERS: readonly Counter[] = ['requests', 'messagesReceived', 'messagesStored', 'mailSent', 'smsSent', 'geocoderRequests', 'geolocationRequests'];

/** What to add to one day's row. */
export interface DayDelta {
  /** The day: the midnight that ends it. */
  captureTime: number;
  counts: Record<Counter, number>;
  /** Users seen for the first time that day (by this instance, since it started). */
  users: number[];
  /** Devices seen for the first time that day, or heard on another protocol, with the protocol. */
  devices: Array<[deviceId: number, protocol: string]>;
}

const zero = (): Record<Counter, number> => ({
  requests: 0, messagesReceived: 0, messagesStored: 0, mailSent: 0, smsSent: 0, geocoderRequests: 0, geolocationRequests: 0,
});

export function isEmpty(delta: DayDelta): boolean {
  return delta.users.length === 0 && delta.devices.length === 0 && COUNTERS.every((c) => delta.counts[c] === 0);
}

/** `later` added to `earlier` (same day): an unsaved delta and the next one become one. */
export function mergeDeltas(earlier: DayDelta, later: DayDelta): DayDelta {
  const counts = zero();
  for (const c of COUNTERS) counts[c] = earlier.counts[c] + later.counts[c];
  const devices = new Map(earlier.devices);
  for (const [id, protocol] of later.devices) devices.set(id, protocol);
  return { captureTime: earlier.captureTime, counts, users: [...new Set([...earlier.users, ...later.users])], devices: [...devices] };
}

export class DayCounts {
  private end: number;
  private counts = zero();
  /** Every user and device seen today (to tell new ones), devices with their last protocol. */
  private users = new Set<number>();
  private devices = new Map<number, string>();
  /** Seen since the last take. */
  private newUsers: number[] = [];
  private newDevices = new Map<number, string>();
  /** Deltas of days that ended before they were taken. */
  private closed: DayDelta[] = [];

  constructor(now: number) {
    this.end = dayEnd(now);
  }

  /** An API request of a logged-in user (as Traccar, anonymous ones are not counted); the user is active today. */
  request(userId: number, now: number): void {
    this.count('requests', now);
    if (!this.users.has(userId)) {
      this.users.add(userId);
      this.newUsers.push(userId);
    }
  }

  /** A message a device sent, whatever became of it. */
  messageReceived(now: number): void {
    this.count('messagesReceived', now);
  }

  /** A position stored; its device is active today, on that protocol. */
  messageStored(deviceId: number, protocol: string, now: number): void {
    this.count('messagesStored', now);
    if (this.devices.get(deviceId) !== protocol) {
      this.devices.set(deviceId, protocol);
      this.newDevices.set(deviceId, protocol);
    }
  }

  mailSent(now: number): void {
    this.count('mailSent', now);
  }

  /** Closed days first, then today's delta (if anything was counted); nothing stays to take. */
  take(now: number): DayDelta[] {
    this.roll(now);
    const out = this.closed;
    this.closed = [];
    const today = this.pending();
    if (!isEmpty(today)) out.push(today);
    this.counts = zero();
    this.newUsers = [];
    this.newDevices = new Map();
    return out;
  }

  /** The end of the day being counted. */
  get dayEnd(): number {
    return this.end;
  }

  private count(counter: Counter, now: number): void {
    if (now >= this.end) this.roll(now);
    this.counts[counter]++;
  }

  private pending(): DayDelta {
    return { captureTime: this.end, counts: this.counts, users: this.newUsers, devices: [...this.newDevices] };
  }

  private roll(now: number): void {
    if (now < this.end) return;
    const ended = this.pending();
    if (!isEmpty(ended)) this.closed.push(ended);
    this.end = dayEnd(now);
    this.counts = zero();
    this.users = new Set();
    this.devices = new Map();
    this.newUsers = [];
    this.newDevices = new Map();
  }
}
