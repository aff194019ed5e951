// The processing pipeline: decoded message -> device -> steps -> storage writer. Messages of
// one device are processed strictly in order (a per-device queue); the steps of one message
// usually run synchronously, so the hot path allocates little and never reads the database.
import type { AppContext } from '../context.ts';
import type { DecodedMessage } from '../ingest/decoded.ts';
import { isUsable, type DeviceCache, type DeviceEntry } from './device-cache.ts';
import { KeyedQueue } from './keyed-queue.ts';
import { rememberToken } from './notification-token.ts';
import { draftFromFix } from './position-draft.ts';
import type { PositionWriter } from './position-writer.ts';
import type { Step, Work } from './work.ts';
import { statusEvent } from '../events/status-events.ts';
import { serverStatistics } from '../statistics/server-statistics.ts';

export type SubmitResult =
  /** No such device, or it is disabled or expired: nothing was stored. */
  | { kind: 'unknown' }
  /** Stored (committed) — or acknowledged and dropped by a filter (`dropped` says why). */
  | { kind: 'stored' | 'dropped'; entry: DeviceEntry; work: Work };

/** How long shutdown waits for messages in processing steps (a stuck lookup must not hold it). */
const SETTLE_TIMEOUT_MS = 3_000;

export class Pipeline {
  private readonly queue = new KeyedQueue<number>();
  /** Messages taken and not yet handed to the writer (shutdown waits for them: `settle`). */
  private processing = 0;
  private settled: Array<() => void> = [];
  /** Counters for logs and the benchmark. */
  readonly stats = { received: 0, unknown: 0, dropped: 0 };

  constructor(
    private readonly ctx: AppContext,
    readonly devices: DeviceCache,
    readonly writer: PositionWriter,
    readonly steps: Step[],
    /** `event.status.enable`: a device coming online raises deviceOnline. */
    private readonly statusEvents = false,
  ) {}

  /**
   * Processes one message; resolves once its position is stored (or known to be dropped).
   * Rejects with IngestUnavailable, before anything about the device changes, when the writer
   * holds all the positions it may (the database is behind or away): the device sends again later.
   */
  async submit(message: DecodedMessage, receivedAt = Date.now()): Promise<SubmitResult> {
    this.writer.admit();
    this.stats.received++;
    serverStatistics(this.ctx).messageReceived();
    // Counted from here until the writer has the position (shutdown waits for them: `settle`).
    this.processing++;
    let taken: { entry: DeviceEntry; processed: Processed } | null;
    try {
      taken = await this.take(message, receivedAt);
    } finally {
      if (--this.processing === 0) for (const done of this.settled.splice(0)) done();
    }
    if (!taken) return { kind: 'unknown' };
    const { entry, processed: { work, stored } } = taken;
    await stored;
    if (work.dropped) {
      this.stats.dropped++;
      return { kind: 'dropped', entry, work };
    }
    return { kind: 'stored', entry, work };
  }

  /** The device's lookup and the message's steps, up to handing the position to the writer; null for an unknown device. */
  private async take(message: DecodedMessage, receivedAt: number): Promise<{ entry: DeviceEntry; processed: Processed } | null> {
    const entry = this.devices.get(message.uniqueId) ?? (await this.devices.find(message.uniqueId));
    if (!entry || !isUsable(entry, receivedAt)) {
      this.stats.unknown++;
      return null;
    }
    // The queue only holds the processing; waiting for the commit happens outside it, so
    // the device's next message is processed while this one's flush is pending.
    return { entry, processed: await this.queue.run(entry.id, () => this.process(entry, message, receivedAt)) };
  }

  /**
   * Resolves once every message already taken has been handed to the writer (at most
   * `timeoutMs`): shutdown and restart wait for it before the writer drains, so a position in a
   * slow step (a lookup, a geocoder) when the ports close is still written.
   */
  async settle(timeoutMs = SETTLE_TIMEOUT_MS): Promise<void> {
    if (this.processing === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const idle = new Promise<void>((resolve) => this.settled.push(resolve));
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([idle, late]);
    clearTimeout(timer);
    if (this.processing > 0) this.ctx.log.warn({ processing: this.processing }, 'messages still processing at shutdown were not waited for');
  }

  /**
   * The device spoke: `online` and `lastUpdate` now, with deviceOnline when it was not online
   * and `event.status.enable` is on. `store` writes the device row when its status changed and
   * nothing else will (a tracker's login or heartbeat without a position); while it stays online
   * only the in-memory `lastUpdate` moves, which is what the status sweep reads.
   */
  deviceSpoke(entry: DeviceEntry, now: number, store: boolean): void {
    const changed = entry.status !== 'online';
    const event = changed && this.statusEvents ? statusEvent(entry.status, 'online', now) : null;
    entry.status = 'online';
    entry.lastUpdate = now;
    if (event || (store && changed)) void this.writer.touch(entry, event ? [event] : undefined).catch(() => undefined);
  }

  private process(entry: DeviceEntry, message: DecodedMessage, now: number): Processed | Promise<Processed> {
    if (message.notificationToken) {
      const token = message.notificationToken;
      return rememberToken(this.ctx, entry, token).then(
        () => this.process(entry, { ...message, notificationToken: undefined }, now),
        (error: unknown) => {
          this.ctx.log.warn({ err: error }, 'could not store notification token');
          return this.process(entry, { ...message, notificationToken: undefined }, now);
        },
      );
    }
    if (!entry.lastLoaded) return this.devices.ensureLast(entry).then(() => this.process(entry, message, now));

    // Every message from a device counts as a sign of life, even one a filter drops; the
    // position's write stores the device row.
    this.deviceSpoke(entry, now, false);
    const work: Work = {
      entry,
      position: draftFromFix(message.fix, entry.id, now),
      previous: entry.last,
      latest: false,
      events: [],
      dropped: null,
      now,
    };
    const pending = this.runSteps(work, 0);
    return pending ? pending.then(() => this.finish(work)) : this.finish(work);
  }

  /** Runs steps from `index`; returns a promise only when some step is asynchronous. */
  private runSteps(work: Work, index: number): Promise<void> | undefined {
    for (let i = index; i < this.steps.length; i++) {
      if (work.dropped) return undefined;
      const result = this.steps[i]!.run(work);
      if (result instanceof Promise) return result.then(() => this.runSteps(work, i + 1));
    }
    return undefined;
  }

  private finish(work: Work): Processed {
    if (work.dropped) return { work, stored: this.writer.touch(work.entry) };
    if (work.latest) work.entry.last = work.position;
    return {
      work,
      stored: this.writer.write({
        entry: work.entry, position: work.position, latest: work.latest, events: work.events, deviceColumns: work.deviceColumns, motion: work.motion,
      }),
    };
  }
}

interface Processed {
  work: Work;
  stored: Promise<void>;
}
