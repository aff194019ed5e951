// deviceInactive (reference A.5): a background check (Traccar: every 15 min; here
// event.inactivity.checkInterval, RASTRO_EVENT_INACTIVITY_CHECK_INTERVAL ms, 0 = off — set it to
// 0 on secondary instances so only one instance raises them) looks at every device with a
// `deviceInactivityStart` (ms; device -> whole group chain). The event is raised by the check
// whose window (previous check, this check] — the first one: the interval before it — holds the moment lastUpdate + start, and — with
// `deviceInactivityPeriod` set — each moment lastUpdate + start + k × period after it. Device
// event (no position), dated now, attribute `lastUpdate` (epoch ms). lastUpdate is read from the
// database so every instance sees devices reporting anywhere.
import type { AppContext } from '../context.ts';
import type { DeviceCache, DeviceEntry } from '../processing/device-cache.ts';
import type { EventDraft } from '../processing/event-draft.ts';
import type { PositionWriter } from '../processing/position-writer.ts';
import type { AttributeLookup } from './attribute-lookup.ts';
import { newEvent } from './event.ts';

/**
 * Whether a check at `now` covering the window (now − interval, now] must raise the event:
 * some crossing lastUpdate + start + k·period (k ≥ 0; only k = 0 without a period) lies in it.
 */
export function inactivityDue(lastUpdate: number, start: number, period: number, now: number, interval: number): boolean {
  if (start <= 0) return false;
  const first = lastUpdate + start;
  if (now < first) return false;
  let last = first;
  if (period > 0) last = first + Math.floor((now - first) / period) * period;
  return last > now - interval;
}

export class InactivityMonitor {
  private timer: NodeJS.Timeout | null = null;
  /** When the previous check ran: windows follow each other exactly even when timers drift. */
  private lastCheck: number | null = null;

  constructor(
    private readonly ctx: Pick<AppContext, 'storage' | 'log'>,
    private readonly devices: DeviceCache,
    private readonly writer: PositionWriter,
    private readonly lookup: AttributeLookup,
    readonly intervalMs: number,
  ) {}

  start(): void {
    if (this.intervalMs <= 0) return;
    this.timer = setInterval(() => {
      this.check().catch((error: unknown) => this.ctx.log.warn({ err: error }, 'inactivity check failed'));
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One check; returns the events raised (stored through the writer with their devices). */
  async check(now = Date.now()): Promise<Array<{ entry: DeviceEntry; event: EventDraft }>> {
    const rows = await this.ctx.storage.db.selectFrom('devices').select(['id', 'lastUpdate']).where('lastUpdate', 'is not', null).execute();
    const raised: Array<{ entry: DeviceEntry; event: EventDraft }> = [];
    const window = this.lastCheck !== null && now > this.lastCheck ? Math.min(now - this.lastCheck, 2 * this.intervalMs) : this.intervalMs;
    this.lastCheck = now;
    for (const row of rows) {
      const entry = this.devices.byId(Number(row.id));
      if (!entry || row.lastUpdate === null) continue;
      const start = this.lookup.number(entry, 'deviceInactivityStart', { groupLevels: Infinity, server: false });
      if (start <= 0) continue;
      const period = this.lookup.number(entry, 'deviceInactivityPeriod', { groupLevels: Infinity, server: false });
      const lastUpdate = Math.max(Number(row.lastUpdate), entry.lastUpdate ?? 0);
      if (!inactivityDue(lastUpdate, start, period, now, window)) continue;
      const event = newEvent('deviceInactive', now, { lastUpdate });
      raised.push({ entry, event });
      void this.writer.touch(entry, [event]).catch(() => undefined);
    }
    return raised;
  }
}
