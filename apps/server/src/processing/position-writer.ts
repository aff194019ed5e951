// The storage end of the pipeline. Positions, their events and device state (status,
// lastUpdate, positionId) are written in ONE transaction per flush, then ONE batch goes out on
// the live feed. A message's answer waits for the flush holding its position (`write` resolves
// after commit), so the writer commits as a group instead of on a timer: an idle writer flushes
// at the end of the current event-loop turn (everything that arrived in that turn goes
// together), and while a flush commits the next batch gathers and goes as soon as it ends. Light
// load is answered within one commit; heavy load still batches, each transaction within
// `maxItems`. Flushes run one at a time, in order, through a WriteStore: the SQLite writer
// thread, or the main connection on PostgreSQL (write-store.ts).
//
// A database that is away for a while (restart, cut connection, lock, full disk — see
// storage/unavailable.ts) does not fail the positions: the flush keeps its batch and tries again
// after 100 ms, 200 ms, … up to 5 s between attempts, and new positions queue behind it. What the
// writer holds is bounded (`bufferLimit`, RASTRO_INGEST_BUFFER): once full, `admit` refuses new
// messages until the database takes the backlog. Devices wait for their answer meanwhile — an
// acknowledgement still means "committed". At shutdown `drain` waits a bounded time, then gives up
// on what is left and says how much.
import type { Position } from '@rastro/domain/entities';
import type { AppContext } from '../context.ts';
import { geofenceIdList, positionToJson } from '../positions/position-json.ts';
import { liveDeviceJson, type DeviceEntry } from './device-cache.ts';
import type { EventDraft } from './event-draft.ts';
import { putDraftValues, type PositionDraft } from './position-draft.ts';
import { KyselyWriteStore, type WriteStore } from './write-store.ts';
import { bufferFull, notStoredAtShutdown } from './ingest-unavailable.ts';
import { isDatabaseUnavailable } from '../storage/unavailable.ts';
import { POSITION_WIDTH, type FlushRequest } from './writer-protocol.ts';
import { collectMotion, flattenStates, positionRef, type MotionWrite } from '../motion/motion-write.ts';

export interface WriteItem {
  entry: DeviceEntry;
  position: PositionDraft;
  /** The position becomes the device's latest (positionId) and is published. */
  latest: boolean;
  events: EventDraft[];
  /** Hidden device columns to set in the same transaction (Work.deviceColumns). */
  deviceColumns?: Record<string, unknown>;
  /** Trip/stop segments and motion state to store in the same transaction (Work.motion). */
  motion?: MotionWrite;
}

/** An event of a device without a position (status changes, inactivity): stored with positionId 0. */
export interface DeviceEvent {
  entry: DeviceEntry;
  event: EventDraft;
}

/** What one flush stored, for listeners that act after commit (notifications). */
export interface FlushedBatch {
  items: readonly WriteItem[];
  deviceEvents: readonly DeviceEvent[];
}

export interface WriterOptions {
  /** Positions per transaction at most (a device-only batch counts its devices). */
  maxItems?: number;
  /** Where flushes go; by default the server's (`ctx.processing.store`), else the main connection. */
  store?: WriteStore;
  /** Positions held at most (waiting and being written) before `admit` refuses messages; RASTRO_INGEST_BUFFER by default. */
  bufferLimit?: number;
  /** Back-off while the database is unavailable: the first wait, doubled after each failed attempt up to `retryMaxMs`. */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** How long `drain` waits (shutdown) before giving up on what the database has not taken. */
  drainTimeoutMs?: number;
}

/** Back-off between attempts while the database is unavailable, and how long shutdown waits for it. */
export const RETRY_MIN_MS = 100;
export const RETRY_MAX_MS = 5_000;
// Within main.ts's shutdown deadline (5 s), so the give-up is logged before the process exits.
export const DRAIN_TIMEOUT_MS = 3_000;
/** How often a continuing outage or a full buffer is logged again. */
const REMIND_MS = 30_000;

