// Who wants raw device frames (the socket's `{"logs": true}`, traccar-reference A.2). Ingest
// listeners publish frames only while `LiveFeed.logsWanted` is true, so formatting them costs
// nothing when nobody looks. The wish is this instance's sockets OR any other instance's: with
// Redis, each instance announces its own on the bus (realtime/bus.ts) when it changes and again
// every REFRESH_MS while it holds, and forgets another instance's after EXPIRE_MS of silence
// (an instance that died does not keep the listeners formatting frames for nobody).
import type { LiveFeed } from './live.ts';

export const LOG_WISH_REFRESH_MS = 20_000;
export const LOG_WISH_EXPIRE_MS = 3 * LOG_WISH_REFRESH_MS;

export class LogWish {
  private local = false;
  /** instanceId -> when its wish lapses (epoch ms). */
  private readonly remote = new Map<string, number>();
  /** Told when this instance's own wish changes (the bus announces it). */
  onLocalChange: ((wanted: boolean) => void) | null = null;

  constructor(
    private readonly live: LiveFeed,
    private readonly clock: () => number = Date.now,
  ) {}

  /** This instance's sockets: some (true) or none (false) asked for logs. */
  setLocal(wanted: boolean): void {
    if (wanted === this.local) return;
    this.local = wanted;
    this.update();
    this.onLocalChange?.(wanted);
  }

  get localWanted(): boolean {
    return this.local;
  }

  /** Another instance's announcement. */
  setRemote(instanceId: string, wanted: boolean): void {
    if (wanted) this.remote.set(instanceId, this.clock() + LOG_WISH_EXPIRE_MS);
    else this.remote.delete(instanceId);
    this.update();
  }

  /** Forgets wishes not renewed in time; the bus calls it on its refresh timer. */
  expire(): void {
    const now = this.clock();
    for (const [id, until] of this.remote) if (until <= now) this.remote.delete(id);
    this.update();
  }

  private update(): void {
    this.live.logsWanted = this.local || this.remote.size > 0;
  }
}

const wishes = new WeakMap<LiveFeed, LogWish>();

/** The log wish of a server's live feed (one per feed, created on first use). */
export function logWish(live: LiveFeed): LogWish {
  let wish = wishes.get(live);
  if (!wish) wishes.set(live, (wish = new LogWish(live)));
  return wish;
}
