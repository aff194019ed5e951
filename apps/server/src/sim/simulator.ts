// A fleet of simulated trackers (`npm run simulate`): N devices of one or several protocols,
// each driving a demo route and reporting every `intervalMs` (first reports spread over the
// interval, so a fleet does not arrive in one burst), with a heartbeat between reports when
// the protocol has one. One timer serves the whole fleet.
import type { Transport } from '../ingest/protocol.ts';
import type { SimProtocol } from './encoders/encoder.ts';
import { ENCODERS } from './encoders/encoders.ts';
import { Tracker } from './tracker.ts';
import { newTrackerStats, type TrackerStats } from './tracker-stats.ts';
import { vehicleTrack } from './vehicle-track.ts';

export interface SimulatorOptions {
  /** Devices are shared out among these protocols in turn. */
  protocols: readonly SimProtocol[];
  devices: number;
  /** Number of the first device (ids follow from it), so several simulators can run side by side. */
  firstDevice?: number;
  host: string;
  /** Port of each protocol's listener. */
  ports: Readonly<Partial<Record<SimProtocol, number>>>;
  /** `udp` for the protocols that have it (Teltonika, H02); the others stay on TCP. */
  transport: Transport;
  intervalMs: number;
  /** 0 = no heartbeats. */
  heartbeatMs: number;
  /** Milliseconds a tracker takes to carry out and answer a command (default 300, a cellular link's delay). */
  replyDelayMs?: number;
  /** Connections opened per tick at most (a listen backlog is not infinite). */
  connectsPerTick?: number;
  random?: () => number;
}

/** The simulated device `i` of a fleet: its protocol and unique id. */
export function fleetDevice(protocols: readonly SimProtocol[], i: number): { protocol: SimProtocol; uniqueId: string; index: number } {
  const protocol = protocols[i % protocols.length]!;
  const index = Math.floor(i / protocols.length);
  return { protocol, uniqueId: ENCODERS[protocol].uniqueId(index), index };
}

interface Scheduled {
  tracker: Tracker;
  nextReport: number;
  nextHeartbeat: number;
}

const TICK_MS = 100;

export class Simulator {
  readonly stats: TrackerStats = newTrackerStats();
  readonly trackers: Tracker[] = [];
  private readonly scheduled: Scheduled[] = [];
  private timer: NodeJS.Timeout | null = null;
  private started = 0;

  constructor(private readonly options: SimulatorOptions) {
    const random = options.random ?? Math.random;
    const now = Date.now();
    const first = options.firstDevice ?? 0;
    for (let i = first; i < first + options.devices; i++) {
      const { protocol, uniqueId } = fleetDevice(options.protocols, i);
      const encoder = ENCODERS[protocol];
      const port = options.ports[protocol];
      if (!port) throw new Error(`no port for ${protocol}`);
      const transport: Transport = encoder.transports.includes(options.transport) ? options.transport : 'tcp';
      const tracker = new Tracker({
        encoder, uniqueId, host: options.host, port, transport, stats: this.stats, vehicle: vehicleTrack(i, uniqueId, now, random),
        replyDelayMs: options.replyDelayMs ?? 300,
      });
      this.trackers.push(tracker);
      const t = performance.now();
      this.scheduled.push({
        tracker,
        nextReport: t + random() * options.intervalMs,
        nextHeartbeat: options.heartbeatMs > 0 ? t + options.heartbeatMs * (0.5 + random()) : Infinity,
      });
    }
  }

  start(): void {
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const t of this.trackers) t.stop();
  }

  private tick(): void {
    const now = performance.now();
    const perTick = this.options.connectsPerTick ?? 200;
    for (let n = 0; n < perTick && this.started < this.trackers.length; n++) this.trackers[this.started++]!.start();
    const { intervalMs, heartbeatMs } = this.options;
    // Trackers not started yet wait for their turn (their reports would only be buffered).
    for (let i = 0; i < this.started; i++) {
      const s = this.scheduled[i]!;
      if (now >= s.nextReport) {
        s.tracker.report();
        s.nextReport += intervalMs;
        if (s.nextReport < now) s.nextReport = now + intervalMs;
        if (heartbeatMs > 0) s.nextHeartbeat = now + heartbeatMs;
      } else if (now >= s.nextHeartbeat) {
        s.tracker.heartbeat();
        s.nextHeartbeat = now + heartbeatMs;
      }
      s.tracker.checkAcks(now);
    }
  }
}
