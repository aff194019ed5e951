// This instance's statistics (GET /api/statistics): counted in memory as things happen
// (day-counts.ts), added to the day's stored row every FLUSH_MS, at the end of each UTC day,
// and on shutdown, so a stop or a restart loses nothing and a crash at most FLUSH_MS of
// counts. Nothing is written per request or per message.
//
// What is counted, as Traccar's StatisticsManager: API requests of logged-in users (and those
// users), device messages handed to processing (known devices or not), positions stored (and
// their devices with the protocol), e-mails sent. Rastro sends no SMS and has no geocoder or
// geolocation service, so those counters stay 0.
//
// A flush that fails (the database is away) keeps its deltas and adds them at the next one.
import type { AppContext } from '../context.ts';
import type { FlushedBatch } from '../processing/position-writer.ts';
import { DayCounts, mergeDeltas, type DayDelta } from './day-counts.ts';
import { addToDay, pruneSeen } from './statistics-repo.ts';

/** How often the running day's counts are stored. */
export const FLUSH_MS = 60_000;

export class ServerStatistics {
  private readonly counts: DayCounts;
  /** Deltas a failed flush could not store, by day. */
  private unsaved = new Map<number, DayDelta>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  /** The day whose end the seen ids were last pruned for. */
  private prunedFor = 0;

  constructor(
    private readonly ctx: Pick<AppContext, 'storage' | 'log'>,
    private readonly now: () => number = Date.now,
  ) {
    this.counts = new DayCounts(now());
  }

  request(userId: number): void {
    this.counts.request(userId, this.now());
  }

  messageReceived(): void {
    this.counts.messageReceived(this.now());
  }

  /** A committed flush of the position writer: its positions are stored. */
  stored(batch: FlushedBatch): void {
    const now = this.now();
    for (const item of batch.items) this.counts.messageStored(item.entry.id, item.position.protocol, now);
  }

  mailSent(): void {
    this.counts.mailSent(this.now());
  }

  /** Flushes every FLUSH_MS and right after each midnight (UTC). */
  start(): void {
    if (this.timer) return;
    const schedule = () => {
      const now = this.now();
      const wait = Math.max(0, Math.min(FLUSH_MS, this.counts.dayEnd - now));
      this.timer = setTimeout(() => {
        void this.flush().finally(() => {
          if (this.timer) schedule();
        });
      }, wait);
      this.timer.unref();
    };
    schedule();
  }

  /** Stops the timer and stores what is left (shutdown). */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flush();
  }

  /** Stores what was counted since the last flush; flushes run one after the other. */
  flush(): Promise<void> {
    // After the previous one, whatever its outcome.
    this.flushing = this.flushing.then(() => this.store(), () => this.store());
    return this.flushing;
  }

  private async store(): Promise<void> {
    for (const delta of this.counts.take(this.now())) {
      const earlier = this.unsaved.get(delta.captureTime);
      this.unsaved.set(delta.captureTime, earlier ? mergeDeltas(earlier, delta) : delta);
    }
    for (const [day, delta] of [...this.unsaved].sort((a, b) => a[0] - b[0])) {
      try {
        await addToDay(this.ctx.storage.db, delta);
        this.unsaved.delete(day);
      } catch (error) {
        this.ctx.log.warn({ err: error }, 'statistics not stored; retried at the next flush');
        return;
      }
    }
    // Once a day: the ids of days long over are no longer needed.
    if (this.prunedFor !== this.counts.dayEnd) {
      this.prunedFor = this.counts.dayEnd;
      await pruneSeen(this.ctx.storage.db, this.counts.dayEnd).catch(() => undefined);
    }
  }
}

const instances = new WeakMap<AppContext, ServerStatistics>();

/** The server's statistics; counting works from the first use, storing once `start` ran (services.ts). */
export function serverStatistics(ctx: AppContext): ServerStatistics {
  let instance = instances.get(ctx);
  if (!instance) {
    instance = new ServerStatistics(ctx);
    instances.set(ctx, instance);
  }
  return instance;
}
