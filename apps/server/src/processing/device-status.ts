// Device status lifecycle (Traccar A.2): `online` on every message (the pipeline sets it),
// `unknown` after `statusTimeout` seconds of silence — found by a sweep every timeout/10 —
// and, at start of a single instance, every stored status is reset (null = shown offline).
import type { AppContext } from '../context.ts';
import { statusEvent } from '../events/status-events.ts';
import type { DeviceCache, DeviceEntry } from './device-cache.ts';
import type { PositionWriter } from './position-writer.ts';

/** Clears stored statuses; run before the device cache loads so it starts from offline. */
export async function resetStatuses(ctx: AppContext): Promise<void> {
  await ctx.storage.db.updateTable('devices').set({ status: null }).where('status', 'is not', null).execute();
}

export class StatusMonitor {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly devices: DeviceCache,
    private readonly writer: PositionWriter,
    private readonly timeoutMs: number,
    private readonly clock: () => number = Date.now,
    /** `event.status.enable`: raise deviceUnknown / deviceOffline events. */
    private readonly statusEvents = false,
  ) {}

  start(): void {
    const every = Math.max(100, Math.floor(this.timeoutMs / 10));
    this.timer = setInterval(() => this.sweep(), every);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Marks silent online devices `unknown`; the writer stores and publishes them. Returns how many. */
  sweep(now = this.clock()): number {
    let changed = 0;
    for (const entry of this.devices.entries()) {
      if (entry.status === 'online' && entry.lastUpdate !== null && now - entry.lastUpdate >= this.timeoutMs) {
        const event = this.statusEvents ? statusEvent(entry.status, 'unknown', now) : null;
        entry.status = 'unknown';
        void this.writer.touch(entry, event ? [event] : undefined);
        changed++;
      }
    }
    return changed;
  }

  /** A stateful (TCP) protocol lost the device's connection: `offline`, with its event when enabled. */
  markOffline(entry: DeviceEntry, now = this.clock()): void {
    if (entry.status === 'offline') return;
    const event = this.statusEvents ? statusEvent(entry.status, 'offline', now) : null;
    entry.status = 'offline';
    void this.writer.touch(entry, event ? [event] : undefined);
  }
}
