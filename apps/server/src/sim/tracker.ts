// One simulated tracker on the wire: connects over TCP (or sends UDP datagrams), says hello
// where its protocol does (GT06 login, Teltonika IMEI) and waits for the answer, reports, waits
// for acks where its protocol has them, buffers reports while it cannot send (not connected,
// waiting for an ack, socket full) and sends them when it can, drops the connection when an
// ack does not come, reconnects after a growing pause, and carries out the commands it
// understands (engine cut and resume, locate, reboot) with the protocol's reply.
//
// Scheduling is the caller's: `report()` and `heartbeat()` are called by the simulator's
// timers or the benchmark's pacer, and `checkAcks()` by one shared timer (5,000 trackers must
// not mean 5,000 timers).
import dgram from 'node:dgram';
import net from 'node:net';
import type { Transport } from '../ingest/protocol.ts';
import { ServerFrameError, type DeviceCommand, type DeviceSpeaker, type OutFrame, type TrackerEncoder, type TrackerFix } from './encoders/encoder.ts';
import type { TrackerStats } from './tracker-stats.ts';
import type { VehicleTrack } from './vehicle-track.ts';

export interface TrackerHooks {
  /** A frame carrying `fixes` was written at `at` (performance time, ms). */
  sent?(tracker: Tracker, fixes: readonly TrackerFix[], at: number): void;
  /** The ack of a frame written at `sentAt` arrived at `at`. */
  acked?(tracker: Tracker, sentAt: number, at: number): void;
}

export interface TrackerOptions {
  encoder: TrackerEncoder;
  uniqueId: string;
  host: string;
  port: number;
  transport: Transport;
  vehicle: VehicleTrack;
  stats: TrackerStats;
  hooks?: TrackerHooks;
  /** The tracker's clock for fix times (the benchmark gives each fix its own second). */
  clock?: () => number;
  /** An ack later than this drops the connection (real trackers: 10–60 s). */
  ackTimeoutMs?: number;
  /** Reports kept while they cannot be sent; the oldest are dropped beyond it. */
  bufferLimit?: number;
  /**
   * How long the device takes to carry out a command and answer (a tracker on a cellular link:
   * hundreds of milliseconds); then comes the effect (engine cut), the reply, and the report
   * showing the effect. Default 0.
   */
  replyDelayMs?: number;
  /** Pause before the first reconnection; it doubles up to `maxReconnectMs`. */
  reconnectMs?: number;
  maxReconnectMs?: number;
}

type State = 'idle' | 'connecting' | 'greeting' | 'ready' | 'stopped';

interface InFlight {
  sentAt: number;
  fixes: TrackerFix[];
}

/** Bytes queued in the socket beyond which the tracker stops writing and buffers. */
const WRITE_HIGH_WATER = 64 * 1024;
/** A server that refused the device (unknown id) is asked again only after this. */
const REJECTED_RETRY_MS = 60_000;
const REBOOT_MS = 2_000;

const perfNow = () => performance.now();

export class Tracker {
  readonly uniqueId: string;
  readonly transport: Transport;
  state: State = 'idle';
  private speaker: DeviceSpeaker;
  private socket: net.Socket | null = null;
  private udp: dgram.Socket | null = null;
  private inbox: Buffer = Buffer.alloc(0);
  private readonly buffered: TrackerFix[] = [];
  private readonly inFlight: InFlight[] = [];
  private greetingSince = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private reconnectDelay: number;
  /** Counts connections, so that a late reply knows whether its connection is still the one. */
  private connection = 0;
  private readonly clock: () => number;

  constructor(private readonly options: TrackerOptions) {
    this.uniqueId = options.uniqueId;
    this.transport = options.transport;
    this.speaker = options.encoder.speaker(options.uniqueId, options.transport);
    this.reconnectDelay = options.reconnectMs ?? 1_000;
    this.clock = options.clock ?? Date.now;
  }

  get protocol(): string {
    return this.options.encoder.protocol;
  }

  /** Reports waiting to be sent or acknowledged. */
  get backlog(): number {
    let n = this.buffered.length;
    for (const f of this.inFlight) n += f.fixes.length;
    return n;
  }

