// How a command reaches its device.
//
// 1. Live: a protocol holding an open connection to the device ON THIS INSTANCE (the TCP
//    protocols: GT06, Teltonika...) registers a `LiveCommandSender`; when one of them writes
//    the command, the send is answered 200 ("delivered").
// 2. Queued: otherwise (offline devices, and HTTP protocols like OsmAnd, which cannot be
//    pushed to) the command is stored in `commandsQueue` and the send is answered 202. The
//    device picks it up with its next message: OsmAnd gets the text of one queued command as
//    the answer to its report (`takeText`); a TCP protocol calls `take` while `hasQueued`
//    says so and writes each (one it cannot write after all goes back with `putBack`, or ends
//    with `unsupported`). Taking a command deletes it and stores a `queuedCommandSent` event
//    (attribute `id` = the queued command's id) in the same transaction.
//
// Every command also has a lifecycle row (`commandLog`, command-log-repo.ts): written when it
// is queued or sent live, moved to "sent" by `take` in the transaction that hands it over (so
// OsmAnd, the TCP listener and live delivery all pass through one place), then acknowledged,
// confirmed or failed by command-lifecycle.ts.
//
// Engine stops are never written to a vehicle above the speed limit (engine-stop-guard.ts): the
// send queues them ("waiting for the vehicle to slow down") even when a connection is open, and
// `take` skips them while the device's latest position is too fast, so the first message at or
// below the limit delivers them. An engine resume cancels the engine stops still queued.
//
// The queue lives in the database, so a command queued on one instance is found when the
// device reports to another. To keep the per-message cost at one Set lookup, each instance
// keeps the set of devices that may have queued commands: loaded at start, extended by the
// `commandQueued` change (relayed by the realtime bus), re-read every 30 s as a safety net
// (a lost bus message delays a command, never loses it), and emptied per device when a take
// finds nothing left.
import type { Kysely } from 'kysely';
import { commandText } from '@rastro/domain/commands';
import { nativeAction, type QueuedReason } from '@rastro/domain/command-log';
import type { AppContext } from '../context.ts';
import type { DeviceEntry } from '../processing/device-cache.ts';
import type { DeviceRow } from '../devices/device-json.ts';
import type { Database } from '../storage/schema.ts';
import { parseAttributes } from '../http/json.ts';
import type { CommandLogRow, QueuedCommandRow } from './command-json.ts';
import { CommandLogRepo, type LoggedCommand } from './command-log-repo.ts';
import { CommandLifecycle } from './command-lifecycle.ts';
import { EngineStopGuard, isEngineStop } from './engine-stop-guard.ts';

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

/** Who sent a command (kept in its lifecycle row). */
export interface CommandOrigin {
  userId?: number | null;
  /** The saved command's description, or the one given with the send. */
  description?: string | null;
}

export const QUEUE_REFRESH_MS = 30_000;

/** A queued row's command (type and parameters). */
function queuedCommand(row: QueuedCommandRow): { type: string; attributes: Record<string, unknown> } {
  return { type: row.type, attributes: parseAttributes(row.attributes, 'queuedCommand.attributes', Number(row.id)) };
}

/**
 * When a command handed to the device now counts as sent: taken before its bytes are written
 * (a reply may come back at once, and replies count for commands sent at or before they were
 * received), yet after the device's last message was received, so a reply carried by the very
 * message that let the command go (older than it) never answers it.
 */
export function sendTime(ctx: AppContext, deviceId: number, now = Date.now()): number {
  const lastMessage = ctx.processing?.devices.byId(deviceId)?.lastUpdate;
  return lastMessage === now ? now + 1 : now;
}

/** What is left in a device's queue after a take. */
type Remaining = 'none' | 'held' | 'more';

