// The storage end of the pipeline. Positions, their events and device state (status,
// lastUpdate, positionId) are collected for a short while and written in ONE transaction per
// flush — every ~25 ms or every 1,000 items — then ONE batch goes out on the live feed. A
// message's HTTP answer waits for the flush holding its position (`write` resolves after commit).
// Flushes run one at a time, in order, through a WriteStore: the SQLite writer thread, or
// the main connection on PostgreSQL (write-store.ts).
import type { Position } from '@rastro/domain/entities';
import type { AppContext } from '../context.ts';
import { positionToJson } from '../positions/position-json.ts';
import { liveDeviceJson, type DeviceEntry } from './device-cache.ts';
import type { EventDraft } from './event-draft.ts';
import { putDraftValues, type PositionDraft } from './position-draft.ts';
import { KyselyWriteStore, type WriteStore } from './write-store.ts';
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
  intervalMs?: number;
  maxItems?: number;
  /** Where flushes go; by default the server's (`ctx.processing.store`), else the main connection. */
  store?: WriteStore;
}

class Batch {
  readonly items: WriteItem[] = [];
  readonly devices = new Set<DeviceEntry>();
  readonly deviceEvents: DeviceEvent[] = [];
  readonly createdAt = Date.now();
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
  private readonly intervalMs: number;
  private readonly maxItems: number;
  private current: Batch | null = null;
  private timer: NodeJS.Timeout | null = null;
  private flushing = false;
  private kickWhenDone = false;
  private readonly listeners: Array<(batch: FlushedBatch) => void> = [];
  readonly store: WriteStore;
  /** Totals since start, for the benchmark and logs. */
  readonly stats = { flushes: 0, positions: 0, deviceUpdates: 0, failures: 0, commitMs: 0, maxCommitMs: 0 };

  constructor(
    private readonly ctx: AppContext,
    options: WriterOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 25;
    this.maxItems = options.maxItems ?? 1000;
    this.store = options.store ?? ctx.processing?.store ?? new KyselyWriteStore(ctx);
  }

  /** Queues a position (and its device's state); resolves once it is committed. */
  write(item: WriteItem): Promise<void> {
    const batch = this.batch();
    batch.items.push(item);
    batch.devices.add(item.entry);
    this.schedule(batch);
    return batch.done;
  }

  /**
   * Queues a device state change alone (status sweep, filtered messages), with the device's
   * events that have no position (deviceOnline/Unknown, deviceInactive), if any.
   */
  touch(entry: DeviceEntry, events?: readonly EventDraft[]): Promise<void> {
    const batch = this.batch();
    batch.devices.add(entry);
    if (events) for (const event of events) batch.deviceEvents.push({ entry, event });
    this.schedule(batch);
    return batch.done;
  }

  /** Called after each committed flush, before its live batch is published. */
  onFlushed(listener: (batch: FlushedBatch) => void): void {
    this.listeners.push(listener);
  }

  /** Writes whatever is queued and waits until the queue is empty (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.current || this.flushing) {
      const pending = this.current?.done;
      this.kick();
      if (pending) await pending.catch(() => undefined);
      else await new Promise((r) => setTimeout(r, 1));
    }
  }

  private batch(): Batch {
    return (this.current ??= new Batch());
  }

  private schedule(batch: Batch): void {
    if (batch.size >= this.maxItems) this.kick();
    else if (!this.timer && !this.flushing) this.timer = setTimeout(() => this.kick(), this.intervalMs);
  }

  private kick(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (this.flushing) {
      this.kickWhenDone = true;
      return;
    }
    const batch = this.current;
    if (!batch) return;
    this.current = null;
    this.flushing = true;
    void this.flush(batch).finally(() => {
      this.flushing = false;
      const next = this.current;
      if (!next) return;
      if (this.kickWhenDone || next.size >= this.maxItems) {
        this.kickWhenDone = false;
        this.kick();
      } else {
        const wait = Math.max(0, next.createdAt + this.intervalMs - Date.now());
        this.timer = setTimeout(() => this.kick(), wait);
      }
    });
  }

  private async flush(batch: Batch): Promise<void> {
    const started = performance.now();
    try {
      await this.commit(batch);
    } catch (error) {
      // A device deleted while its positions waited makes the insert fail (foreign key);
      // drop that device's items and try once more so the other devices are not lost.
      const retried = await this.retryWithoutRemovedDevices(batch, error);
      if (!retried) {
        this.stats.failures++;
        this.ctx.log.error({ err: error }, 'position writer flush failed');
        batch.reject(error);
        return;
      }
    }
    const took = performance.now() - started;
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
      this.ctx.log.error({ err: error, firstError }, 'position writer retry failed');
      return false;
    }
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
      if (p.network) json.network = p.network;
      if (p.geofenceIds) json.geofenceIds = p.geofenceIds.filter((id) => typeof id === 'number');
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
