// One device session: a TCP connection, or the datagrams of one remote address over UDP. It
// decodes the frames its transport splits, binds itself to the device the first identifying
// frame names, submits the fixes to the pipeline and writes each frame's ack once all its fixes
// are committed — acks leave in frame order. It tells its transport to stop handing it frames
// while an identification lookup runs, too many of its frames wait for their commit, or the
// server's positions in flight are at their cap (back-pressure, in-flight.ts).
import type { OutgoingCommand } from '../../commands/command-delivery.ts';
import { isUsable, type DeviceEntry } from '../../processing/device-cache.ts';
import { IngestUnavailable } from '../../processing/ingest-unavailable.ts';
import type { SubmitResult } from '../../processing/pipeline.ts';
import { DecodeError, type DecodedFix } from '../decoded.ts';
import { FrameError, type FrameResult, type ProtocolDefinition, type ProtocolSession, type Transport } from '../protocol.ts';
import type { InFlightWaiter } from './in-flight.ts';
import type { ListenerHub } from './listener-hub.ts';

/** What a session needs from its connection (TCP) or remote address (UDP). */
export interface SessionChannel {
  readonly kind: Transport;
  write(data: Buffer): void;
  /** Writes `data` if given, then closes (an unknown device is turned away politely). */
  end(data?: Buffer): void;
  /** Closes at once (garbage, a decoder failure). */
  destroy(): void;
  /** The session takes frames again: identification done, commits caught up, its turn under the in-flight cap. */
  resume(): void;
}

/** An ack whose frame is still being committed, or settled: to write, or to skip (not stored). */
const PENDING = 0;
const WRITE = 1;
const SKIP = 2;

interface AckSlot {
  ack: Buffer | null;
  state: typeof PENDING | typeof WRITE | typeof SKIP;
}

/** Settled acks at the head of the queue beyond which it is compacted (it may never empty under steady load). */
const ACKS_COMPACT_AT = 64;

export class DeviceSession implements ProtocolSession, InFlightWaiter {
  readonly transport: Transport;
  state: Record<string, unknown> = {};
  /** The identified device (the pipeline's cache entry), null before identification. */
  entry: DeviceEntry | null = null;
  lastFrameAt = 0;
  closed = false;
  private boundId: string | null = null;
  /** Frames submitted whose commit is pending. */
  private waiting = 0;
  private throttled = false;
  private identifying = false;
  /** Acks behind a frame still waiting for its commit (allocated only when one waits). */
  private acks: AckSlot[] | null = null;
  private ackHead = 0;

  constructor(
    private readonly hub: ListenerHub,
    readonly protocol: ProtocolDefinition,
    private readonly channel: SessionChannel,
    readonly remote: string,
  ) {
    this.transport = channel.kind;
  }

  get uniqueId(): string | null {
    return this.boundId;
  }

  get deviceAttributes(): Readonly<Record<string, unknown>> | null {
    return this.entry ? this.entry.json.attributes : null;
  }

  /** True while the session itself must not take frames (the in-flight cap aside). */
  get busy(): boolean {
    return this.identifying || this.throttled || this.closed;
  }

  /**
   * Asked by the transport before each frame: false while it must hold frames back (and stop
   * reading, over TCP). Held back by the server's in-flight cap, the session is queued there and
   * its channel resumed when its turn comes.
   */
  mayTake(): boolean {
    return !this.busy && this.hub.inFlight.admit(this);
  }

  /** Its turn under the in-flight cap. */
  wake(): void {
    if (!this.busy) this.channel.resume();
  }

  /** Ack slots held, settled ones not yet dropped included (tests: they do not pile up). */
  get ackSlots(): number {
    return this.acks?.length ?? 0;
  }

  /** Frames of this session waiting for their commit. */
  get pendingCommits(): number {
    return this.waiting;
  }

  /** Decodes and handles one whole frame, as the transport split it. */
  receive(frame: Buffer, now: number): void {
    if (this.closed) return;
    this.lastFrameAt = now;
    this.hub.stats.frames++;
    let result: FrameResult;
    try {
      result = this.protocol.decode(frame, this, now);
    } catch (error) {
      this.fail(error, frame, now);
      return;
    }
    try {
      this.route(result, frame, now);
    } catch (error) {
      this.broken(error);
    }
  }

