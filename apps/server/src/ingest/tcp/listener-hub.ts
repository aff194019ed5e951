// What every protocol listener of one server shares: the limits, the sessions by device (for
// commands and offline status), the connection count under RASTRO_DEVICE_CONNECTIONS, the cap on
// positions in flight (RASTRO_INGEST_IN_FLIGHT), the raw frame log, the unknown-device log and
// the counters. One per context, closed with it.
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Processing } from '../../processing/processing.ts';
import type { ProtocolDefinition } from '../protocol.ts';
import { SessionCommands } from './command-sender.ts';
import type { DeviceSession } from './device-session.ts';
import { InFlightLimit } from './in-flight.ts';
import { RawLog } from './raw-log.ts';
import { SessionsRegistry } from './sessions-registry.ts';

/**
 * Frames of one connection waiting for their commit before it stops being read, and the count
 * at which reading resumes: a slow database holds at most this many frames per connection.
 */
export const HIGH_WATER = 32;
export const LOW_WATER = 16;
/** Unknown ids (and addresses sending garbage) remembered so each is logged once (then the memory starts over). */
const UNKNOWN_IDS_LOGGED = 10_000;
/** How often refused connections are logged again while the cap is hit. */
const REFUSAL_LOG_MS = 30_000;

export interface ListenerSettings {
  /** Silence after which a connection is closed, and a UDP session forgotten. */
  idleMs: number;
  /** TCP connections held at once over all listeners (and UDP sessions per UDP port). */
  maxConnections: number;
  highWater: number;
  lowWater: number;
  /** Positions in flight at most over all connections (decoded, not yet committed and acknowledged). */
  inFlight: number;
}

export interface Listener {
  readonly protocol: string;
  close(): Promise<void>;
}

export class ListenerHub {
  readonly registry = new SessionsRegistry<DeviceSession>();
  readonly rawLog: RawLog;
  readonly commands: SessionCommands;
  readonly log: FastifyBaseLogger;
  readonly inFlight: InFlightLimit;
  /** Counters since start (tests, the benchmark); `connections` is the number open now. */
  readonly stats = {
    connections: 0,
    /** Connections closed at once because the cap was reached. */
    refused: 0,
    frames: 0,
    acks: 0,
    /** Times a session stopped reading because too many of its frames waited for their commit. */
    throttled: 0,
    /** Connections closed for bytes that are no frame of their protocol. */
    garbage: 0,
    /** Frames naming a device that is unknown, disabled or expired. */
    unknown: 0,
    /** Frames left unacknowledged because their fixes were not stored. */
    notStored: 0,
  };
  private readonly listeners = new Set<Listener>();
  private readonly unknownLogged = new Set<string>();
  private readonly strangeLogged = new Set<string>();
  private lastRefusalLog = 0;

  constructor(
    readonly processing: Processing,
    readonly settings: ListenerSettings,
    ctx: AppContext,
  ) {
    this.log = ctx.log;
    this.inFlight = new InFlightLimit(settings.inFlight);
    this.rawLog = new RawLog(ctx.live, ctx.log);
    this.commands = new SessionCommands(ctx, this.registry, ctx.log);
    this.commands.start();
  }

  /** A new TCP connection may be held (false: over the cap, close it). */
  admitConnection(protocol: ProtocolDefinition, remote: string): boolean {
    if (this.stats.connections < this.settings.maxConnections) return true;
    this.stats.refused++;
    this.refusedWarning(protocol, remote, 'connection');
    return false;
  }

  refusedWarning(protocol: ProtocolDefinition, remote: string, what: 'connection' | 'UDP session'): void {
    const now = Date.now();
    if (now - this.lastRefusalLog < REFUSAL_LOG_MS) return;
    this.lastRefusalLog = now;
    this.log.warn(
      { protocol: protocol.name, remote, limit: this.settings.maxConnections, refused: this.stats.refused },
      `device ${what} refused: ${this.settings.maxConnections} are open (RASTRO_DEVICE_CONNECTIONS)`,
    );
  }

  /** A frame named a device that is unknown, disabled or expired: said once per id, so an operator can add it. */
  unknownDevice(uniqueId: string, session: DeviceSession): void {
    this.stats.unknown++;
    const id = uniqueId.length > 64 ? `${uniqueId.slice(0, 64)}…` : uniqueId;
    const fields = { uniqueId: id, protocol: session.protocol.name, remote: session.remote };
    const message = `unknown device ${id} on ${session.protocol.name} from ${session.remote}`;
    if (this.unknownLogged.has(uniqueId)) {
      this.log.debug(fields, message);
      return;
    }
    if (this.unknownLogged.size >= UNKNOWN_IDS_LOGGED) this.unknownLogged.clear();
    this.unknownLogged.add(uniqueId);
    this.log.warn(fields, message);
  }

  /** Bytes of no frame on a session not identified yet: at info once per protocol and address, then at debug. */
  strangeBytes(session: DeviceSession, fields: Record<string, unknown>, message: string): void {
    const remote = session.remote;
    const key = `${session.protocol.name} ${remote.slice(0, remote.lastIndexOf(':'))}`;
    if (this.strangeLogged.has(key)) {
      this.log.debug(fields, message);
      return;
    }
    if (this.strangeLogged.size >= UNKNOWN_IDS_LOGGED) this.strangeLogged.clear();
    this.strangeLogged.add(key);
    this.log.info(fields, message);
  }

  /** A frame of an identified session is done (acked or not): its queued commands go out now. */
  frameDone(session: DeviceSession): void {
    this.commands.deliverQueued(session);
  }

  add(listener: Listener): void {
    this.listeners.add(listener);
  }

  remove(listener: Listener): void {
    this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.commands.stop();
    await Promise.all([...this.listeners].map((l) => l.close()));
    this.rawLog.stop();
  }
}

const hubs = new WeakMap<AppContext, ListenerHub>();

/** The context's hub, made (with its shutdown registered) by the first listener. */
export function listenerHub(ctx: AppContext): ListenerHub {
  let hub = hubs.get(ctx);
  if (hub) return hub;
  if (!ctx.processing) throw new Error('device listeners start after the processing pipeline');
  hub = new ListenerHub(
    ctx.processing,
    {
      idleMs: ctx.config.deviceIdleTimeout * 1000,
      maxConnections: ctx.config.deviceConnections,
      highWater: HIGH_WATER,
      lowWater: LOW_WATER,
      inFlight: ctx.config.ingestInFlight,
    },
    ctx,
  );
  hubs.set(ctx, hub);
  const closing = hub;
  ctx.onClose.push(() => closing.close());
  return hub;
}
