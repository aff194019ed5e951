// Commands to trackers connected to this instance. Live: the API's send finds the device's
// session here and the encoded command is written on it (answered 200). Queued: the queue
// (commands/command-delivery.ts) is emptied onto the session after it identifies, after each
// frame, and at once when any instance queues a command for a device held here (the
// `commandQueued` change, relayed by the realtime bus). A queued type the protocol cannot
// encode is logged, dropped and failed as `unsupported`; a command taken while its session
// closed is put back in the queue.
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { commandDelivery, type CommandQueue, type LiveCommandSender, type OutgoingCommand } from '../../commands/command-delivery.ts';
import type { DeviceRow } from '../../devices/device-json.ts';
import type { DeviceEntry } from '../../processing/device-cache.ts';
import { parseAttributes } from '../../http/json.ts';
import type { DeviceSession } from './device-session.ts';
import type { SessionsRegistry } from './sessions-registry.ts';

/**
 * Called once a command was written to a device's connection: `queuedId` is the id of the
 * queued command it came from (its `queuedCommandSent` event carries the same id), null for a
 * live send. The command lifecycle (sent → acknowledged → confirmed) hooks in here.
 */
export type CommandSentListener = (deviceId: number, command: OutgoingCommand, queuedId: number | null) => void;

export class SessionCommands implements LiveCommandSender {
  private readonly queue: CommandQueue;
  /** Sessions whose queue is being emptied → whether another pass was asked for meanwhile. */
  private readonly running = new Map<DeviceSession, boolean>();
  private readonly sentListeners: CommandSentListener[] = [];
  private readonly stops: Array<() => void> = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly registry: SessionsRegistry<DeviceSession>,
    private readonly log: FastifyBaseLogger,
  ) {
    this.queue = commandDelivery(ctx).queue;
  }

  start(): void {
    this.stops.push(commandDelivery(this.ctx).registerLiveSender(this));
    this.stops.push(
      this.ctx.changes.on((change) => {
        if (change.kind !== 'commandQueued') return;
        const session = this.registry.latest(change.id);
        if (session) this.deliverQueued(session);
      }),
    );
  }

  stop(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  onSent(listener: CommandSentListener): () => void {
    this.sentListeners.push(listener);
    return () => {
      const i = this.sentListeners.indexOf(listener);
      if (i >= 0) this.sentListeners.splice(i, 1);
    };
  }

  /** LiveCommandSender: true once written to the device's session on this instance. */
  send(device: DeviceRow, command: OutgoingCommand): Promise<boolean> {
    const session = this.registry.latest(device.id);
    return Promise.resolve(session ? this.write(session, command, null) : false);
  }

  /** Empties the device's queue onto the session (a no-op while nothing is queued for it). */
  deliverQueued(session: DeviceSession): void {
    const entry = session.entry;
    if (!entry || session.closed || !this.queue.hasQueued(entry.id)) return;
    if (this.running.has(session)) {
      this.running.set(session, true);
      return;
    }
    void this.drain(session, entry);
  }

  private async drain(session: DeviceSession, entry: DeviceEntry): Promise<void> {
    try {
      do {
        this.running.set(session, false);
        await this.takeAll(session, entry);
      } while (this.running.get(session) === true && !session.closed);
    } catch (error) {
      // The database is away: the commands stay queued for the device's next frame.
      this.log.warn({ err: error, deviceId: entry.id }, 'could not deliver queued commands');
    } finally {
      this.running.delete(session);
    }
  }

  private async takeAll(session: DeviceSession, entry: DeviceEntry): Promise<void> {
    while (!session.closed && session.entry === entry && this.queue.hasQueued(entry.id)) {
      const row = await this.queue.take(entry.id, entry.positionId);
      if (!row) continue; // the take cleared the mark, unless a command raced in
      const command: OutgoingCommand = {
        deviceId: entry.id,
        type: row.type,
        textChannel: row.textChannel === 1,
        attributes: parseAttributes(row.attributes, 'queuedCommand.attributes', Number(row.id)),
      };
      if (session.closed) {
        // Taken as the connection went: back in the queue (its lifecycle "queued" again) for the next one.
        await this.queue.putBack(row);
        return;
      }
      if (!this.write(session, command, Number(row.id))) {
        this.log.warn(
          { deviceId: entry.id, protocol: session.protocol.name, type: row.type, queuedId: Number(row.id) },
          'queued command dropped: its protocol cannot send this type',
        );
        await this.queue.unsupported(row);
      }
    }
  }

  private write(session: DeviceSession, command: OutgoingCommand, queuedId: number | null): boolean {
    if (!session.writeCommand(command)) return false;
    this.log.info({ deviceId: command.deviceId, protocol: session.protocol.name, type: command.type, queuedId }, 'command sent to device');
    for (const listener of this.sentListeners) {
      try {
        listener(command.deviceId, command, queuedId);
      } catch (error) {
        this.log.error({ err: error }, 'command sent listener failed');
      }
    }
    return true;
  }
}
