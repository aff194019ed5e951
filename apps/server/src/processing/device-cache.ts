// The devices the pipeline knows, in memory, keyed by uniqueId: loaded once at start and
// kept fresh from `ctx.changes`, so no message costs a database read to find its device.
// Each entry also carries the device's run-time state (status, lastUpdate, latest position)
// which belongs to the pipeline and survives reloads of the row.
import type { Device, DeviceStatus } from '@rastro/domain/entities';
import type { AppContext } from '../context.ts';
import { deviceToJson, type DeviceRow } from '../devices/device-json.ts';
import { toIso } from '../http/json.ts';
import { draftFromRow, type PositionDraft } from './position-draft.ts';

export interface DeviceEntry {
  id: number;
  uniqueId: string;
  row: DeviceRow;
  /** API JSON of `row`, built once per load (device attributes are parsed once, not per message). */
  json: Device;
  status: DeviceStatus | null;
  lastUpdate: number | null;
  positionId: number | null;
  /** The device's latest position; valid once `lastLoaded`. */
  last: PositionDraft | null;
  lastLoaded: boolean;
}

/** Disabled or expired devices are refused like unknown ones. */
export function isUsable(entry: DeviceEntry, now: number): boolean {
  return entry.row.disabled !== 1 && (entry.row.expirationTime === null || entry.row.expirationTime > now);
}

/** The device as the sockets must see it now (cached JSON + run-time state). */
export function liveDeviceJson(entry: DeviceEntry): Device {
  return {
    ...entry.json,
    status: entry.status ?? 'offline',
    lastUpdate: toIso(entry.lastUpdate),
    positionId: entry.positionId,
  };
}

export class DeviceCache {
  private readonly byUnique = new Map<string, DeviceEntry>();
  private readonly byIdMap = new Map<number, DeviceEntry>();
  private readonly pending = new Set<Promise<void>>();
  /** Latest reload request per device; an older answer arriving late is ignored. */
  private readonly reloadSeq = new Map<number, number>();
  private seq = 0;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly ctx: AppContext) {}

  async start(): Promise<void> {
    const rows = await this.ctx.storage.db.selectFrom('devices').selectAll().execute();
    for (const row of rows) this.put(row);
    this.unsubscribe = this.ctx.changes.on((change) => {
      if (change.kind === 'device') this.track(this.reload(change.id));
      else if (change.kind === 'deviceRemoved') this.remove(change.id);
    });
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  get(uniqueId: string): DeviceEntry | undefined {
    return this.byUnique.get(uniqueId);
  }

  byId(id: number): DeviceEntry | undefined {
    return this.byIdMap.get(id);
  }

  entries(): IterableIterator<DeviceEntry> {
    return this.byIdMap.values();
  }

  /**
   * Looks a device up, first letting in-flight reloads finish when it is not known yet: a
   * device created a moment ago through the API is found without any database read.
   */
  async find(uniqueId: string): Promise<DeviceEntry | undefined> {
    const hit = this.byUnique.get(uniqueId);
    if (hit || this.pending.size === 0) return hit;
    await Promise.all([...this.pending]);
    return this.byUnique.get(uniqueId);
  }

  /** Loads the device's latest stored position when the device first sends (and after another writer stored a newer one). */
  async ensureLast(entry: DeviceEntry): Promise<void> {
    if (entry.lastLoaded) return;
    if (entry.positionId !== null) {
      const row = await this.ctx.storage.db
        .selectFrom('positions')
        .selectAll()
        .where('id', '=', entry.positionId)
        .executeTakeFirst();
      // Replace only a stored position by a newer stored one: a position still waiting for
      // its flush (id null) is by definition the newest and stays.
      const current = entry.last;
      if (row && (current === null || (current.id !== null && row.id > current.id))) entry.last = draftFromRow(row);
    }
    entry.lastLoaded = true;
  }

  private track(promise: Promise<void>): void {
    this.pending.add(promise);
    void promise
      .catch((error: unknown) => this.ctx.log.error({ err: error }, 'device cache reload failed'))
      .finally(() => this.pending.delete(promise));
  }

  private async reload(id: number): Promise<void> {
    const mine = ++this.seq;
    this.reloadSeq.set(id, mine);
    const row = await this.ctx.storage.db.selectFrom('devices').selectAll().where('id', '=', id).executeTakeFirst();
    if (this.reloadSeq.get(id) !== mine) return;
    this.reloadSeq.delete(id);
    if (row) this.put(row);
    else this.remove(id);
  }

  private put(row: DeviceRow): void {
    const existing = this.byIdMap.get(row.id);
    if (existing) {
      if (existing.uniqueId !== row.uniqueId) this.byUnique.delete(existing.uniqueId);
      existing.uniqueId = row.uniqueId;
      existing.row = row;
      existing.json = deviceToJson(row);
      // Someone else stored a newer latest position (PUT …/accumulators stores a copy of the
      // latest with a new odometer): take it, and load it before the device's next message.
      if (row.positionId !== null && (existing.positionId === null || row.positionId > existing.positionId)) {
        existing.positionId = row.positionId;
        existing.lastLoaded = false;
      }
      this.byUnique.set(row.uniqueId, existing);
      return;
    }
    const entry: DeviceEntry = {
      id: row.id,
      uniqueId: row.uniqueId,
      row,
      json: deviceToJson(row),
      status: row.status === 'online' || row.status === 'unknown' || row.status === 'offline' ? row.status : null,
      lastUpdate: row.lastUpdate,
      positionId: row.positionId,
      last: null,
      lastLoaded: false,
    };
    this.byIdMap.set(row.id, entry);
    this.byUnique.set(row.uniqueId, entry);
  }

  private remove(id: number): void {
    const entry = this.byIdMap.get(id);
    if (!entry) return;
    this.byIdMap.delete(id);
    if (this.byUnique.get(entry.uniqueId) === entry) this.byUnique.delete(entry.uniqueId);
  }
}
