// After POST /api/server/restart: poll until the restarted server answers. Rastro names each
// instance (header `rastro-instance`), so "back" is an answer from another instance than the
// one that accepted the restart, even when the restart is too quick to ever see it down. A
// server that names none (Traccar) is back once it answered again after failing to.

export type WaitResult = 'back' | 'late' | 'cancelled';

export interface WaitOptions {
  /** The instance that accepted the restart, or null when unknown. */
  previous: string | null;
  /** Resolves with the answering instance ('' when unnamed); rejects while the server is down. */
  probe(): Promise<string>;
  /** Gives up (answers 'late') after this long. */
  timeoutMs: number;
  intervalMs?: number;
  signal?: AbortSignal;
  sleep?(ms: number): Promise<void>;
  now?(): number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function waitForServer(options: WaitOptions): Promise<WaitResult> {
  const { previous, probe, timeoutMs, intervalMs = 1_000, signal, sleep = pause, now = Date.now } = options;
  const end = now() + timeoutMs;
  let sawDown = false;
  while (now() < end) {
    if (signal?.aborted) return 'cancelled';
    try {
      const instance = await probe();
      if (previous && instance && instance !== previous) return 'back';
      if (sawDown && (!previous || !instance || instance !== previous)) return 'back';
    } catch {
      sawDown = true;
    }
    if (signal?.aborted) return 'cancelled';
    await sleep(intervalMs);
  }
  return 'late';
}
