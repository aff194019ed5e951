// The request thread's side of the report threads (report-thread.ts). Reports and position
// histories are checked here (report-request.ts), then run as jobs in a small pool of threads
// with their own database connections, so the event loop that serves the API and the device
// ports never runs a report. The pool also bounds report work:
//
// - per user: at most `userLimit` reports running at once and USER_WAITING more waiting
//   behind them (more → 429 with Retry-After) — one screen asks for a few parts at once (the
//   history: route, stops, events), and another user's report is started before a user's
//   third; and at most `userLimit` mailed reports pending;
// - in total: at most `queue` reports waiting for a thread (more → 503) and `mailQueue`
//   mailed reports pending (more → 429); a thread runs up to JOBS_PER_THREAD jobs at once,
//   interleaved at their database reads, and mailed reports take at most half the slots
//   (answers someone waits for go first);
// - in memory: an answer crosses over one piece (~64 KB) per credit, and a credit is granted
//   only when the HTTP response wants more, so a slow client holds the producer, not memory;
// - in time: a client that goes away cancels its job (the thread stops at its next read; a
//   thread that has not stopped after CANCEL_GRACE_MS is terminated and replaced), and
//   `close()` terminates the threads, so shutdown never waits for a report.
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { ReportsConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { startTypeScriptWorker } from '../threads/typescript-worker.ts';
import type { FromReportThread, ReportJobSpec, ReportThreadInit, ThreadError, ToReportThread } from './report-protocol.ts';

const THREAD_FILE = fileURLToPath(new URL('./report-thread.ts', import.meta.url));

/** Jobs a thread interleaves: a short report is not stuck behind a long one on the same thread. */
export const JOBS_PER_THREAD = 4;
/** How long a cancelled job may take to stop before its thread is replaced. */
const CANCEL_GRACE_MS = 10_000;
/**
 * A mailed spreadsheet larger than this is not sent: base64 makes it a third larger, and mail
 * servers commonly refuse messages over 20–25 MB. It also bounds what a pending mail holds.
 */
export const MAIL_MAX_BYTES = 15 * 1024 * 1024;
/**
 * Reports of one user that may wait behind their running ones: a screen asks for several parts at
 * once (the history's route, stops and events), and a second screen may be open.
 */
export const USER_WAITING = 4;
/** Seconds a refused client is told to wait. */
const RETRY_AFTER = '5';

export type ReportLimits = ReportsConfig;

interface Sink {
  piece(piece: Buffer | string): void;
  end(): void;
  fail(error: Error): void;
}

interface Job {
  id: number;
  userId: number;
  spec: ReportJobSpec;
  mail: boolean;
  sink: Sink;
  thread: ReportThread | null;
  /** The reader asked for a piece before the job reached a thread. */
  wantsPiece: boolean;
  cancelled: boolean;
  done: boolean;
  pieces: number;
  bytes: number;
  cancelTimer: NodeJS.Timeout | null;
}

/** What the pool is doing (tests and benchmarks look). */
export interface PoolActivity {
  threads: number;
  waiting: number;
  running: number;
  mailsPending: number;
  jobs: Array<{ userId: number; kind: string; format: string; mail: boolean; started: boolean; cancelled: boolean; pieces: number; bytes: number }>;
}

class ReportThread {
  worker: Worker | null = null;
  readonly jobs = new Set<Job>();
  private readonly outbox: ToReportThread[] = [];
  stopped = false;
  /** Resolves once the thread has exited (or never started). */
  readonly exited: Promise<void>;
  markExited!: () => void;

  constructor() {
    this.exited = new Promise((resolve) => {
      this.markExited = resolve;
    });
  }

  post(message: ToReportThread): void {
    if (this.worker) this.worker.postMessage(message);
    else this.outbox.push(message);
  }

  attach(worker: Worker): void {
    this.worker = worker;
    // Running jobs keep the HTTP connections open anyway; a thread never holds the process.
    worker.unref();
    for (const message of this.outbox.splice(0)) worker.postMessage(message);
  }
}

export class ReportPool {
  private readonly threads: ReportThread[] = [];
  private readonly waiting: Job[] = [];
  /** Reports of a user admitted (running or waiting), and running. */
  private readonly reportsOf = new Map<number, number>();
  private readonly runningOf = new Map<number, number>();
  private readonly mailsOf = new Map<number, number>();
  private mailsPending = 0;
  private nextId = 1;
  private closing = false;
  private initialized: Promise<ReportThreadInit> | null = null;

  constructor(
    private readonly limits: ReportLimits,
    private readonly threadInit: () => Promise<ReportThreadInit>,
    private readonly log: () => FastifyBaseLogger,
  ) {}

  /**
   * Queues a report whose answer is read from the returned stream (give it to `reply.send`).
   * Throws ApiError 429 / 503 when the caller or the server has too much report work already.
   * Destroying the stream (fastify does when the client goes away) cancels the job.
   */
  stream(userId: number, spec: ReportJobSpec): Readable {
    this.admitReport(userId);
    const readable: Readable = new Readable({
      highWaterMark: 64 * 1024,
      read: () => this.want(job),
      destroy: (error, callback) => {
        this.cancel(job);
        callback(error);
      },
    });
    const job = this.newJob(userId, spec, false, {
      piece: (piece) => readable.push(piece),
      end: () => readable.push(null),
      fail: (error) => readable.destroy(error),
    });
    count(this.reportsOf, userId, +1);
    this.waiting.push(job);
    this.dispatch();
    return readable;
  }

  /**
   * Queues a spreadsheet to be mailed: `deliver` gets its bytes once built. Throws ApiError 429
   * when the caller or the server has too many mails pending. Failures are logged.
   */
  mail(userId: number, spec: ReportJobSpec, deliver: (content: Buffer) => Promise<void>): void {
    this.admitMail(userId);
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = () => {
      count(this.mailsOf, userId, -1);
      this.mailsPending--;
    };
    const failed = (error: unknown) => {
      settle();
      this.log().error({ err: error, report: spec.kind, userId }, 'report mail failed');
    };
    const job: Job = this.newJob(userId, spec, true, {
      piece: (piece) => {
        const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
        size += bytes.length;
        chunks.push(bytes);
        if (size > MAIL_MAX_BYTES) {
          chunks.length = 0;
          this.cancel(job);
          failed(new Error(`the spreadsheet is larger than ${MAIL_MAX_BYTES / 2 ** 20} MB - ask for a shorter period or fewer devices`));
          return;
        }
        this.want(job);
      },
      end: () => {
        if (size > MAIL_MAX_BYTES) return;
        deliver(Buffer.concat(chunks)).then(settle, failed);
      },
      fail: (error) => failed(error),
    });
    job.wantsPiece = true;
    count(this.mailsOf, userId, +1);
    this.mailsPending++;
    this.waiting.push(job);
    this.dispatch();
  }

  activity(): PoolActivity {
    const jobs = [...this.waiting, ...this.threads.flatMap((t) => [...t.jobs])];
    return {
      threads: this.threads.length,
      waiting: this.waiting.length,
      running: jobs.length - this.waiting.length,
      mailsPending: this.mailsPending,
      jobs: jobs.map((j) => ({
        userId: j.userId, kind: j.spec.kind, format: j.spec.format, mail: j.mail, started: j.thread !== null, cancelled: j.cancelled,
        pieces: j.pieces, bytes: j.bytes,
      })),
    };
  }

  /** Refuses new work, fails what waits and terminates the threads (their jobs fail at once). */
  async close(): Promise<void> {
    this.closing = true;
    for (const job of this.waiting.splice(0)) this.finish(job, stopping());
    await Promise.all(this.threads.map((t) => this.stopThread(t)));
  }

  private admitReport(userId: number): void {
    if (this.closing) throw stopping();
    const mine = this.reportsOf.get(userId) ?? 0;
    if (mine >= this.limits.userLimit + USER_WAITING) {
      throw new ApiError(
        429,
        `Too many reports at once - you may run ${this.limits.userLimit} at a time and have ${USER_WAITING} more waiting (history included); wait for one to finish, or cancel it`,
        { 'Retry-After': RETRY_AFTER },
      );
    }
    const waitingReports = this.waiting.filter((j) => !j.mail).length;
    if (!this.hasFreeSlot() && waitingReports >= this.limits.queue) {
      throw new ApiError(503, 'Reports are busy - too many are waiting on this server; try again in a moment', { 'Retry-After': RETRY_AFTER });
    }
  }

  private admitMail(userId: number): void {
    if (this.closing) throw stopping();
    if ((this.mailsOf.get(userId) ?? 0) >= this.limits.userLimit) {
      throw new ApiError(429, `Too many mailed reports pending - you may have ${this.limits.userLimit} at a time; wait for them to arrive`, {
        'Retry-After': RETRY_AFTER,
      });
    }
    if (this.mailsPending >= this.limits.mailQueue) {
      throw new ApiError(429, 'Too many mailed reports pending on this server - try again in a moment', { 'Retry-After': RETRY_AFTER });
    }
  }

  private newJob(userId: number, spec: ReportJobSpec, mail: boolean, sink: Sink): Job {
    return {
      id: this.nextId++, userId, spec, mail, sink, thread: null, wantsPiece: false, cancelled: false, done: false, pieces: 0, bytes: 0, cancelTimer: null,
    };
  }

  private get capacity(): number {
    return this.limits.threads * JOBS_PER_THREAD;
  }

  private running(): number {
    let n = 0;
    for (const t of this.threads) n += t.jobs.size;
    return n;
  }

  private hasFreeSlot(): boolean {
    return this.running() < this.capacity;
  }

  /** Starts waiting jobs while slots are free: reports first, mailed reports on at most half the slots. */
  private dispatch(): void {
    if (this.closing) return;
    for (;;) {
      if (!this.hasFreeSlot()) return;
      // The oldest report whose user has a running slot left: a user's extra reports wait, others' go ahead.
      let index = this.waiting.findIndex((j) => !j.mail && (this.runningOf.get(j.userId) ?? 0) < this.limits.userLimit);
      if (index < 0) {
        let mailsRunning = 0;
        for (const t of this.threads) for (const j of t.jobs) if (j.mail) mailsRunning++;
        if (mailsRunning >= Math.max(1, Math.floor(this.capacity / 2))) return;
        index = this.waiting.findIndex((j) => j.mail);
      }
      if (index < 0) return;
      const thread = this.threadWithRoom();
      if (!thread) return;
      const [job] = this.waiting.splice(index, 1);
      job!.thread = thread;
      if (!job!.mail) count(this.runningOf, job!.userId, +1);
      thread.jobs.add(job!);
      thread.post({ type: 'start', id: job!.id, spec: job!.spec });
      if (job!.wantsPiece) {
        job!.wantsPiece = false;
        thread.post({ type: 'credit', id: job!.id });
      }
    }
  }

  /** The least busy thread; a new one while fewer than configured run and all have work. */
  private threadWithRoom(): ReportThread | null {
    let best: ReportThread | null = null;
    for (const t of this.threads) if (!t.stopped && t.jobs.size < JOBS_PER_THREAD && (!best || t.jobs.size < best.jobs.size)) best = t;
    if ((!best || best.jobs.size > 0) && this.threads.length < this.limits.threads) return this.spawn();
    return best;
  }

  private spawn(): ReportThread {
    const thread = new ReportThread();
    this.threads.push(thread);
    this.initialized ??= this.threadInit();
    this.initialized.then(
      (init) => {
        if (thread.stopped) return;
        const worker = startTypeScriptWorker(THREAD_FILE, init);
        thread.attach(worker);
        let failure: Error | null = null;
        worker.on('message', (message: FromReportThread) => this.onMessage(thread, message));
        worker.on('error', (error) => {
          failure = error;
        });
        worker.on('exit', (code) => this.onExit(thread, code, failure));
      },
      (error: unknown) => {
        this.initialized = null;
        this.onExit(thread, null, error instanceof Error ? error : new Error(String(error)));
      },
    );
    return thread;
  }

  private onMessage(thread: ReportThread, message: FromReportThread): void {
    const job = [...thread.jobs].find((j) => j.id === message.id);
    if (!job) return;
    if (message.type === 'piece') {
      if (job.cancelled) return;
      const piece = typeof message.piece === 'string' ? message.piece : Buffer.from(message.piece.buffer, message.piece.byteOffset, message.piece.byteLength);
      job.pieces++;
      job.bytes += piece.length;
      job.sink.piece(piece);
    } else if (message.type === 'end') this.finish(job, null);
    else this.finish(job, threadError(message.error));
  }

  private onExit(thread: ReportThread, code: number | null, failure: Error | null): void {
    thread.stopped = true;
    thread.markExited();
    const index = this.threads.indexOf(thread);
    if (index >= 0) this.threads.splice(index, 1);
    const error = new Error(`report thread stopped${code === null ? '' : ` (exit code ${code})`}${failure ? `: ${failure.message}` : ''}`, { cause: failure ?? undefined });
    if (!this.closing && (failure || thread.jobs.size > 0)) this.log().error({ err: error, jobs: thread.jobs.size }, 'report thread stopped');
    for (const job of [...thread.jobs]) this.finish(job, this.closing ? stopping() : error);
    this.dispatch();
  }

  /** The reader wants the next piece. */
  private want(job: Job): void {
    if (job.done || job.cancelled) return;
    if (job.thread) job.thread.post({ type: 'credit', id: job.id });
    else job.wantsPiece = true;
  }

  private cancel(job: Job): void {
    if (job.done || job.cancelled) return;
    const thread = job.thread;
    if (!thread) {
      this.finish(job, null);
      return;
    }
    job.cancelled = true;
    thread.post({ type: 'cancel', id: job.id });
    job.cancelTimer = setTimeout(() => {
      if (job.done) return;
      this.log().warn({ report: job.spec.kind, userId: job.userId }, 'a cancelled report did not stop in time: replacing its thread');
      void this.stopThread(thread, true);
    }, CANCEL_GRACE_MS);
    job.cancelTimer.unref();
  }

  /** The job is over (its thread said so, it failed, or it was cancelled before starting): free its slot. */
  private finish(job: Job, error: Error | null): void {
    if (job.done) return;
    job.done = true;
    if (job.cancelTimer) clearTimeout(job.cancelTimer);
    const at = this.waiting.indexOf(job);
    if (at >= 0) this.waiting.splice(at, 1);
    job.thread?.jobs.delete(job);
    if (!job.mail) {
      count(this.reportsOf, job.userId, -1);
      if (job.thread) count(this.runningOf, job.userId, -1);
    }
    if (!job.cancelled) {
      if (error) job.sink.fail(error);
      else job.sink.end();
    }
    this.dispatch();
  }

  /** Ends a thread: an idle one closes its database and exits; a busy one (or `force`) is terminated. */
  private async stopThread(thread: ReportThread, force = false): Promise<void> {
    const worker = thread.worker;
    thread.stopped = true;
    if (!worker) {
      this.onExit(thread, null, null);
      return;
    }
    if (force || thread.jobs.size > 0) void worker.terminate();
    else {
      worker.postMessage({ type: 'close' } satisfies ToReportThread);
      const timer = setTimeout(() => void worker.terminate(), 1000);
      timer.unref();
      await thread.exited;
      clearTimeout(timer);
      return;
    }
    await thread.exited;
  }
}

function count(map: Map<number, number>, key: number, delta: number): void {
  const n = (map.get(key) ?? 0) + delta;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}

const stopping = () => new ApiError(503, 'Server is stopping - try again in a moment', { 'Retry-After': RETRY_AFTER });

function threadError(error: ThreadError): Error {
  if (error.status !== undefined) return new ApiError(error.status, error.message);
  const out = new Error(error.message);
  out.name = error.name;
  return out;
}

/** What a report thread opens: this server's database, through a connection of its own. */
async function threadInit(ctx: AppContext): Promise<ReportThreadInit> {
  const postgres = ctx.storage.dialect === 'postgres';
  let searchPath: string | null = null;
  if (postgres) {
    const row = await sql<{ path: string }>`select current_setting('search_path') as path`.execute(ctx.storage.db);
    searchPath = row.rows[0]?.path ?? null;
  }
  return {
    sqliteFile: ctx.storage.file,
    databaseUrl: postgres ? ctx.config.databaseUrl : null,
    searchPath,
    connections: JOBS_PER_THREAD,
    keys: ctx.config.keys,
  };
}

const pools = new WeakMap<AppContext, ReportPool>();

/** The server's report pool (made on first use; closed with the server). */
export function reportPool(ctx: AppContext): ReportPool {
  let pool = pools.get(ctx);
  if (!pool) {
    const created = new ReportPool(ctx.config.reports, () => threadInit(ctx), () => ctx.log);
    ctx.onClose.push(() => created.close());
    pools.set(ctx, created);
    pool = created;
  }
  return pool;
}