  /** Identifies the device the frame names, if it names one, then handles the frame. */
  private route(result: FrameResult, frame: Buffer, now: number): void {
    const id = result.uniqueId;
    if (id === undefined || id === this.boundId) {
      this.handle(result, frame, now);
      return;
    }
    const devices = this.hub.processing.devices;
    const cached = devices.get(id);
    if (cached) {
      if (this.identify(id, cached, result, frame, now)) this.handle(result, frame, now);
      return;
    }
    // Not in the cache: a device created a moment ago may still be loading. Later frames wait.
    this.identifying = true;
    devices
      .find(id)
      .then(
        (entry) => {
          this.identifying = false;
          if (this.closed) return;
          if (this.identify(id, entry, result, frame, now)) this.handle(result, frame, now);
          if (!this.busy) this.channel.resume();
        },
        (error: unknown) => {
          this.identifying = false;
          this.hub.log.warn({ err: error, protocol: this.protocol.name, remote: this.remote }, 'device lookup failed; connection closed');
          this.close();
        },
      )
      .catch((error: unknown) => this.broken(error));
  }

  /** Binds the session to the device `id` names; false (and the connection turned away) when there is no usable one. */
  private identify(id: string, entry: DeviceEntry | undefined, result: FrameResult, frame: Buffer, now: number): boolean {
    if (!entry || !isUsable(entry, now)) {
      // The id the tracker claims is shown (to administrators only: no device) so it can be added.
      this.hub.rawLog.add(this.protocol, this.remote, id, null, frame, now);
      this.hub.unknownDevice(id, this);
      this.closed = true;
      this.channel.end(result.reject);
      return false;
    }
    const previous = this.entry;
    if (previous !== entry) {
      if (previous) this.leave(previous);
      this.entry = entry;
      this.hub.registry.add(entry.id, this);
      this.hub.log.debug({ protocol: this.protocol.name, remote: this.remote, deviceId: entry.id, uniqueId: id }, 'device identified');
    }
    this.boundId = id;
    return true;
  }

  private handle(result: FrameResult, frame: Buffer, now: number): void {
    const entry = this.entry;
    this.hub.rawLog.add(this.protocol, this.remote, this.boundId, entry?.id ?? null, frame, now);
    // A frame that names no device on a session not identified yet is dropped, unanswered.
    if (!entry) return;
    if (!this.stillUsable(entry, now)) return;
    const fixes = result.fixes;
    if (!fixes || fixes.length === 0) {
      // A login alone makes the device online (stored and pushed), as a position would; later
      // heartbeats keep it online (in memory: the status sweep reads lastUpdate).
      this.hub.processing.pipeline.deviceSpoke(entry, now, true);
      this.settledFrame(result.ack ?? null);
      return;
    }
    const slot: AckSlot = { ack: result.ack ?? null, state: PENDING };
    (this.acks ??= []).push(slot);
    this.waiting++;
    if (!this.throttled && this.waiting >= this.hub.settings.highWater) {
      this.throttled = true;
      this.hub.stats.throttled++;
    }
    const inFlight = this.hub.inFlight;
    const count = fixes.length;
    inFlight.take(count);
    this.commit(entry, fixes, now)
      .then((stored) => {
        try {
          this.waiting--;
          slot.state = stored ? WRITE : SKIP;
          this.flushAcks();
          if (this.throttled && this.waiting <= this.hub.settings.lowWater) {
            this.throttled = false;
            if (!this.busy) this.channel.resume();
          }
        } finally {
          // Last: releasing may wake other sessions, which then find this one's state settled.
          inFlight.release(count);
        }
      })
      .catch((error: unknown) => this.broken(error));
  }

  /** Deleted, disabled or expired since it identified: the connection is closed, like an unknown device's. */
  private stillUsable(entry: DeviceEntry, now: number): boolean {
    if (this.hub.processing.devices.byId(entry.id) === entry && isUsable(entry, now)) return true;
    this.hub.log.info({ protocol: this.protocol.name, remote: this.remote, uniqueId: this.boundId }, 'device no longer usable; connection closed');
    this.close();
    return false;
  }

  /** A frame needing no commit: its ack leaves now, unless earlier acks still wait. */
  private settledFrame(ack: Buffer | null): void {
    if (this.acks && this.ackHead < this.acks.length) {
      this.acks.push({ ack, state: WRITE });
      return;
    }
    if (ack) this.writeAck(ack);
    this.hub.frameDone(this);
  }

  /** Writes the acks at the head of the queue whose frames are settled, in order. */
  private flushAcks(): void {
    const acks = this.acks;
    if (!acks) return;
    let done = false;
    while (this.ackHead < acks.length && acks[this.ackHead]!.state !== PENDING) {
      const slot = acks[this.ackHead++]!;
      if (slot.state === WRITE && slot.ack) this.writeAck(slot.ack);
      done = true;
    }
    if (this.ackHead === acks.length) {
      this.acks = null;
      this.ackHead = 0;
    } else if (this.ackHead >= ACKS_COMPACT_AT && this.ackHead * 2 >= acks.length) {
      // A connection kept busy always has a frame pending, so the queue never empties: without
      // this the settled slots (and their acks) would pile up for as long as it stays busy.
      acks.splice(0, this.ackHead);
      this.ackHead = 0;
    }
    if (done) this.hub.frameDone(this);
  }

