// A least-recently-used cache of fixed capacity (spec §9: the marker image cache holds 100
// entries). A Map keeps insertion order, so re-inserting on every read makes the first key the
// least recently used one; setting past capacity evicts it and reports it to `onEvict`.

export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number, private readonly onEvict?: (key: K, value: V) => void) {
    if (!(capacity >= 1)) throw new Error('LRU capacity must be at least 1');
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value (marking it most recently used), or undefined. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key)!;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    if (this.entries.has(key)) this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as K;
      const evicted = this.entries.get(oldest)!;
      this.entries.delete(oldest);
      this.onEvict?.(oldest, evicted);
    }
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  /** Keys from least to most recently used. */
  keys(): K[] {
    return [...this.entries.keys()];
  }
}
