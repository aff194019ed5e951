// Counts recent events per key over a sliding window (failed logins, recovery mails): the
// instants of the newest `keep` events of each key, in this process's memory.

/** Beyond this many keys, stale ones are dropped first, then everything (a spray of names). */
const MAX_KEYS = 50_000;

export class SlidingWindow {
  private readonly entries = new Map<string, number[]>();

  constructor(
    readonly windowMs: number,
    /** How many instants per key are kept: at least the largest limit asked about. */
    private readonly keep: number,
  ) {}

  /** Events of the key within the window ending at `now`. */
  count(key: string, now: number): number {
    return this.recent(key, now).length;
  }

  /** When the key falls below `limit` events again; 0 when it already is. */
  freeAt(key: string, limit: number, now: number): number {
    const list = this.recent(key, now);
    if (list.length < limit) return 0;
    // The oldest event that must leave the window for the count to drop below the limit.
    return list[list.length - limit]! + this.windowMs;
  }

  add(key: string, now: number): void {
    const list = this.recent(key, now);
    list.push(now);
    if (list.length > this.keep) list.shift();
    if (!this.entries.has(key)) {
      if (this.entries.size >= MAX_KEYS) this.prune(now);
      this.entries.set(key, list);
    }
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const list = this.entries.get(key);
    if (!list) return [];
    const since = now - this.windowMs;
    while (list.length > 0 && list[0]! <= since) list.shift();
    if (list.length === 0) this.entries.delete(key);
    return list;
  }

  private prune(now: number): void {
    for (const key of [...this.entries.keys()]) this.recent(key, now);
    if (this.entries.size >= MAX_KEYS) this.entries.clear();
  }
}