  private writeAck(ack: Buffer): void {
    if (this.closed) return;
    this.channel.write(ack);
    this.hub.stats.acks++;
  }

  /** Submits the frame's fixes; true once every one is committed (or dropped by a filter). */
  private commit(entry: DeviceEntry, fixes: readonly DecodedFix[], now: number): Promise<boolean> {
    const pipeline = this.hub.processing.pipeline;
    // Refused as a whole up front when the writer is full, rather than half stored.
    try {
      pipeline.writer.admit();
    } catch (error) {
      return Promise.resolve(this.notStored(error));
    }
    const uniqueId = entry.uniqueId;
    const submitted: Promise<SubmitResult | SubmitResult[]> =
      fixes.length === 1
        ? pipeline.submit({ uniqueId, fix: fixes[0]! }, now)
        : Promise.all(fixes.map((fix) => pipeline.submit({ uniqueId, fix }, now)));
    return submitted.then(
      (results) => {
        const unknown = Array.isArray(results) ? results.some((r) => r.kind === 'unknown') : results.kind === 'unknown';
        if (!unknown) return true;
        this.stillUsable(entry, now); // closes the connection of a device deleted or disabled meanwhile
        return false;
      },
      (error: unknown) => this.notStored(error),
    );
  }

  /** No ack for this frame: the tracker sends it again. */
  private notStored(error: unknown): false {
    this.hub.stats.notStored++;
    // The writer logs a full buffer or a database outage once, not per frame.
    if (error instanceof IngestUnavailable) this.hub.log.debug({ protocol: this.protocol.name, remote: this.remote }, error.message);
    else this.hub.log.error({ err: error, protocol: this.protocol.name, remote: this.remote }, 'device frame not stored');
    return false;
  }

  /** Writes an encoded command; false when the protocol cannot carry this command. */
  writeCommand(command: OutgoingCommand): boolean {
    if (this.closed) return false;
    let bytes: Buffer | null;
    try {
      bytes = this.protocol.encodeCommand(command, this);
    } catch (error) {
      this.hub.log.warn({ err: error, protocol: this.protocol.name, type: command.type }, 'command could not be encoded');
      bytes = null;
    }
    if (!bytes) return false;
    this.channel.write(bytes);
    return true;
  }

  /** Bytes that are no frame, or a frame the decoder refused: logged, and the connection closed. */
  fail(error: unknown, bytes: Buffer, now: number): void {
    if (this.closed) return;
    this.hub.stats.garbage++;
    const shown = bytes.subarray(0, 1024);
    this.hub.rawLog.add(this.protocol, this.remote, this.boundId, this.entry?.id ?? null, shown, now);
    const fields = { protocol: this.protocol.name, remote: this.remote, uniqueId: this.boundId, bytes: bytes.subarray(0, 32).toString('hex') };
    const reason = String((error as Error)?.message ?? error).slice(0, 200);
    if (!(error instanceof FrameError || error instanceof DecodeError)) {
      this.hub.log.warn({ ...fields, err: error }, `${this.protocol.name} decoder failed; connection closed`);
    } else if (this.boundId !== null) {
      // A known tracker sending what its protocol does not allow is worth an operator's look.
      this.hub.log.warn(fields, `${this.protocol.name} frame refused: ${reason}; connection closed`);
    } else {
      // Often a tracker pointed at the wrong port, sometimes a scanner: said once per address.
      this.hub.strangeBytes(this, fields, `${this.protocol.name} port: bytes from ${this.remote} are no ${this.protocol.name} frame (${reason}); connection closed`);
    }
    this.closed = true;
    this.channel.destroy();
  }

  /** A failure of ours while handling a frame: logged, that connection closed, the process unharmed. */
  private broken(error: unknown): void {
    this.hub.log.error({ err: error, protocol: this.protocol.name, remote: this.remote }, 'device frame handling failed; connection closed');
    this.closed = true;
    try {
      this.channel.destroy();
    } catch {
      /* already gone */
    }
  }

  /** Closes politely (after what is being written). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.channel.end();
  }

  /** The transport is gone (connection closed, UDP session expired): the device leaves this instance. */
  detach(): void {
    this.closed = true;
    this.hub.inFlight.forget(this);
    const entry = this.entry;
    if (entry) this.leave(entry);
    this.entry = null;
  }

  /**
   * The device's last TCP connection closed: `offline` (Traccar). A UDP device has no
   * connection to lose; it turns `unknown` after its status timeout instead.
   */
  private leave(entry: DeviceEntry): void {
    const last = this.hub.registry.remove(entry.id, this);
    if (last && this.transport === 'tcp') this.hub.processing.status.markOffline(entry);
  }
}

