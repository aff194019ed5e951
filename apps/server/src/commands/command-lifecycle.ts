// What happens to a command after it was sent (the queue and live delivery mark "sent"):
// - acknowledged: the device's next `commandResult` (its reply, a position attribute `result`)
//   after the command was sent answers the oldest command still waiting for one (one a
//   position confirmed before its reply came still waits for it: the reply is stored on it);
// - confirmed: a later latest position shows the effect (`blocked` true after an engine stop,
//   false after an engine resume), within the timeout after the reply;
// - failed: no reply within RASTRO_COMMAND_TIMEOUT of sending.
//
// Replies and effects are read after commit from the position writer's flushes (the events
// engine raised `commandResult` there). Replies are rare and always looked at; `blocked`
// (which many trackers put on every position) only for devices known to await a confirmation:
// one Set lookup per stored position. The set is a hint refreshed from the database by the
// periodic job, so a command sent through another instance is followed too. The timeouts are
// stored rows (`status` + `sentTime`) checked by that job, never an in-memory timer: a restart
// loses none, and several instances running the same conditional UPDATE agree.
import type { AppContext } from '../context.ts';
import { asBoolean } from '../events/attribute-lookup.ts';
import type { FlushedBatch } from '../processing/position-writer.ts';
import { CommandLogRepo } from './command-log-repo.ts';

/** A reply or an effect seen on a stored position. */
interface Observation {
  deviceId: number;
  /** The position's server time: only commands sent at or before it count. */
  at: number;
  result?: string;
  blocked?: boolean;
}

/** How often the job runs: often enough for the timeout's precision, never busier than 4 times a second. */
export function sweepInterval(timeoutMs: number): number {
  return Math.min(5_000, Math.max(250, Math.floor(timeoutMs / 4)));
}

export class CommandLifecycle {
  private readonly log: CommandLogRepo;
  private readonly timeoutMs: number;
  /** Devices with a command awaiting a reply or a confirmation (a hint: a miss costs one query). */
  private readonly awaiting = new Set<number>();
  /** Devices marked while a refresh read the database (the refresh must not drop them). */
  private markedDuringRefresh: Set<number> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  /** Observations are applied one batch after the other, in flush order. */
  private chain: Promise<void> = Promise.resolve();
  /** Runs of the job, one after the other. */
  private sweeping: Promise<void> = Promise.resolve();
  private pendingSweeps = 0;
  /**
   * Live sends under way, per device: their row is stored once the bytes are written, and a
   * device answering at once must not find it missing. The device's observations wait for them.
   */
  private readonly liveSends = new Map<number, Promise<void>>();

  constructor(private readonly ctx: AppContext) {
    this.log = new CommandLogRepo(ctx.storage.db);
    this.timeoutMs = ctx.config.commands.timeout * 1000;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    // The writer has no way to remove a listener: a stopped lifecycle ignores its calls.
    this.ctx.processing?.writer.onFlushed((batch) => {
      if (this.running) this.observe(batch);
    });
    await this.sweep();
    this.timer = setInterval(() => {
      // A run still under way (the database is slow or away) is not queued behind again.
      if (this.pendingSweeps > 0) return;
      this.sweep().catch((error: unknown) => this.ctx.log.warn({ err: error }, 'command lifecycle job failed'));
    }, sweepInterval(this.timeoutMs));
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.settled();
  }

  /** A command was handed to the device: its replies and positions are watched from now on. */
  noteSent(deviceId: number): void {
    this.awaiting.add(deviceId);
    this.markedDuringRefresh?.add(deviceId);
  }

  /**
   * A live send to the device is under way until `done` settles (see `liveSends`). Its positions
   * are watched from now on: one showing the effect may come before the row is stored.
   */
  sending(deviceId: number, done: Promise<unknown>): void {
    this.noteSent(deviceId);
    const own = done.then(() => undefined, () => undefined);
    const prior = this.liveSends.get(deviceId);
    const all = prior ? Promise.all([prior, own]).then(() => undefined) : own;
    this.liveSends.set(deviceId, all);
    void all.then(() => {
      if (this.liveSends.get(deviceId) === all) this.liveSends.delete(deviceId);
    });
  }

  isAwaiting(deviceId: number): boolean {
    return this.awaiting.has(deviceId);
  }

  /** Resolves once every observation seen so far is stored (tests, shutdown). */
  async settled(): Promise<void> {
    await this.chain;
    await this.sweeping.catch(() => undefined);
  }

  /** Reads replies and effects off a committed flush (synchronous: runs on the writer's path). */
  private observe(batch: FlushedBatch): void {
    let found: Observation[] | null = null;
    for (const item of batch.items) {
      // Out-of-order positions raise no commandResult and show no current state.
      if (!item.latest) continue;
      const reply = item.events.length > 0 ? item.events.find((e) => e.type === 'commandResult') : undefined;
      const blocked = this.awaiting.has(item.entry.id) ? asBoolean(item.position.attributes.blocked) : undefined;
      if (!reply && blocked === undefined) continue;
      const observation: Observation = { deviceId: item.entry.id, at: item.position.serverTime };
      if (reply) observation.result = String(reply.attributes.result ?? '');
      if (blocked !== undefined) observation.blocked = blocked;
      (found ??= []).push(observation);
    }
    if (!found) return;
    const observations = found;
    this.chain = this.chain
      .then(() => this.apply(observations))
      .catch((error: unknown) => this.ctx.log.warn({ err: error }, 'could not store a command reply'));
  }

  private async apply(observations: Observation[]): Promise<void> {
    for (const o of observations) {
      const send = this.liveSends.get(o.deviceId);
      if (send) await send;
      // The reply first: a report carrying both the reply and the effect acknowledges, then confirms.
      if (o.result !== undefined) await this.log.acknowledge(o.deviceId, o.result, o.at, this.timeoutMs);
      if (o.blocked !== undefined) await this.log.confirm(o.deviceId, o.blocked, o.at, this.timeoutMs);
    }
  }

  /**
   * The periodic job: fails sent commands past the timeout, closes the confirmation window of
   * acknowledged ones, and re-reads which devices await something. Safe on several instances.
   */
  sweep(now?: number): Promise<void> {
    this.pendingSweeps++;
    const run = this.sweeping
      .catch(() => undefined)
      .then(() => this.sweepNow(now ?? Date.now()))
      .finally(() => this.pendingSweeps--);
    this.sweeping = run;
    return run;
  }

  private async sweepNow(now: number): Promise<void> {
    const failed = await this.log.failTimedOut(now, this.timeoutMs);
    if (failed > 0) this.ctx.log.info({ count: failed }, 'commands failed: no reply from the device in time');
    await this.log.closeUnconfirmed(now, this.timeoutMs);
    this.markedDuringRefresh = new Set();
    try {
      const devices = await this.log.awaitingDevices();
      this.awaiting.clear();
      for (const id of devices) this.awaiting.add(id);
      for (const id of this.markedDuringRefresh) this.awaiting.add(id);
    } finally {
      this.markedDuringRefresh = null;
    }
  }
}