export class CommandQueue {
  /** Devices that may have queued commands (a hint: a miss costs one query, then is dropped). */
  private readonly pending = new Set<number>();
  /** Bumped whenever a device is marked, so a take that raced with a new command keeps the mark. */
  private readonly marks = new Map<number, number>();
  /**
   * Devices whose queue holds only engine stops waiting for the vehicle to slow down: taken
   * from (one query) only once the device's latest speed, in memory, is at or below the limit.
   */
  private readonly held = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly lifecycle: CommandLifecycle,
    private readonly guard: EngineStopGuard,
  ) {}

  async start(): Promise<void> {
    if (this.unsubscribe) return;
    this.unsubscribe = this.ctx.changes.on((change) => {
      if (change.kind === 'commandQueued') this.mark(change.id);
      else if (change.kind === 'deviceRemoved') {
        this.pending.delete(change.id);
        this.held.delete(change.id);
      }
    });
    await this.guard.limitKmh();
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

  /**
   * Whether a take may hand a command over now (callers loop `while (hasQueued) take`): false
   * while all that waits is an engine stop and the vehicle is still too fast. Decided from
   * memory, exactly as `take` decides, so such a loop always ends.
   */
  hasQueued(deviceId: number): boolean {
    if (this.pending.has(deviceId)) return true;
    return this.held.has(deviceId) && this.guard.holdsNow(deviceId) === false;
  }

  private mark(deviceId: number): void {
    this.pending.add(deviceId);
    this.marks.set(deviceId, (this.marks.get(deviceId) ?? 0) + 1);
  }

  /**
   * Stores a command for the device's next message, with its lifecycle row ("queued", waiting
   * for `reason`), and tells every instance.
   */
  async enqueue(
    command: OutgoingCommand,
    origin: CommandOrigin = {},
    reason: QueuedReason = 'offline',
    now = Date.now(),
  ): Promise<{ row: QueuedCommandRow; log: CommandLogRow }> {
    const stored = await this.ctx.storage.db.transaction().execute(async (trx) => {
      const row = await this.insertRow(trx, command);
      const log = await new CommandLogRepo(trx).insertQueued(logged(command, origin), Number(row.id), reason, now);
      return { row, log };
    });
    this.ctx.changes.publish({ kind: 'commandQueued', id: command.deviceId });
    return stored;
  }

  private insertRow(db: Kysely<Database>, command: OutgoingCommand): Promise<QueuedCommandRow> {
    return db
      .insertInto('commandsQueue')
      .values({
        deviceId: command.deviceId,
        type: command.type,
        textChannel: command.textChannel ? 1 : 0,
        attributes: JSON.stringify(command.attributes),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /**
   * Takes the device's oldest queued command (deleting it, storing its `queuedCommandSent`
   * event, linked to `positionId`, and marking its lifecycle "sent"), or null. Engine stops are
   * skipped while the device's latest position is above the speed limit (they stay queued and
   * say why). Safe with several instances: a command taken by another instance in the meantime
   * is skipped.
   */
  async take(deviceId: number, positionId: number | null, now = sendTime(this.ctx, deviceId)): Promise<QueuedCommandRow | null> {
    const waiting = this.pending.has(deviceId);
    if (!waiting && !this.held.has(deviceId)) return null;
    // Decided before any await, from the same memory as hasQueued (see there).
    const known = this.guard.holdsNow(deviceId);
    if (!waiting && known !== false) return null;
    const markBefore = this.marks.get(deviceId);
    // Read before the transaction: on SQLite a query outside it would wait for it to end.
    const hold = known ?? (await this.guard.holds(deviceId));
    const result = await this.ctx.storage.db.transaction().execute(async (trx) => {
      const log = new CommandLogRepo(trx);
      for (;;) {
        // The oldest and whether one follows; while engine stops are held, the whole queue
        // (short in practice) to find the first command that may go and what stays behind.
        let query = trx.selectFrom('commandsQueue').selectAll().where('deviceId', '=', deviceId).orderBy('id');
        if (!hold) query = query.limit(2);
        const rows = await query.execute();
        const held = hold ? rows.filter((r) => isEngineStop(queuedCommand(r))) : [];
        if (held.length > 0) await log.markHeldForSpeed(held.map((r) => Number(r.id)));
        const row = rows.find((r) => !held.includes(r));
        const rest = rows.filter((r) => r !== row);
        const remaining: Remaining = rest.length === 0 ? 'none' : rest.every((r) => held.includes(r)) ? 'held' : 'more';
        if (!row) return { row: null, remaining };
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
        await log.markSent(Number(row.id), now);
        return { row, remaining };
      }
    });
    // A command marked meanwhile keeps the device pending: the next take looks again.
    if (result.remaining !== 'more' && this.marks.get(deviceId) === markBefore) this.pending.delete(deviceId);
    if (result.remaining === 'held') this.held.add(deviceId);
    else if (result.remaining === 'none') this.held.delete(deviceId);
    if (result.row) this.lifecycle.noteSent(deviceId);
    return result.row;
  }

  /**
   * Puts back a command `take` handed over that could not be written after all (its
   * connection closed meanwhile): queued again, oldest first no more but with its lifecycle
   * row back to "queued" (rather than a second row while the first times out as sent).
   */
  async putBack(row: QueuedCommandRow): Promise<QueuedCommandRow> {
    const command: OutgoingCommand = { deviceId: Number(row.deviceId), textChannel: row.textChannel === 1, ...queuedCommand(row) };
    const again = await this.ctx.storage.db.transaction().execute(async (trx) => {
      const inserted = await this.insertRow(trx, command);
      await new CommandLogRepo(trx).requeue(Number(row.id), Number(inserted.id));
      return inserted;
    });
    this.ctx.changes.publish({ kind: 'commandQueued', id: command.deviceId });
    return again;
  }

  /** A command `take` handed over that the device's protocol cannot encode: failed as `unsupported`. */
  async unsupported(row: QueuedCommandRow, now = Date.now()): Promise<void> {
    await new CommandLogRepo(this.ctx.storage.db).failSent(Number(row.id), 'unsupported', now);
  }

  /**
   * Cancels a queued command by its lifecycle id: its queue row goes and it is failed as
   * "cancelled". `cancelled` is false when it was not waiting any more (sent, or ended).
   */
  async cancel(logId: number, now = Date.now()): Promise<{ row: CommandLogRow | undefined; cancelled: boolean }> {
    return this.ctx.storage.db.transaction().execute(async (trx) => {
      const log = new CommandLogRepo(trx);
      const row = await log.findById(logId);
      if (!row || row.status !== 'queued' || row.queueId === null) return { row, cancelled: false };
      const deleted = await trx.deleteFrom('commandsQueue').where('id', '=', row.queueId).executeTakeFirst();
      // Taken by a device meanwhile: its take marked it sent in the same transaction.
      if (Number(deleted.numDeletedRows) === 0) return { row: await log.findById(logId), cancelled: false };
      const [failed] = await log.failQueued([Number(row.queueId)], 'cancelled', now);
      return { row: failed ?? row, cancelled: failed !== undefined };
    });
  }

  /**
   * An engine resume was sent: the engine stops still queued for the device are dropped and
   * failed as "superseded" (delivered later they would cut the engine the user just restored).
   * Always reads the database: the pending hint may not know a command queued elsewhere yet.
   */
  async supersedeEngineStops(deviceId: number, now = Date.now()): Promise<number> {
    return this.ctx.storage.db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom('commandsQueue').selectAll().where('deviceId', '=', deviceId).execute();
      const stops = rows.filter((r) => isEngineStop(queuedCommand(r))).map((r) => Number(r.id));
      if (stops.length === 0) return 0;
      await trx.deleteFrom('commandsQueue').where('id', 'in', stops).execute();
      await new CommandLogRepo(trx).failQueued(stops, 'superseded', now);
      return stops.length;
    });
  }

  /** OsmAnd: the text of one queued command as the answer to the device's report, or null. */
  async takeText(entry: DeviceEntry): Promise<string | null> {
    if (!this.hasQueued(entry.id)) return null;
    let row: QueuedCommandRow | null;
    try {
      row = await this.take(entry.id, entry.positionId);
    } catch (error) {
      // The position is stored already; the command stays queued for the next report.
      this.ctx.log.warn({ err: error, deviceId: entry.id }, 'could not hand over a queued command');
      return null;
    }
    if (!row) return null;
    return commandText(queuedCommand(row), entry.uniqueId);
  }
}

function logged(command: OutgoingCommand, origin: CommandOrigin): LoggedCommand {
  return {
    deviceId: command.deviceId,
    userId: origin.userId ?? null,
    type: command.type,
    description: origin.description ?? null,
    attributes: command.attributes,
  };
}

export type DeliveryResult =
  | { kind: 'sent'; log: CommandLogRow }
  | { kind: 'queued'; row: QueuedCommandRow; log: CommandLogRow }
  /** `noQueue` was asked, and the engine stop cannot go now: the vehicle is above the speed limit. */
  | { kind: 'held' };

/** The commands side of one server instance: live senders, the queue and the lifecycle. */
export class CommandDelivery {
  readonly queue: CommandQueue;
  readonly lifecycle: CommandLifecycle;
  readonly guard: EngineStopGuard;
  private readonly senders: LiveCommandSender[] = [];

  constructor(private readonly ctx: AppContext) {
    this.lifecycle = new CommandLifecycle(ctx);
    this.guard = new EngineStopGuard(ctx);
    this.queue = new CommandQueue(ctx, this.lifecycle, this.guard);
  }

  /** A protocol with live connections offers itself (returns the unregister function). */
  registerLiveSender(sender: LiveCommandSender): () => void {
    this.senders.push(sender);
    return () => {
      const i = this.senders.indexOf(sender);
      if (i >= 0) this.senders.splice(i, 1);
    };
  }

  /**
   * Live delivery when a sender holds the device, else queued — or null when `noQueue` forbids
   * queueing. An engine stop to a vehicle above the speed limit is queued (or `held` with
   * noQueue) without trying the senders.
   */
  async deliver(device: DeviceRow, command: OutgoingCommand, origin: CommandOrigin = {}): Promise<DeliveryResult | null> {
    const now = Date.now();
    const noQueue = command.attributes.noQueue === true || command.attributes.noQueue === 'true';
    const action = nativeAction(command);
    if (action === 'engineResume') await this.queue.supersedeEngineStops(device.id, now);
    if (action === 'engineStop' && (await this.guard.holds(device.id, device.positionId))) {
      if (noQueue) return { kind: 'held' };
      return { kind: 'queued', ...(await this.queue.enqueue(command, origin, 'speed', now)) };
    }
    const live = this.sendLive(device, command, origin);
    this.lifecycle.sending(device.id, live);
    const log = await live;
    if (log) return { kind: 'sent', log };
    if (noQueue) return null;
    return { kind: 'queued', ...(await this.queue.enqueue(command, origin, this.waitReason(device), now)) };
  }

  /**
   * Writes the command through the first sender holding the device, then stores its row "sent",
   * stamped before the write; null when no sender holds it. The device may reply before the row
   * is stored: the lifecycle holds the device's replies until this settles.
   */
  private async sendLive(device: DeviceRow, command: OutgoingCommand, origin: CommandOrigin): Promise<CommandLogRow | null> {
    for (const sender of this.senders) {
      const sentAt = sendTime(this.ctx, device.id);
      if (await sender.send(device, command)) {
        return new CommandLogRepo(this.ctx.storage.db).insertSent(logged(command, origin), sentAt);
      }
    }
    return null;
  }

  /** Why a command the senders could not write waits: the device is offline, or only takes commands with its next message. */
  private waitReason(device: DeviceRow): QueuedReason {
    const status = this.ctx.processing?.devices.byId(device.id)?.status ?? device.status;
    return status === 'online' ? 'nextMessage' : 'offline';
  }
}

const instances = new WeakMap<AppContext, CommandDelivery>();

/** The instance's command delivery (one per context: the routes and the ingest side share it). */
export function commandDelivery(ctx: AppContext): CommandDelivery {
  let delivery = instances.get(ctx);
  if (!delivery) instances.set(ctx, (delivery = new CommandDelivery(ctx)));
  return delivery;
}