class Batch {
  readonly items: WriteItem[] = [];
  readonly devices = new Set<DeviceEntry>();
  readonly deviceEvents: DeviceEvent[] = [];
  readonly done: Promise<void>;
  resolve!: () => void;
  reject!: (error: unknown) => void;
  constructor() {
    this.done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Device-only batches have nobody waiting; a failure is logged, never unhandled.
    this.done.catch(() => undefined);
  }
  /** Positions decide the size (device rows follow them); a device-only batch counts its devices. */
  get size(): number {
    return this.items.length || this.devices.size;
  }
}

export class PositionWriter {
  private readonly maxItems: number;
  private readonly bufferLimit: number;
  private readonly retryMinMs: number;
  private readonly retryMaxMs: number;
  private readonly drainTimeoutMs: number;
  /** The open batch new items join. */
  private current: Batch | null = null;
  /** Batches closed at maxItems, waiting for their turn, oldest first. */
  private readonly ready: Batch[] = [];
  /** The batch being written (or waiting out its back-off). */
  private inFlight: Batch | null = null;
  /** The flush an idle writer starts at the end of this event-loop turn. */
  private soon: NodeJS.Immediate | null = null;
  /** Since when flushes fail because the database is unavailable; null while they don't. */
  private outageSince: number | null = null;
  private lastReminder = 0;
  private lastFullWarning = 0;
  /** Ends the back-off wait of the batch in flight early (drain giving up). */
  private wake: (() => void) | null = null;
  /** Set once `drain` gave up on the database: nothing more is taken. */
  private stopped = false;
  private readonly listeners: Array<(batch: FlushedBatch) => void> = [];
  readonly store: WriteStore;
  /** Totals since start, for the benchmark and logs. */
  readonly stats = {
    flushes: 0, positions: 0, deviceUpdates: 0, failures: 0, commitMs: 0, maxCommitMs: 0,
    /** Flush attempts that found the database unavailable (each was retried). */
    retries: 0,
    /** Messages refused because the buffer was full. */
    refused: 0,
    /** Positions given up at shutdown while the database was unavailable. */
    abandoned: 0,
  };

  constructor(
    private readonly ctx: AppContext,
    options: WriterOptions = {},
  ) {
    this.maxItems = options.maxItems ?? 1000;
    this.bufferLimit = options.bufferLimit ?? ctx.config.ingestBuffer;
    this.retryMinMs = options.retryMinMs ?? RETRY_MIN_MS;
    this.retryMaxMs = Math.max(this.retryMinMs, options.retryMaxMs ?? RETRY_MAX_MS);
    this.drainTimeoutMs = options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS;
    this.store = options.store ?? ctx.processing?.store ?? new KyselyWriteStore(ctx);
  }

  /** Positions held now: waiting for a flush or being written. */
  get buffered(): number {
    let n = (this.inFlight?.items.length ?? 0) + (this.current?.items.length ?? 0);
    for (const batch of this.ready) n += batch.items.length;
    return n;
  }

  /** True while flushes fail because the database is unavailable (they are being retried). */
  get waitingForDatabase(): boolean {
    return this.outageSince !== null;
  }

  /**
   * Called before a message is processed: throws IngestUnavailable when no position may be
   * taken now (the buffer is full, or shutdown gave up on the database). Positions of messages
   * already admitted are always taken, so the buffer may pass its limit by those few.
   */
  admit(): void {
    if (this.stopped) throw notStoredAtShutdown();
    if (this.buffered < this.bufferLimit) return;
    this.stats.refused++;
    const now = Date.now();
    if (now - this.lastFullWarning >= REMIND_MS) {
      this.lastFullWarning = now;
      this.ctx.log.warn(
        { buffered: this.buffered, limit: this.bufferLimit, refused: this.stats.refused, waitingForDatabase: this.waitingForDatabase },
        'ingest buffer full: device messages are refused until the database catches up',
      );
    }
    throw bufferFull(this.bufferLimit);
  }

  /** Queues a position (and its device's state); resolves once it is committed. */
  write(item: WriteItem): Promise<void> {
    if (this.stopped) return refused();
    const batch = this.batch();
    batch.items.push(item);
    batch.devices.add(item.entry);
    this.schedule();
    return batch.done;
  }

