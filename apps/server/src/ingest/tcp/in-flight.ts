// The cap on positions in flight over every device connection of the server (decoded, not yet
// committed and acknowledged): RASTRO_INGEST_IN_FLIGHT. Each connection already holds at most
// HIGH_WATER frames, but 5,000 connections times that is far more than the database needs to
// stay busy, and every position waiting costs memory (its draft, promises, ack). At the cap the
// sessions stop taking frames — over TCP they stop reading, so the bytes stay in the kernel and
// TCP flow control slows the trackers down — and queue here, first come first served. Once the
// commits have brought the count down to `resumeAt` the gate opens again and the queue is woken
// in order until the gate closes; a session that finds it closed again goes to the back, so
// every connection gets its turn.

/** A session held back by the cap; woken when its turn comes (it asks again, frame by frame). */
export interface InFlightWaiter {
  wake(): void;
}

export class InFlightLimit {
  /** Positions in flight now. */
  count = 0;
  /** The most that were in flight at once (tests, the benchmark). */
  peak = 0;
  /** Times a session was held back because the gate was closed. */
  held = 0;
  /** Where the gate opens again: a gap below the cap, so sessions are not paused and resumed for every commit. */
  readonly resumeAt: number;
  private closed = false;
  // Insertion-ordered: the queue, with removal in constant time when a session goes away.
  private readonly waiters = new Set<InFlightWaiter>();

  constructor(readonly limit: number) {
    this.resumeAt = Math.floor((limit * 3) / 4);
  }

  /** Sessions waiting for their turn. */
  get waiting(): number {
    return this.waiters.size;
  }

  /**
   * May `waiter` take a frame now? When not, it is queued (keeping its place if it already is)
   * and woken once the gate opens and the sessions before it had their turn.
   */
  admit(waiter: InFlightWaiter): boolean {
    if (!this.closed) return true;
    if (!this.waiters.has(waiter)) {
      this.waiters.add(waiter);
      this.held++;
    }
    return false;
  }

  /**
   * `n` positions of an admitted frame are on their way. A frame is taken whole, so the count
   * may pass the cap by one frame's positions less one.
   */
  take(n: number): void {
    this.count += n;
    if (this.count > this.peak) this.peak = this.count;
    if (this.count >= this.limit) this.closed = true;
  }

  /** `n` positions are settled (committed, or refused): the gate opens once the count is down to `resumeAt`. */
  release(n: number): void {
    this.count -= n;
    if (this.closed && this.count <= this.resumeAt) {
      this.closed = false;
      this.wakeInOrder();
    }
  }

  /** The session is gone: it no longer waits. */
  forget(waiter: InFlightWaiter): void {
    this.waiters.delete(waiter);
  }

  private wakeInOrder(): void {
    // Stops as soon as the woken take the gate to the cap again; the rest keep their places.
    // (Releases come from commit callbacks, never from within a wake, so this does not nest.)
    for (const waiter of this.waiters) {
      if (this.closed) break;
      this.waiters.delete(waiter);
      waiter.wake();
    }
  }
}
