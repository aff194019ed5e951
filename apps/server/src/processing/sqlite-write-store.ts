// The main-thread side of the SQLite writer thread (sqlite-writer-worker.ts). better-sqlite3
// is synchronous: run on the main thread, every flush's transaction (and WAL checkpoint)
// would stall HTTP parsing, the pipeline and the socket fan-out. Flushes are posted as plain
// values; the thread answers with the new ids after commit, in order.
//
// A thread that dies (uncaught error, out of memory, terminate) fails the flushes it had —
// their devices get a 5xx — and is logged; the next flush starts a new one. The thread only
// holds the process open while it has work.
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import { startTypeScriptWorker } from '../threads/typescript-worker.ts';
import type { FlushRequest, FlushResult, FromWriterThread, ToWriterThread, WriterThreadInit } from './writer-protocol.ts';
import { sqliteWriterStatements } from './writer-sql.ts';
import type { WriteStore } from './write-store.ts';

const WORKER_FILE = fileURLToPath(new URL('./sqlite-writer-worker.ts', import.meta.url));

interface Pending {
  resolve: (result: FlushResult) => void;
  reject: (error: Error) => void;
}

export interface SqliteWriteStoreOptions {
  busyTimeoutMs?: number;
  /** Flushes between two WAL checkpoints run by the thread (8: a few hundred pages each at full load). */
  checkpointEvery?: number;
  /**
   * Time between two checkpoints at least (200 ms). The position writer commits as soon as it
   * is idle, so one device sending back-to-back makes thousands of one-position flushes a
   * second: counted alone, they would checkpoint (copy the same hot pages, two fsyncs) hundreds
   * of times a second. 200 ms is what the old 25 ms flush timer allowed at most (8 × 25 ms).
   */
  checkpointIntervalMs?: number;
  /** How long close() waits for the thread to finish before terminating it. */
  closeTimeoutMs?: number;
}

export class SqliteWriteStore implements WriteStore {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private starting = 0;
  private closed = false;
  /** Threads started (1 + restarts after a crash); time spent inside transactions (total, longest). */
  readonly stats = { threads: 0, transactionMs: 0, maxTransactionMs: 0 };

  constructor(
    private readonly file: string,
    private readonly log: FastifyBaseLogger,
    private readonly options: SqliteWriteStoreOptions = {},
  ) {}

  /** Starts the thread; resolves once it has opened the database (a failure rejects). */
  start(): Promise<void> {
    return this.spawn();
  }

  /** The running thread, if any (tests stop it to simulate a crash). */
  get thread(): Worker | null {
    return this.worker;
  }

  /** Flushes posted and not answered yet. */
  get inFlight(): number {
    return this.pending.size;
  }

  async commit(request: FlushRequest): Promise<FlushResult> {
    if (this.closed) throw new Error('the SQLite writer is closed');
    await this.spawn();
    const worker = this.worker;
    if (!worker) throw new Error('SQLite writer thread stopped');
    const id = this.nextId++;
    return new Promise<FlushResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.hold();
      worker.postMessage({ type: 'flush', id, request } satisfies ToWriterThread);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    await this.ready?.catch(() => undefined);
    if (this.worker !== worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref();
    // Queued flushes run first: the thread handles messages in order.
    worker.postMessage({ type: 'close' } satisfies ToWriterThread);
    const timer = setTimeout(() => void worker.terminate(), this.options.closeTimeoutMs ?? 10_000);
    await exited;
    clearTimeout(timer);
  }

  /** Starts a thread unless one is running; resolves when it is ready. */
  private spawn(): Promise<void> {
    if (this.worker && this.ready) return this.ready;
    const init: WriterThreadInit = {
      file: this.file,
      statements: sqliteWriterStatements(),
      busyTimeoutMs: this.options.busyTimeoutMs ?? 5000,
      checkpointEvery: Math.max(1, this.options.checkpointEvery ?? 8),
      checkpointIntervalMs: Math.max(0, this.options.checkpointIntervalMs ?? 200),
    };
    const worker = startTypeScriptWorker(WORKER_FILE, init);
    this.stats.threads++;
    this.worker = worker;
    this.starting++;
    this.hold();
    let failure: Error | null = null;
    let settled = false;
    const ready = new Promise<void>((resolve, reject) => {
      const settle = (error: Error | null) => {
        if (settled) return;
        settled = true;
        this.starting--;
        this.release();
        if (error) reject(error);
        else resolve();
      };
      worker.on('message', (message: FromWriterThread) => {
        if (message.type === 'ready') settle(null);
        else this.answer(message);
      });
      worker.on('error', (error) => {
        failure = error;
      });
      worker.on('exit', (code) => {
        const error = new Error(`SQLite writer thread stopped (exit code ${code})${failure ? `: ${failure.message}` : ''}`, {
          cause: failure ?? undefined,
        });
        if (this.worker === worker) {
          this.worker = null;
          this.ready = null;
        }
        settle(error);
        if (!this.closed || failure) this.log.error({ err: error, pending: this.pending.size }, 'SQLite writer thread stopped');
        const pending = [...this.pending.values()];
        this.pending.clear();
        for (const p of pending) {
          this.release();
          p.reject(error);
        }
      });
    });
    ready.catch(() => undefined);
    this.ready = ready;
    return ready;
  }

  private answer(message: Exclude<FromWriterThread, { type: 'ready' }>): void {
    const p = this.pending.get(message.id);
    if (!p) return;
    this.pending.delete(message.id);
    this.release();
    if (message.type === 'done') {
      this.stats.transactionMs += message.ms;
      this.stats.maxTransactionMs = Math.max(this.stats.maxTransactionMs, message.ms);
      p.resolve({ positionIds: message.positionIds, eventIds: message.eventIds });
    } else {
      const error = new Error(message.error.message);
      error.name = message.error.name;
      if (message.error.code) (error as Error & { code?: string }).code = message.error.code;
      p.reject(error);
    }
  }

  /** The thread keeps the process alive only while it starts or has flushes in hand. */
  private hold(): void {
    this.worker?.ref();
  }

  private release(): void {
    if (this.pending.size === 0 && this.starting === 0) this.worker?.unref();
  }
}