  /**
   * Queues a device state change alone (status sweep, filtered messages), with the device's
   * events that have no position (deviceOnline/Unknown, deviceInactive), if any.
   */
  touch(entry: DeviceEntry, events?: readonly EventDraft[]): Promise<void> {
    if (this.stopped) return refused();
    const batch = this.batch();
    batch.devices.add(entry);
    if (events) for (const event of events) batch.deviceEvents.push({ entry, event });
    this.schedule();
    return batch.done;
  }

  /** Called after each committed flush, before its live batch is published. */
  onFlushed(listener: (batch: FlushedBatch) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Writes whatever is queued and waits until the queue is empty (shutdown, tests) — at most
   * `timeoutMs`: past that (the database is away) what is left is given up, and logged.
   */
  async drain(timeoutMs = this.drainTimeoutMs): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.current || this.ready.length > 0 || this.inFlight) {
      const left = deadline - Date.now();
      if (left <= 0) {
        this.giveUp(timeoutMs);
        return;
      }
      const last = this.current ?? this.ready.at(-1) ?? this.inFlight!;
      this.kick();
      await settledWithin(last.done, left);
    }
  }

  private batch(): Batch {
    // A full batch is closed and the next one opened: each transaction stays within maxItems,
    // however many items arrive in one turn or during one (possibly retried) commit.
    const open = this.current;
    if (open && open.size >= this.maxItems) {
      this.ready.push(open);
      this.current = null;
    }
    return (this.current ??= new Batch());
  }

  /**
   * Group commit. A flush under way takes the next batch itself when it ends; an idle writer
   * flushes on setImmediate — after the I/O callbacks of this turn, so the messages of every
   * connection read in it (and the records of one multi-position frame) share one transaction,
   * at a cost of microseconds.
   */
  private schedule(): void {
    if (this.inFlight || this.soon) return;
    this.soon = setImmediate(() => {
      this.soon = null;
      this.kick();
    });
  }

  /** Starts the next flush unless one is under way (which then starts it when it ends). */
  private kick(): void {
    if (this.soon) {
      clearImmediate(this.soon);
      this.soon = null;
    }
    if (this.inFlight) return;
    const batch = this.ready.shift() ?? this.current;
    if (!batch) return;
    if (batch === this.current) this.current = null;
    this.inFlight = batch;
    void this.flush(batch).finally(() => {
      this.inFlight = null;
      // What gathered during this commit goes at once.
      this.kick();
    });
  }

  private async flush(batch: Batch): Promise<void> {
    let delay = this.retryMinMs;
    let took: number;
    for (;;) {
      const started = performance.now();
      try {
        await this.commitOrDropRemoved(batch);
        took = performance.now() - started;
        break;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) {
          this.endOutage();
          this.stats.failures++;
          this.ctx.log.error({ err: error }, 'position writer flush failed');
          batch.reject(error);
          return;
        }
        if (!this.stopped) {
          this.noteOutage(error, delay);
          await this.pause(delay);
          delay = Math.min(delay * 2, this.retryMaxMs);
        }
        if (this.stopped) {
          this.abandon(batch);
          return;
        }
      }
    }
    this.endOutage();
    this.stats.commitMs += took;
    this.stats.maxCommitMs = Math.max(this.stats.maxCommitMs, took);
    this.stats.flushes++;
    this.stats.positions += batch.items.length;
    this.stats.deviceUpdates += batch.devices.size;
    batch.resolve();
    try {
      for (const listener of this.listeners) listener(batch);
      this.publish(batch);
    } catch (error) {
      this.ctx.log.error({ err: error }, 'live publish after flush failed');
    }
  }

  /** Commits the batch; on a foreign-key failure, once more without the devices removed meanwhile. */
  private async commitOrDropRemoved(batch: Batch): Promise<void> {
    try {
      await this.commit(batch);
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      // A device deleted while its positions waited makes the insert fail (foreign key);
      // drop that device's items and try once more so the other devices are not lost.
      if (!(await this.retryWithoutRemovedDevices(batch, error))) throw error;
    }
  }

  /** True when the batch, less the devices removed meanwhile, was committed on a second try. */
  private async retryWithoutRemovedDevices(batch: Batch, firstError: unknown): Promise<boolean> {
    const ids = [...new Set([...batch.items.map((i) => i.entry.id), ...[...batch.devices].map((d) => d.id)])];
    if (ids.length === 0) return false;
    try {
      const existing = new Set(
        (await this.ctx.storage.db.selectFrom('devices').select('id').where('id', 'in', ids).execute()).map((r) => Number(r.id)),
      );
      if (existing.size === ids.length) return false;
      const kept = batch.items.filter((i) => existing.has(i.entry.id));
      batch.items.splice(0, batch.items.length, ...kept);
      const keptEvents = batch.deviceEvents.filter((e) => existing.has(e.entry.id));
      batch.deviceEvents.splice(0, batch.deviceEvents.length, ...keptEvents);
      for (const d of [...batch.devices]) if (!existing.has(d.id)) batch.devices.delete(d);
      await this.commit(batch);
      return true;
    } catch (error) {
      // The database went away in between: the whole flush waits and tries again.
      if (isDatabaseUnavailable(error)) throw error;
      this.ctx.log.error({ err: error, firstError }, 'position writer retry failed');
      return false;
    }
  }

  private noteOutage(error: unknown, delay: number): void {
    this.stats.retries++;
    const now = Date.now();
    if (this.outageSince === null) {
      this.outageSince = now;
      this.lastReminder = now;
      this.ctx.log.warn(
        { err: error, buffered: this.buffered, limit: this.bufferLimit, retryInMs: delay },
        'database unavailable: the position writer keeps its positions and retries',
      );
    } else if (now - this.lastReminder >= REMIND_MS) {
      this.lastReminder = now;
      this.ctx.log.warn(
        { err: error, downMs: now - this.outageSince, buffered: this.buffered, limit: this.bufferLimit, refused: this.stats.refused },
        'database still unavailable: the position writer keeps retrying',
      );
    }
  }

  private endOutage(): void {
    if (this.outageSince === null) return;
    this.ctx.log.info(
      { downMs: Date.now() - this.outageSince, retries: this.stats.retries, refused: this.stats.refused, buffered: this.buffered },
      'database available again: the position writer resumed',
    );
    this.outageSince = null;
  }

  /** Waits `ms`, or less when drain gives up meanwhile. */
  private pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** Drain ran out of time: stop taking positions and fail every batch still waiting. */
  private giveUp(timeoutMs: number): void {
    this.stopped = true;
    if (this.soon) {
      clearImmediate(this.soon);
      this.soon = null;
    }
    const waiting = [...this.ready, ...(this.current ? [this.current] : [])];
    this.ready.length = 0;
    this.current = null;
    // The batch in flight fails at its next attempt: at once when it is waiting out a back-off;
    // one being written right now may still commit.
    const inFlight = this.inFlight?.items.length ?? 0;
    const backingOff = this.wake !== null;
    const notStored = waiting.reduce((n, b) => n + b.items.length, 0) + (backingOff ? inFlight : 0);
    const stillWriting = backingOff ? 0 : inFlight;
    for (const batch of waiting) this.abandon(batch);
    this.wake?.();
    this.ctx.log.error(
      { notStored, stillWriting, waitedMs: timeoutMs, waitingForDatabase: this.waitingForDatabase },
      `position writer stopped waiting for the database: ${notStored} positions were not stored` +
        (stillWriting > 0 ? ` (${stillWriting} more were still being written)` : ''),
    );
  }

  private abandon(batch: Batch): void {
    this.stats.failures++;
    this.stats.abandoned += batch.items.length;
    batch.reject(notStoredAtShutdown());
  }

  /** One transaction: positions (ids back in order), events, device rows. */
  private async commit(batch: Batch): Promise<void> {
    const items = batch.items;
    const positions = new Array<unknown>(items.length * POSITION_WIDTH);
    const events: unknown[] = [];
    const latest = new Map<DeviceEntry, number>();
    let deviceColumns: unknown[] | undefined;
    let segments: unknown[] | undefined;
    let motionStates: Map<number, unknown[]> | undefined;
    for (let i = 0, k = 0; i < items.length; i++) {
      const item = items[i]!;
      k = putDraftValues(positions, k, item.position);
      for (const e of item.events) {
        // EVENT_COLUMNS order; the position's index stands for its id until it has one.
        const at = e.position ? positionRef(items, i, e.position) : i;
        events.push(e.type, e.eventTime, item.entry.id, at, e.geofenceId, e.maintenanceId, JSON.stringify(e.attributes));
      }
      if (item.motion) collectMotion(items, i, item.entry.id, item.motion, (segments ??= []), (motionStates ??= new Map()));
      if (item.latest) latest.set(item.entry, i);
      if (item.deviceColumns) {
        deviceColumns ??= [];
        for (const column in item.deviceColumns) deviceColumns.push(item.entry.id, column, item.deviceColumns[column]);
      }
    }
    for (const { entry, event: e } of batch.deviceEvents) {
      events.push(e.type, e.eventTime, entry.id, -1, e.geofenceId, e.maintenanceId, JSON.stringify(e.attributes));
    }
    const devices: unknown[] = [];
    for (const d of batch.devices) devices.push(d.id, d.status, d.lastUpdate, d.positionId, latest.get(d) ?? -1);
    const request: FlushRequest = { positions, events, devices, ...(deviceColumns ? { deviceColumns } : {}) };
    if (segments) request.segments = segments;
    if (motionStates) request.motionStates = flattenStates(motionStates);

    const { positionIds, eventIds } = await this.store.commit(request);
    if (positionIds.length !== items.length) throw new Error(`stored ${items.length} positions, got ${positionIds.length} ids`);
    let e = 0;
    for (let i = 0; i < items.length; i++) {
      const item = items[i]!;
      item.position.id = positionIds[i]!;
      for (const event of item.events) event.id = eventIds[e++] ?? null;
    }
    for (const { event } of batch.deviceEvents) event.id = eventIds[e++] ?? null;
    for (const [entry, i] of latest) {
      const id = positionIds[i]!;
      // Another writer (PUT …/accumulators) may have stored a newer latest meanwhile.
      if (entry.positionId === null || id > entry.positionId) entry.positionId = id;
    }
  }

  private publish(batch: Batch): void {
    const positions: Position[] = [];
    for (const item of batch.items) {
      if (!item.latest) continue;
      const p = item.position;
      // positionToJson maps every column; the attribute, network and geofence values are still
      // in hand, so they are attached as they are instead of serialising and parsing them back.
      const json = positionToJson({
        id: p.id!, deviceId: p.deviceId, protocol: p.protocol, serverTime: p.serverTime, deviceTime: p.deviceTime,
        fixTime: p.fixTime, valid: p.valid ? 1 : 0, latitude: p.latitude, longitude: p.longitude, altitude: p.altitude,
        speed: p.speed, course: p.course, address: p.address, accuracy: p.accuracy, network: null, geofenceIds: null,
        attributes: '',
      });
      json.network = p.network ?? null;
      json.geofenceIds = geofenceIdList(p.geofenceIds);
      json.attributes = p.attributes;
      positions.push(json);
    }
    const devices = [...batch.devices].map(liveDeviceJson);
    this.ctx.live.publish({
      ...(devices.length > 0 ? { devices } : {}),
      ...(positions.length > 0 ? { positions } : {}),
    });
  }
}

/** A promise already failed, without an unhandled rejection should nobody await it. */
function refused(): Promise<void> {
  const p = Promise.reject(notStoredAtShutdown());
  p.catch(() => undefined);
  return p;
}

/** Waits for `promise` to settle, or `ms`, whichever comes first. */
function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = () => {
      clearTimeout(timer);
      resolve();
    };
    promise.then(done, done);
  });
}
