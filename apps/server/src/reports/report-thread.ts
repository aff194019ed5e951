// A report thread: runs report jobs (report-pool.ts) on its own database connection, so no
// report — however long its period, however slow one statement — holds the request thread
// that serves the API and the devices. Each job produces its answer piece by piece
// (report-output.ts), one piece per credit from the request thread; a cancelled job fails at
// its next database read and stops. Several jobs interleave at their reads.
//
// Loaded through tsx's CommonJS hook (threads/typescript-worker.ts): no `import.meta` here or
// in what it imports.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import type { Database } from '../storage/schema.ts';
// The storage module also sets pg's type parsers (int8 and numeric as numbers): needed here too.
import { watchConnections, type Storage } from '../storage/db.ts';
import { AttributeLookup } from '../events/attribute-lookup.ts';
import { Changes } from '../realtime/changes.ts';
import { ApiError } from '../http/errors.ts';
import { REPORT_KINDS } from './report-kinds.ts';
import { reportPieces } from './report-output.ts';
import type { FromReportThread, ReportJobSpec, ReportThreadInit, ThreadError, ToReportThread } from './report-protocol.ts';
import type { ReportRequest } from './report-request.ts';

const init = workerData as ReportThreadInit;
const port = parentPort!;

function openDatabase(): Storage {
  if (init.sqliteFile) {
    const sqlite = new SQLite(init.sqliteFile, { readonly: true, fileMustExist: true });
    sqlite.pragma('busy_timeout = 5000');
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, dialect: 'sqlite', file: init.sqliteFile, close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: init.databaseUrl!, max: Math.max(1, init.connections), application_name: 'rastro/reports' });
  // A connection the database ends (restart, network cut): unheard, the error would end the
  // thread; heard, the pool drops it and opens another, and a query running on it fails its job.
  watchConnections(pool, { warn: () => undefined });
  const searchPath = init.searchPath;
  pool.on('connect', (client) => {
    // Same schema as the server's connections; queued before any query of the new connection.
    if (searchPath !== null) void client.query('select set_config($1, $2, false)', ['search_path', searchPath]).catch(() => undefined);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', file: null, close: () => db.destroy() };
}

const storage = openDatabase();
/** Groups and server attributes are read per job: nothing tells this thread about changes. */
const changes = new Changes();
const log = pino({ level: 'silent' });

class JobCancelled extends Error {}

/**
 * better-sqlite3 answers synchronously, so a producer awaiting one read after another never
 * leaves the microtask queue: this thread would not see a cancel or a credit until the job
 * ends. After a read, once YIELD_EVERY_MS have passed, the job waits one macrotask turn.
 */
const YIELD_EVERY_MS = 20;
let lastTurn = performance.now();

/** A job's reads: once it is cancelled the next one fails (the producer stops there); a long run of them yields now and then. */
class JobReads implements KyselyPlugin {
  constructor(private readonly signal: AbortSignal) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (this.signal.aborted) throw new JobCancelled('report cancelled');
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (performance.now() - lastTurn >= YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      lastTurn = performance.now();
    }
    return args.result;
  }
}

interface Job {
  credits: number;
  wake: (() => void) | null;
  abort: AbortController;
}

const jobs = new Map<number, Job>();

/** Waits for the request thread to want one more piece. */
async function takeCredit(job: Job): Promise<void> {
  while (job.credits === 0 && !job.abort.signal.aborted) {
    await new Promise<void>((resolve) => {
      job.wake = resolve;
    });
    job.wake = null;
  }
  if (job.abort.signal.aborted) throw new JobCancelled('report cancelled');
  job.credits--;
}

function send(message: FromReportThread, transfer: ArrayBuffer[] = []): void {
  port.postMessage(message, transfer);
}

function describe(error: unknown): ThreadError {
  if (error instanceof ApiError) return { message: error.message, name: error.name, status: error.status };
  if (error instanceof Error) return { message: error.message, name: error.name };
  return { message: String(error), name: 'Error' };
}

async function run(id: number, spec: ReportJobSpec): Promise<void> {
  const job: Job = { credits: 0, wake: null, abort: new AbortController() };
  jobs.set(id, job);
  const lookup = new AttributeLookup({ storage, changes, log }, init.keys);
  let pieces: AsyncGenerator<string | Buffer> | null = null;
  let outcome: FromReportThread = { type: 'end', id };
  try {
    const kind = REPORT_KINDS.get(spec.kind);
    if (!kind) throw new Error(`unknown report kind "${spec.kind}"`);
    await lookup.start();
    const db = storage.db.withPlugin(new JobReads(job.abort.signal));
    const request: ReportRequest = { ...spec.params, ctx: { storage: { ...storage, db } }, lookup };
    pieces = reportPieces(kind, request, spec.format);
    for (;;) {
      await takeCredit(job);
      const next = await pieces.next();
      if (next.done) break;
      if (typeof next.value === 'string') send({ type: 'piece', id, piece: next.value });
      else {
        // A copy of exactly these bytes, moved (not copied again) to the request thread.
        const bytes = new Uint8Array(next.value);
        send({ type: 'piece', id, piece: bytes }, [bytes.buffer]);
      }
    }
  } catch (error) {
    if (!job.abort.signal.aborted) outcome = { type: 'failed', id, error: describe(error) };
  } finally {
    lookup.stop();
    // Closes what the producer holds (its reads, the spreadsheet stream).
    await pieces?.return(undefined).catch(() => undefined);
    jobs.delete(id);
    send(outcome);
  }
}

async function close(): Promise<void> {
  await storage.close().catch(() => undefined);
  port.close();
}

port.on('message', (message: ToReportThread) => {
  switch (message.type) {
    case 'start':
      void run(message.id, message.spec);
      break;
    case 'credit': {
      const job = jobs.get(message.id);
      if (job) {
        job.credits++;
        job.wake?.();
      }
      break;
    }
    case 'cancel': {
      const job = jobs.get(message.id);
      if (job) {
        job.abort.abort();
        job.wake?.();
      }
      break;
    }
    case 'close':
      void close();
      break;
  }
});
