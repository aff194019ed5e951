// The storage end of the pipeline. Positions, their events and device state (status,
// lastUpdate, positionId) are collected for a short while and written in ONE transaction per
// flush — every ~25 ms or every 1,000 items — then ONE batch goes out on the live feed. A
// message's HTTP answer waits for the flush holding its position (`write` resolves after commit).
import { sql, type Transaction } from 'kysely';
import type { Position } from '@rastro/domain/entities';
import type { AppContext } from '../context.ts';
import type { Database } from '../storage/schema.ts';
import { positionToJson } from '../positions/position-json.ts';
import { liveDeviceJson, type DeviceEntry } from './device-cache.ts';
import type { EventDraft } from './event-draft.ts';
import { draftToColumns, type PositionColumns, type PositionDraft } from './position-draft.ts';

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
  get size(): number {
    return this.items.length + this.devices.size;
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
  readonly stats = { flushes: 0, positions: 0, deviceUpdates: 0, failures: 0 };

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
    try {
      rows = await this.commit(batch);
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
    const rows = batch.items.map((i) => draftToColumns(i.position));
    const positionIds = new Map<DeviceEntry, number>();
    await this.ctx.storage.db.transaction().execute(async (trx) => {
      for (let start = 0; start < rows.length; start += CHUNK) {
        const chunk = rows.slice(start, start + CHUNK);
        const returned = await trx.insertInto('positions').values(chunk).returning('id').execute();
        // Ids are handed out in insertion order; sorting makes the pairing independent of
        // the order the database lists RETURNING rows in.
        const ids = returned.map((r) => Number(r.id)).sort((a, b) => a - b);
        for (let k = 0; k < chunk.length; k++) {
          const item = batch.items[start + k]!;
          item.position.id = ids[k]!;
          if (item.latest) positionIds.set(item.entry, ids[k]!);
        }
      }
      await this.insertEvents(trx, batch.items);
      await this.updateDevices(trx, [...batch.devices], positionIds);
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

  /** All device rows of the flush in one UPDATE … FROM (VALUES …) statement per chunk. */
  private async updateDevices(trx: Transaction<Database>, devices: DeviceEntry[], positionIds: Map<DeviceEntry, number>): Promise<void> {
    for (let start = 0; start < devices.length; start += CHUNK) {
      const values = devices.slice(start, start + CHUNK).map((d) => {
        const positionId = positionIds.get(d) ?? d.positionId;
        // Casts give PostgreSQL the column types of the VALUES list; SQLite accepts them too.
        return sql`(cast(${d.id} as bigint), cast(${d.status} as text), cast(${d.lastUpdate} as bigint), cast(${positionId} as bigint))`;
      });
      await sql`with v (id, status, "lastUpdate", "positionId") as (values ${sql.join(values)})
        update devices set status = v.status, "lastUpdate" = v."lastUpdate", "positionId" = v."positionId"
        from v where devices.id = v.id`.execute(trx);
    }
  }

  private publish(batch: Batch, rows: PositionColumns[]): void {
    const positions: Position[] = [];
    batch.items.forEach((item, k) => {
      if (item.latest) positions.push(positionToJson({ id: item.position.id!, ...rows[k]! }));
    });
    const devices = [...batch.devices].map(liveDeviceJson);
    this.ctx.live.publish({
      ...(devices.length > 0 ? { devices } : {}),
      ...(positions.length > 0 ? { positions } : {}),
    });
  }
}
