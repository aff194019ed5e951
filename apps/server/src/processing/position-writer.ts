// The storage end of the pipeline. Positions, their events and device state (status,
// lastUpdate, positionId) are collected for a short while and written in ONE transaction per
// flush — every ~25 ms or every 1,000 items — then ONE batch goes out on the live feed. A
// message's HTTP answer waits for the flush holding its position (`write` resolves after commit).
import type { Transaction } from 'kysely';
import type { Position } from '@rastro/domain/entities';
import type { AppContext } from '../context.ts';
import type { Database } from '../storage/schema.ts';
import { positionToJson } from '../positions/position-json.ts';
import { liveDeviceJson, type DeviceEntry } from './device-cache.ts';
import type { EventDraft } from './event-draft.ts';
import { draftToColumns, type PositionColumns, type PositionDraft } from './position-draft.ts';
import { insertPositionsQuery, updateDevicesQuery } from './writer-sql.ts';

export interface WriteItem {
  entry: DeviceEntry;
  position: PositionDraft;
  /** The position becomes the device's latest (positionId) and is published. */
  latest: boolean;
  events: EventDraft[];
}

/** What one flush stored, for listeners that act after commit (notifications). */
export interface FlushedBatch {
  items: readonly WriteItem[];
}

export interface WriterOptions {
  intervalMs?: number;
  maxItems?: number;
}

/** Rows per statement: 16 position columns × 1,000 stays under both databases' parameter limits. */
const CHUNK = 1000;

class Batch {
  readonly items: WriteItem[] = [];
  readonly devices = new Set<DeviceEntry>();
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
  /** Totals since start, for the benchmark and logs. */
  readonly stats = { flushes: 0, positions: 0, deviceUpdates: 0, failures: 0, commitMs: 0, maxCommitMs: 0 };

  constructor(
    private readonly ctx: AppContext,
    options: WriterOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 25;
    this.maxItems = options.maxItems ?? 1000;
  }

  /** Queues a position (and its device's state); resolves once it is committed. */
  write(item: WriteItem): Promise<void> {
    const batch = this.batch();
    batch.items.push(item);
    batch.devices.add(item.entry);
    this.schedule(batch);
    return batch.done;
  }

  /** Queues a device state change alone (status sweep, filtered messages). */
  touch(entry: DeviceEntry): Promise<void> {
    const batch = this.batch();
    batch.devices.add(entry);
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
    let rows: PositionColumns[];
    const started = performance.now();
    try {
      rows = await this.commit(batch);
      const took = performance.now() - started;
      this.stats.commitMs += took;
      this.stats.maxCommitMs = Math.max(this.stats.maxCommitMs, took);
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
      rows = retried;
    }
    this.stats.flushes++;
    this.stats.positions += batch.items.length;
    this.stats.deviceUpdates += batch.devices.size;
    batch.resolve();
    try {
      for (const listener of this.listeners) listener(batch);
      this.publish(batch, rows);
    } catch (error) {
      this.ctx.log.error({ err: error }, 'live publish after flush failed');
    }
  }

  private async retryWithoutRemovedDevices(batch: Batch, firstError: unknown): Promise<PositionColumns[] | null> {
    const ids = [...new Set(batch.items.map((i) => i.entry.id))];
    if (ids.length === 0) return null;
    try {
      const existing = new Set(
        (await this.ctx.storage.db.selectFrom('devices').select('id').where('id', 'in', ids).execute()).map((r) => r.id),
      );
      if (existing.size === ids.length) return null;
      const kept = batch.items.filter((i) => existing.has(i.entry.id));
      batch.items.splice(0, batch.items.length, ...kept);
      for (const d of [...batch.devices]) if (!existing.has(d.id)) batch.devices.delete(d);
      return await this.commit(batch);
    } catch (error) {
      this.ctx.log.error({ err: error, firstError }, 'position writer retry failed');
      return null;
    }
  }

  /** One transaction: positions (ids back in order), events, device rows. */
  private async commit(batch: Batch): Promise<PositionColumns[]> {
    const dialect = this.ctx.storage.dialect;
    const rows = batch.items.map((i) => draftToColumns(i.position));
    const positionIds = new Map<DeviceEntry, number>();
    await this.ctx.storage.db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += CHUNK) {
        const chunk = rows.slice(start, start + CHUNK);
        const returned = await trx.executeQuery(insertPositionsQuery(dialect, chunk));
        // Ids are handed out in insertion order; sorting makes the pairing independent of
        // the order the database lists RETURNING rows in.
        const ids = returned.rows.map((r) => Number(r.id)).sort((a, b) => a - b);
        if (ids.length !== chunk.length) throw new Error(`inserted ${chunk.length} positions, got ${ids.length} ids`);
        for (let k = 0; k < chunk.length; k++) {
          const item = batch.items[start + k]!;
          item.position.id = ids[k]!;
          if (item.latest) positionIds.set(item.entry, ids[k]!);
        }
      }
      await this.insertEvents(trx, batch.items);
      const devices = [...batch.devices];
      for (let start = 0; start < devices.length; start += CHUNK) {
        const states = devices.slice(start, start + CHUNK).map((d) => ({
          id: d.id, status: d.status, lastUpdate: d.lastUpdate, positionId: positionIds.get(d) ?? d.positionId,
        }));
        await trx.executeQuery(updateDevicesQuery(dialect, states));
      }
    });
    for (const [entry, id] of positionIds) entry.positionId = id;
    return rows;
  }

  private async insertEvents(trx: Transaction<Database>, items: readonly WriteItem[]): Promise<void> {
    const pairs: Array<[WriteItem, EventDraft]> = [];
    for (const item of items) for (const event of item.events) pairs.push([item, event]);
    for (let start = 0; start < pairs.length; start += CHUNK) {
      const chunk = pairs.slice(start, start + CHUNK);
      const returned = await trx
        .insertInto('events')
        .values(
          chunk.map(([item, e]) => ({
            type: e.type,
            eventTime: e.eventTime,
            deviceId: item.entry.id,
            positionId: item.position.id ?? 0,
            geofenceId: e.geofenceId,
            maintenanceId: e.maintenanceId,
            attributes: JSON.stringify(e.attributes),
          })),
        )
        .returning('id')
        .execute();
      const ids = returned.map((r) => Number(r.id)).sort((a, b) => a - b);
      chunk.forEach(([, e], k) => (e.id = ids[k]!));
    }
  }

  private publish(batch: Batch, rows: PositionColumns[]): void {
    const positions: Position[] = [];
    batch.items.forEach((item, k) => {
      if (!item.latest) return;
      // positionToJson maps every column; the attribute and network objects are still in
      // hand, so they are attached as they are instead of parsing back what was just written.
      const json = positionToJson({ ...rows[k]!, id: item.position.id!, attributes: '', network: null });
      json.attributes = item.position.attributes;
      if (item.position.network) json.network = item.position.network;
      positions.push(json);
    });
    const devices = [...batch.devices].map(liveDeviceJson);
    this.ctx.live.publish({
      ...(devices.length > 0 ? { devices } : {}),
      ...(positions.length > 0 ? { positions } : {}),
    });
  }
}
