// Raw frames for the device log (the socket's `{logs: true}`, traccar-reference A.2): while some
// socket wants them (`LiveFeed.logsWanted`), each received frame is kept and published in one
// live batch every `intervalMs`, so logging never costs ingest more than a push on an array.
// A batch holds at most `maxFrames`; beyond that frames are counted and dropped until it leaves.
import type { FastifyBaseLogger } from 'fastify';
import type { LiveFeed, RawFrame } from '../../realtime/live.ts';
import type { ProtocolDefinition } from '../protocol.ts';

export const RAW_LOG_INTERVAL_MS = 100;
export const RAW_LOG_MAX_FRAMES = 5_000;

/** How a frame is shown: text (with `\r` and `\n` escaped) when the protocol is textual and every byte printable, else hex. */
export function frameData(frame: Buffer, logAs: 'hex' | 'text'): string {
  if (logAs === 'text' && isPrintable(frame)) return frame.toString('latin1').replace(/\r/g, '\\r').replace(/\n/g, '\\n');
  return frame.toString('hex');
}

function isPrintable(frame: Buffer): boolean {
  for (let i = 0; i < frame.length; i++) {
    const b = frame[i]!;
    if ((b < 0x20 || b > 0x7e) && b !== 0x0d && b !== 0x0a && b !== 0x09) return false;
  }
  return true;
}

export class RawLog {
  private frames: RawFrame[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** Frames not published because a batch was full. */
  dropped = 0;

  constructor(
    private readonly live: LiveFeed,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = RAW_LOG_INTERVAL_MS,
    private readonly maxFrames = RAW_LOG_MAX_FRAMES,
  ) {}

  /** Keeps one received frame for the next batch (nothing while no socket wants logs). */
  add(
    protocol: Pick<ProtocolDefinition, 'name' | 'logAs'>,
    remote: string,
    uniqueId: string | null,
    deviceId: number | null,
    frame: Buffer,
    time: number,
  ): void {
    if (!this.live.logsWanted) return;
    if (this.frames.length >= this.maxFrames) {
      this.dropped++;
      return;
    }
    this.frames.push({
      protocol: protocol.name,
      host: remote,
      uniqueId,
      deviceId,
      data: frameData(frame, protocol.logAs),
      time,
    });
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.intervalMs);
      this.timer.unref();
    }
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const logs = this.frames;
    if (logs.length === 0) return;
    this.frames = [];
    try {
      this.live.publish({ logs });
    } catch (error) {
      // A failing subscriber must not take the ingest timer (and the process) down with it.
      this.log.error({ err: error }, 'device log publish failed');
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.frames = [];
  }
}