  /** Frames written whose ack has not come yet. */
  get awaitingAcks(): number {
    return this.inFlight.length + (this.state === 'greeting' ? 1 : 0);
  }

  start(): void {
    if (this.state !== 'idle') return;
    this.connect();
  }

  stop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.closeTransport();
    this.state = 'stopped';
  }

  /** Takes the vehicle's next fix and sends it (or buffers it). */
  report(): void {
    if (this.state === 'stopped') return;
    this.buffered.push(this.options.vehicle.next(this.clock()));
    const limit = this.options.bufferLimit ?? 1_000;
    if (this.buffered.length > limit) {
      const dropped = this.buffered.length - limit;
      this.buffered.splice(0, dropped);
      this.options.stats.dropped += dropped;
    }
    this.flush();
  }

  heartbeat(): void {
    if (this.state !== 'ready') return;
    this.write(this.speaker.heartbeat(this.options.vehicle.at(this.clock())), []);
  }

  /** Drops the connection when the oldest ack (or the hello's answer) is overdue. */
  checkAcks(now = perfNow()): void {
    const timeout = this.options.ackTimeoutMs ?? 30_000;
    const oldest = this.state === 'greeting' ? this.greetingSince : this.inFlight[0]?.sentAt;
    if (oldest !== undefined && now - oldest > timeout) this.fail(this.state === 'greeting' ? 'no answer to hello' : 'ack timeout');
  }

  private connect(): void {
    this.connection++;
    this.state = 'connecting';
    this.inbox = Buffer.alloc(0);
    this.speaker = this.options.encoder.speaker(this.uniqueId, this.transport);
    const { host, port } = this.options;
    if (this.transport === 'udp') {
      const udp = dgram.createSocket(net.isIPv6(host) ? 'udp6' : 'udp4');
      this.udp = udp;
      udp.on('message', (message) => this.onData(message, true));
      udp.on('error', (error) => this.fail(`udp: ${error.message}`));
      udp.connect(port, host, () => this.onConnected());
      return;
    }
    const socket = net.connect({ host, port, noDelay: true });
    this.socket = socket;
    socket.on('connect', () => this.onConnected());
    socket.on('data', (chunk) => this.onData(chunk, false));
    socket.on('drain', () => this.flush());
    socket.on('error', (error) => this.fail(`tcp: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    socket.on('close', () => {
      if (this.socket === socket) this.fail('closed by the server');
    });
  }

  private onConnected(): void {
    const stats = this.options.stats;
    stats.connects++;
    stats.connected++;
    const hello = this.speaker.hello();
    if (hello) {
      this.state = 'greeting';
      this.greetingSince = perfNow();
      this.send(hello.bytes);
      stats.sent++;
      stats.ackable++;
    } else {
      this.ready();
    }
  }

  private ready(): void {
    this.state = 'ready';
    this.reconnectDelay = this.options.reconnectMs ?? 1_000;
    this.flush();
  }

  /** Sends what is buffered, as far as the protocol's acks and the socket allow. */
  private flush(): void {
    const max = this.speaker.maxFixesPerFrame;
    while (this.state === 'ready' && this.buffered.length > 0) {
      if (this.speaker.oneInFlight && this.inFlight.length > 0) return;
      if (this.socket && this.socket.writableLength > WRITE_HIGH_WATER) return;
      const fixes = this.buffered.splice(0, max);
      this.write(this.speaker.report(fixes), fixes);
    }
  }

  private write(frame: OutFrame, fixes: TrackerFix[]): void {
    const at = perfNow();
    const stats = this.options.stats;
    stats.sent++;
    stats.positions += frame.fixes;
    if (frame.acked) {
      stats.ackable++;
      this.inFlight.push({ sentAt: at, fixes });
    }
    if (frame.fixes > 0) this.options.hooks?.sent?.(this, fixes, at);
    this.send(frame.bytes);
  }

  private send(bytes: Buffer): void {
    if (this.socket) this.socket.write(bytes);
    else this.udp?.send(bytes);
  }

  private onData(chunk: Buffer, datagram: boolean): void {
    this.inbox = datagram || this.inbox.length === 0 ? chunk : Buffer.concat([this.inbox, chunk]);
    let offset = 0;
    try {
      while (offset < this.inbox.length && this.state !== 'idle' && this.state !== 'stopped') {
        const length = this.speaker.serverFrameLength(this.inbox, offset);
        if (length === 0) break;
        const message = this.inbox.subarray(offset, offset + length);
        offset += length;
        this.handle(message);
      }
    } catch (error) {
      if (!(error instanceof ServerFrameError)) throw error;
      this.fail(`unreadable answer: ${error.message}`);
      return;
    }
    this.inbox = datagram ? Buffer.alloc(0) : this.inbox.subarray(offset);
  }

  private handle(message: Buffer): void {
    const stats = this.options.stats;
    const answer = this.speaker.read(message);
    if (answer.kind === 'ack') {
      const at = perfNow();
      stats.acked++;
      if (this.state === 'greeting') {
        this.options.hooks?.acked?.(this, this.greetingSince, at);
        this.ready();
        return;
      }
      const done = this.inFlight.shift();
      if (done) this.options.hooks?.acked?.(this, done.sentAt, at);
      this.flush();
    } else if (answer.kind === 'reject') {
      stats.rejected++;
      this.fail('the server does not know this device', REJECTED_RETRY_MS);
    } else if (answer.kind === 'command') {
      this.execute(answer.command);
    }
  }

  /** Carries out a command (after the reply delay), answers it, and reports the vehicle's state after it. */
  private execute(command: DeviceCommand): void {
    this.options.stats.commands++;
    const delay = this.options.replyDelayMs ?? 0;
    if (delay <= 0) {
      this.carryOut(command, true);
      return;
    }
    const connection = this.connection;
    setTimeout(() => {
      // A connection that dropped meanwhile loses the reply, as it would on a real link; the
      // command itself was received and is carried out.
      this.carryOut(command, this.connection === connection && this.state === 'ready');
    }, delay);
  }

  private carryOut(command: DeviceCommand, answer: boolean): void {
    const vehicle = this.options.vehicle;
    if (command.action === 'engineStop') vehicle.blocked = true;
    if (command.action === 'engineResume') vehicle.blocked = false;
    if (answer) this.answer(command);
  }

  private answer(command: DeviceCommand): void {
    const result = command.action === 'custom' ? `${command.text} OK` : `${command.action} OK`;
    const fix = this.options.vehicle.at(this.clock());
    this.write(this.speaker.reply(command, result, fix), []);
    if (command.action === 'rebootDevice') {
      this.closeTransport();
      this.scheduleConnect(REBOOT_MS);
      return;
    }
    if (command.action !== 'custom') {
      // The next position shows the effect (engine cut, a fresh fix).
      this.buffered.push(fix);
      this.flush();
    }
  }

  /** Drops the connection, keeps what was not acknowledged for the next one, and reconnects. */
  private fail(reason: string, delay?: number): void {
    if (this.state === 'stopped' || this.state === 'idle') return;
    const stats = this.options.stats;
    stats.errors++;
    stats.errorKinds.set(reason, (stats.errorKinds.get(reason) ?? 0) + 1);
    this.closeTransport();
    this.scheduleConnect(delay ?? this.reconnectDelay);
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, this.options.maxReconnectMs ?? 30_000);
  }

  private closeTransport(): void {
    if (this.state === 'ready' || this.state === 'greeting') this.options.stats.connected--;
    // Unacknowledged reports go out again on the next connection, as trackers resend them.
    const unacked = this.inFlight.splice(0).flatMap((f) => f.fixes);
    this.options.stats.unacked += unacked.length;
    this.buffered.unshift(...unacked);
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
    const udp = this.udp;
    this.udp = null;
    udp?.close();
    if (this.state !== 'stopped') this.state = 'idle';
  }

  private scheduleConnect(delay: number): void {
    if (this.state === 'stopped') return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    // Jitter: a fleet dropped at once does not come back in one burst.
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      if (this.state === 'idle') this.connect();
    }, delay * (0.75 + Math.random() * 0.5));
  }
}
