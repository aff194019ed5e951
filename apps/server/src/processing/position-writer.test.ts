// The position writer's group commit — an idle writer flushes at once, what arrives during a
// commit goes in the next flush right after it, each within maxItems — and the writer while the
// database is away: a flush that fails for a transient reason keeps its batch and retries with
// a growing back-off, positions queue behind it within a bound (then messages are refused),
// nothing is acknowledged before its commit, and shutdown gives up after a bounded wait. A fake
// WriteStore stands for the database; timers are faked.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../context.ts';
import { emptyFix } from '../ingest/decoded.ts';
import type { DeviceCache, DeviceEntry } from './device-cache.ts';
import { IngestUnavailable } from './ingest-unavailable.ts';
import { Pipeline } from './pipeline.ts';
import { draftFromFix } from './position-draft.ts';
import { PositionWriter, type WriterOptions } from './position-writer.ts';
import type { FlushRequest, FlushResult, WriteStore } from './write-store.ts';
import { POSITION_WIDTH } from './writer-protocol.ts';

/** What pg says when the server ends a connection (pg_terminate_backend, restart). */
function terminated(): Error {
  return Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
}

/** A store that fails while `down` is set (or `failures` more times), and records every attempt. */
class FakeStore implements WriteStore {
  down = false;
  failures = 0;
  error: () => Error = terminated;
  readonly attempts: Array<{ at: number; positions: number; ok: boolean }> = [];
  /** Sequence numbers of committed positions, in commit order. */
  readonly committed: number[] = [];
  /** While set, each commit waits for `release()`: a commit that takes a while. */
  slow = false;
  /** Commits started and not finished yet. */
  running = 0;
  private readonly waiting: Array<() => void> = [];
  private nextId = 1;

  async commit(request: FlushRequest): Promise<FlushResult> {
    const positions = request.positions.length / POSITION_WIDTH;
    const fail = this.down || this.failures > 0;
    this.attempts.push({ at: Date.now(), positions, ok: !fail });
    if (fail) {
      if (this.failures > 0) this.failures--;
      throw this.error();
    }
    if (this.running > 0) throw new Error('two commits at once');
    this.running++;
    if (this.slow) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running--;
    for (let k = 0; k < request.positions.length; k += POSITION_WIDTH) {
      const attributes = JSON.parse(request.positions[k + POSITION_WIDTH - 1] as string) as { seq: number };
      this.committed.push(attributes.seq);
    }
    return { positionIds: Array.from({ length: positions }, () => this.nextId++), eventIds: [] };
  }

  /** Ends the commit under way (with `slow`). */
  release(): void {
    this.waiting.shift()?.();
  }

  async close(): Promise<void> {}
}

function fakeContext() {
  const log = { warn: vi.fn(), error: vi.fn(), info: vi.fn() };
  const ctx = { config: { ingestBuffer: 50_000 }, log, live: { publish: vi.fn() } } as unknown as AppContext;
  return { ctx, log };
}

function entry(id: number): DeviceEntry {
  return {
    id, uniqueId: `dev-${id}`, row: { disabled: 0, expirationTime: null } as DeviceEntry['row'], json: {} as DeviceEntry['json'],
    status: null, lastUpdate: null, positionId: null, last: null, lastLoaded: true,
  };
}

function item(device: DeviceEntry, seq: number) {
  const fix = { ...emptyFix('test', 1_700_000_000_000 + seq), latitude: 1, longitude: 2, attributes: { seq } };
  return { entry: device, position: draftFromFix(fix, device.id, Date.now()), latest: false, events: [] };
}

/** Tracks a promise's outcome without awaiting it. */
function watch(promise: Promise<unknown>) {
  const state: { settled: 'pending' | 'resolved' | 'rejected'; error?: unknown } = { settled: 'pending' };
  promise.then(
    () => (state.settled = 'resolved'),
    (error: unknown) => {
      state.settled = 'rejected';
      state.error = error;
    },
  );
  return state;
}

