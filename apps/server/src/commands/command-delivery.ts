// How a command reaches its device.
//
// 1. Live: a protocol holding an open connection to the device ON THIS INSTANCE (future TCP
//    protocols: GT06, Teltonika...) registers a `LiveCommandSender`; when one of them writes
//    the command, the send is answered 200 ("delivered").
// 2. Queued: otherwise (offline devices, and HTTP protocols like OsmAnd, which cannot be
//    pushed to) the command is stored in `commandsQueue` and the send is answered 202. The
//    device picks it up with its next message: OsmAnd gets the text of one queued command as
//    the answer to its report (`takeText`); a TCP protocol would call `take` until it gets
//    null and write each. Taking a command deletes it and stores a `queuedCommandSent` event
//    (attribute `id` = the queued command's id) in the same transaction.
//
// The queue lives in the database, so a command queued on one instance is found when the
// device reports to another. To keep the per-message cost at one Set lookup, each instance
// keeps the set of devices that may have queued commands: loaded at start, extended by the
// `commandQueued` change (relayed by the realtime bus), re-read every 30 s as a safety net
// (a lost bus message delays a command, never loses it), and emptied per device when a take
// finds nothing left.
import { commandText } from '@rastro/domain/commands';
import type { AppContext } from '../context.ts';
import type { DeviceEntry } from '../processing/device-cache.ts';
import type { DeviceRow } from '../devices/device-json.ts';
import type { QueuedCommandRow } from './command-json.ts';

/** A command on its way to one device. */
export interface OutgoingCommand {
  deviceId: number;
  type: string;
  textChannel: boolean;
  attributes: Record<string, unknown>;
}

export interface LiveCommandSender {
  /**
   * Writes the command to the device's open connection on this instance. Resolves false
   * when this sender holds no connection to the device (or its protocol cannot encode the type).
   */
  send(device: DeviceRow, command: OutgoingCommand): Promise<boolean>;
}

export const QUEUE_REFRESH_MS = 30_000;

export class CommandQueue {
  /** Devices that may have queued commands (a hint: a miss costs one query, then is dropped). */
  private readonly pending = new Set<number>();
  /** Bumped whenever a device is marked, so a take that raced with a new command keeps the mark. */
  private readonly marks = new Map<number, number>();
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly ctx: AppContext) {}

  async start(): Promise<void> {
    if (this.unsubscribe) return;
    this.unsubscribe = this.ctx.changes.on((change) => {
      if (change.kind === 'commandQueued') this.mark(change.id);
      else if (change.kind === 'deviceRemoved') this.pending.delete(change.id);
    });
    await this.refresh();
    this.timer = setInterval(() => {
      this.refresh().catch((error: unknown) => this.ctx.log.warn({ err: error }, 'command queue refresh failed'));
    }, QUEUE_REFRESH_MS);
    this.timer.unref();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Re-reads which devices have queued commands (only adds: clearing is the take's job). */
  async refresh(): Promise<void> {
    const rows = await this.ctx.storage.db.selectFrom('commandsQueue').select('deviceId').distinct().execute();
    for (const r of rows) this.mark(Number(r.deviceId));
  }

  hasQueued(deviceId: number): boolean {
    return this.pending.has(deviceId);
  }

  private mark(deviceId: number): void {
    this.pending.add(deviceId);
    this.marks.set(deviceId, (this.marks.get(deviceId) ?? 0) + 1);
  }

  /** Stores a command for the device's next message and tells every instance. */
  async enqueue(command: OutgoingCommand): Promise<QueuedCommandRow> {
    const row = await this.ctx.storage.db
      .insertInto('commandsQueue')
      .values({
        deviceId: command.deviceId,
        type: command.type,
        textChannel: command.textChannel ? 1 : 0,
        attributes: JSON.stringify(command.attributes),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    this.ctx.changes.publish({ kind: 'commandQueued', id: command.deviceId });
    return row;
  }

  /**
   * Takes the device's oldest queued command (deleting it and storing its `queuedCommandSent`
   * event, linked to `positionId`), or null. Safe with several instances: a command taken by
   * another instance in the meantime is skipped.
   */
  async take(deviceId: number, positionId: number | null, now = Date.now()): Promise<QueuedCommandRow | null> {
    if (!this.pending.has(deviceId)) return null;
    const markBefore = this.marks.get(deviceId);
    const result = await this.ctx.storage.db.transaction().execute(async (trx) => {
      for (;;) {
        const rows = await trx
          .selectFrom('commandsQueue')
          .selectAll()
          .where('deviceId', '=', deviceId)
          .orderBy('id')
          .limit(2)
          .execute();
        const row = rows[0];
        if (!row) return { row: null, more: false };
        const deleted = await trx.deleteFrom('commandsQueue').where('id', '=', row.id).executeTakeFirst();
        if (Number(deleted.numDeletedRows) === 0) continue; // another instance took it first
        await trx
          .insertInto('events')
          .values({
            type: 'queuedCommandSent',
            eventTime: now,
            deviceId,
            positionId: positionId ?? 0,
            geofenceId: 0,
            maintenanceId: 0,
            attributes: JSON.stringify({ id: Number(row.id) }),
          })
          .execute();
        return { row, more: rows.length > 1 };
      }
    });
    if (!result.more && this.marks.get(deviceId) === markBefore) this.pending.delete(deviceId);
    return result.row;
  }

  /** OsmAnd: the text of one queued command as the answer to the device's report, or null. */
  async takeText(entry: DeviceEntry): Promise<string | null> {
    if (!this.pending.has(entry.id)) return null;
    let row: QueuedCommandRow | null;
    try {
      row = await this.take(entry.id, entry.positionId);
    } catch (error) {
      // The position is stored already; the command stays queued for the next report.
      this.ctx.log.warn({ err: error, deviceId: entry.id }, 'could not hand over a queued command');
      return null;
    }
    if (!row) return null;
    let attributes: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(row.attributes) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) attributes = parsed as Record<string, unknown>;
    } catch {
      /* stored by us as JSON; unreadable means no parameters */
    }
    return commandText({ type: row.type, attributes }, entry.uniqueId);
  }
}

export type DeliveryResult = { kind: 'sent' } | { kind: 'queued'; row: QueuedCommandRow };

/** The commands side of one server instance: live senders and the queue. */
export class CommandDelivery {
  readonly queue: CommandQueue;
  private readonly senders: LiveCommandSender[] = [];

  constructor(ctx: AppContext) {
    this.queue = new CommandQueue(ctx);
  }

  /** A protocol with live connections offers itself (returns the unregister function). */
  registerLiveSender(sender: LiveCommandSender): () => void {
    this.senders.push(sender);
    return () => {
      const i = this.senders.indexOf(sender);
      if (i >= 0) this.senders.splice(i, 1);
    };
  }

  /** Live delivery when a sender holds the device, else queued — or null when `noQueue` forbids queueing. */
  async deliver(device: DeviceRow, command: OutgoingCommand): Promise<DeliveryResult | null> {
    for (const sender of this.senders) {
      if (await sender.send(device, command)) return { kind: 'sent' };
    }
    if (command.attributes.noQueue === true || command.attributes.noQueue === 'true') return null;
    return { kind: 'queued', row: await this.queue.enqueue(command) };
  }
}

const instances = new WeakMap<AppContext, CommandDelivery>();

/** The instance's command delivery (one per context: the routes and the ingest side share it). */
export function commandDelivery(ctx: AppContext): CommandDelivery {
  let delivery = instances.get(ctx);
  if (!delivery) instances.set(ctx, (delivery = new CommandDelivery(ctx)));
  return delivery;
}