/** Lets the writer's end-of-turn flush (setImmediate, not faked) and the promises after it run; fake time stands still. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('PositionWriter group commit', () => {
  let store: FakeStore;
  let ctx: AppContext;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    store = new FakeStore();
    ({ ctx } = fakeContext());
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('an idle writer commits a single item at once: no timer to wait for, the write resolves without time passing', async () => {
    const w = new PositionWriter(ctx, { store });
    const t0 = Date.now();
    const done = watch(w.write(item(entry(1), 1)));
    expect(store.attempts).toEqual([]);
    await nextTurn();
    expect(store.attempts).toEqual([{ at: t0, positions: 1, ok: true }]);
    expect(done.settled).toBe('resolved');
    expect(Date.now()).toBe(t0);
    expect(vi.getTimerCount()).toBe(0);
    expect(ctx.live.publish).toHaveBeenCalledTimes(1);
  });

  it('what arrives in one turn shares one flush; what arrives during a commit goes in the next flush right after it', async () => {
    const w = new PositionWriter(ctx, { store });
    store.slow = true;
    const first = [1, 2].map((seq) => watch(w.write(item(entry(seq), seq))));
    await nextTurn();
    expect(store.attempts.map((a) => a.positions)).toEqual([2]);
    // The commit takes a while: new items gather, no second transaction starts meanwhile.
    const second = [3, 4, 5].map((seq) => watch(w.write(item(entry(seq), seq))));
    const device = watch(w.touch(entry(9)));
    await nextTurn();
    expect(store.attempts.map((a) => a.positions)).toEqual([2]);
    expect([...first, ...second].every((s) => s.settled === 'pending')).toBe(true);
    store.release();
    await nextTurn();
    // The first batch is acknowledged and the gathered one is being written, at the same instant.
    expect(first.every((s) => s.settled === 'resolved')).toBe(true);
    expect(store.attempts.map((a) => a.positions)).toEqual([2, 3]);
    expect(store.attempts.every((a) => a.at === store.attempts[0]!.at)).toBe(true);
    expect(second.every((s) => s.settled === 'pending')).toBe(true);
    store.release();
    await nextTurn();
    expect([...second, device].every((s) => s.settled === 'resolved')).toBe(true);
    expect(store.committed).toEqual([1, 2, 3, 4, 5]);
    expect(w.stats).toMatchObject({ flushes: 2, positions: 5, deviceUpdates: 2 + 4 });
    expect(ctx.live.publish).toHaveBeenCalledTimes(2);
  });

  it('batches stay within maxItems, in order, whether the items arrive in one turn or during a commit', async () => {
    const w = new PositionWriter(ctx, { store, maxItems: 3 });
    const burst = Array.from({ length: 7 }, (_, i) => watch(w.write(item(entry(1), i + 1))));
    await nextTurn();
    expect(store.attempts.map((a) => a.positions)).toEqual([3, 3, 1]);
    expect(burst.every((s) => s.settled === 'resolved')).toBe(true);

    store.slow = true;
    void w.write(item(entry(1), 8));
    await nextTurn();
    const during = Array.from({ length: 8 }, (_, i) => watch(w.write(item(entry(1), i + 9))));
    expect(w.buffered).toBe(9);
    for (let i = 0; i < 4; i++) {
      store.release();
      await nextTurn();
    }
    expect(store.attempts.map((a) => a.positions)).toEqual([3, 3, 1, 1, 3, 3, 2]);
    expect(during.every((s) => s.settled === 'resolved')).toBe(true);
    expect(store.committed).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(w.buffered).toBe(0);
  });
});

describe('PositionWriter while the database is unavailable', () => {
  let store: FakeStore;
  let ctx: AppContext;
  let log: ReturnType<typeof fakeContext>['log'];

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    store = new FakeStore();
    ({ ctx, log } = fakeContext());
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const writer = (options: WriterOptions = {}) => new PositionWriter(ctx, { retryMinMs: 100, retryMaxMs: 5_000, store, ...options });

  it('keeps the batch and retries after 100 ms, 200 ms, 400 ms … up to 5 s; the write resolves only after the commit', async () => {
    const w = writer();
    store.failures = 8;
    const done = watch(w.write(item(entry(1), 1)));
    await vi.advanceTimersByTimeAsync(0);
    expect(store.attempts).toHaveLength(1);
    // 100 + 200 + 400 + 800 + 1600 + 3200 + 5000 + 5000 ms between the nine attempts.
    const waits = [100, 200, 400, 800, 1600, 3200, 5000, 5000];
    for (const [i, wait] of waits.entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(store.attempts).toHaveLength(i + 1);
      expect(done.settled).toBe('pending');
      await vi.advanceTimersByTimeAsync(1);
      expect(store.attempts).toHaveLength(i + 2);
    }
    expect(done.settled).toBe('resolved');
    expect(store.committed).toEqual([1]);
    expect(w.stats).toMatchObject({ retries: 8, failures: 0, flushes: 1, positions: 1 });
    // One warning when the outage starts, one note when it ends — not one line per attempt.
    expect(log.warn.mock.calls.map(([, text]) => text)).toEqual(['database unavailable: the position writer keeps its positions and retries']);
    expect(log.info.mock.calls.map(([, text]) => text)).toEqual(['database available again: the position writer resumed']);
    expect(w.waitingForDatabase).toBe(false);
  });

  it('an error that is not about the database being away fails the batch at once, as before', async () => {
    const w = writer();
    store.failures = 1;
    store.error = () => Object.assign(new Error('CHECK constraint failed'), { code: 'SQLITE_CONSTRAINT_CHECK' });
    const done = watch(w.write(item(entry(1), 1)));
    await vi.advanceTimersByTimeAsync(0);
    expect(done.settled).toBe('rejected');
    expect((done.error as Error).message).toBe('CHECK constraint failed');
    expect(w.stats).toMatchObject({ retries: 0, failures: 1 });
    expect(store.attempts).toHaveLength(1);
  });

  it('SQLITE_BUSY and SQLITE_IOERR are retried like a lost connection', async () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_IOERR_WRITE']) {
      const w = writer();
      store.failures = 2;
      store.error = () => Object.assign(new Error(code), { code });
      const done = watch(w.write(item(entry(1), 1)));
      await vi.advanceTimersByTimeAsync(400);
      expect(done.settled).toBe('resolved');
      expect(w.stats).toMatchObject({ retries: 2, failures: 0 });
    }
  });

  it('positions keep queueing behind the retried batch, are written in order, each transaction within maxItems', async () => {
    const w = writer({ maxItems: 4 });
    const device = entry(1);
    store.down = true;
    const writes = Array.from({ length: 10 }, (_, i) => watch(w.write(item(device, i + 1))));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(w.buffered).toBe(10);
    expect(writes.every((s) => s.settled === 'pending')).toBe(true);
    store.down = false;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(writes.every((s) => s.settled === 'resolved')).toBe(true);
    expect(store.committed).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(store.attempts.filter((a) => a.ok).map((a) => a.positions)).toEqual([4, 4, 2]);
    expect(w.buffered).toBe(0);
  });

  it('holds at most bufferLimit positions: further messages are refused at once, and taken again once the database catches up', async () => {
    const w = writer({ bufferLimit: 5 });
    const devices = new Map([1, 2, 3].map((id) => [`dev-${id}`, entry(id)]));
    const cache = { get: (uid: string) => devices.get(uid), find: async (uid: string) => devices.get(uid) } as unknown as DeviceCache;
    const pipeline = new Pipeline(ctx, cache, w, []);
    const message = (id: number, seq: number) => ({
      uniqueId: `dev-${id}`, fix: { ...emptyFix('test', 1_700_000_000_000 + seq), latitude: 1, longitude: 2, attributes: { seq } },
    });
    store.down = true;
    const admitted = Array.from({ length: 5 }, (_, i) => watch(pipeline.submit(message((i % 3) + 1, i + 1))));
    await vi.advanceTimersByTimeAsync(0);
    expect(w.buffered).toBe(5);

    const refused = watch(pipeline.submit(message(1, 6)));
    await vi.advanceTimersByTimeAsync(0);
    expect(refused.settled).toBe('rejected');
    expect(refused.error).toBeInstanceOf(IngestUnavailable);
    expect((refused.error as IngestUnavailable).retryAfterSeconds).toBe(5);
    // Refused before processing: it never reached the device's state or the writer.
    expect(pipeline.stats.received).toBe(5);
    expect(w.buffered).toBe(5);
    expect(w.stats.refused).toBe(1);
    expect(log.warn.mock.calls.some(([, text]) => text === 'ingest buffer full: device messages are refused until the database catches up')).toBe(true);

    store.down = false;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(admitted.map((s) => s.settled)).toEqual(['resolved', 'resolved', 'resolved', 'resolved', 'resolved']);
    expect(store.committed).toEqual([1, 2, 3, 4, 5]);
    const again = watch(pipeline.submit(message(1, 7)));
    await vi.advanceTimersByTimeAsync(100);
    expect(again.settled).toBe('resolved');
    expect(store.committed).toEqual([1, 2, 3, 4, 5, 7]);
  });

  it('drain waits at most its timeout while the database is away, then gives up, fails what it held and says how many', async () => {
    const w = writer({ maxItems: 2 });
    store.down = true;
    const writes = Array.from({ length: 5 }, (_, i) => watch(w.write(item(entry(1), i + 1))));
    await vi.advanceTimersByTimeAsync(50);
    let drained = false;
    void w.drain(3_000).then(() => (drained = true));
    await vi.advanceTimersByTimeAsync(2_900);
    expect(drained).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(drained).toBe(true);
    expect(writes.every((s) => s.settled === 'rejected' && s.error instanceof IngestUnavailable)).toBe(true);
    expect(store.committed).toEqual([]);
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ waitedMs: 3_000 }),
      'position writer stopped waiting for the database: 5 positions were not stored',
    );
    expect(w.stats.abandoned).toBe(5);
    // Nothing is taken any more, and no attempt follows.
    const attempts = store.attempts.length;
    expect(() => w.admit()).toThrow(IngestUnavailable);
    const late = watch(w.write(item(entry(1), 6)));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(late.settled).toBe('rejected');
    expect(store.attempts.length).toBe(attempts);
  });

  it('drain with a working database writes everything and gives up nothing', async () => {
    const w = writer();
    const writes = Array.from({ length: 3 }, (_, i) => watch(w.write(item(entry(1), i + 1))));
    const drained = w.drain(1_000);
    await vi.advanceTimersByTimeAsync(0);
    await drained;
    expect(writes.every((s) => s.settled === 'resolved')).toBe(true);
    expect(log.error).not.toHaveBeenCalled();
  });
});
