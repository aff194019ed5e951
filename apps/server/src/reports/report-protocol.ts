// Messages between the request thread (report-pool.ts) and a report thread (report-thread.ts).
// A job is (kind, format, checked parameters); its answer comes back piece by piece, one piece
// per credit the request thread grants when its reader wants more — so a slow client holds
// the producer, not memory. Plain values only (structured clone).
import type { ConfigValue } from '../events/config-keys.ts';
import type { ReportFormat } from './report-output.ts';
import type { ReportParams } from './report-request.ts';

export interface ReportJobSpec {
  /** A name of report-kinds.ts. */
  kind: string;
  format: ReportFormat;
  params: ReportParams;
}

/** What a report thread opens: the same database as the server, through its own connection. */
export interface ReportThreadInit {
  /** SQLite: the database file, opened read-only (WAL lets it read while the writer writes). */
  sqliteFile: string | null;
  /** PostgreSQL: the server's URL, and the search_path its connections use (the schema). */
  databaseUrl: string | null;
  searchPath: string | null;
  /** PostgreSQL connections of this thread (one per job it runs at a time). */
  connections: number;
  /** The configuration's Traccar keys (report.trip.*, report.ignoreOdometer…), for the settings lookup. */
  keys: Record<string, ConfigValue>;
}

export type ToReportThread =
  | { type: 'start'; id: number; spec: ReportJobSpec }
  /** The reader wants one more piece of job `id`. */
  | { type: 'credit'; id: number }
  /** The reader left: stop job `id` (its next database read fails, its pieces stop). */
  | { type: 'cancel'; id: number }
  /** Finish: close the database and exit (sent only when the thread has no job). */
  | { type: 'close' };

export interface ThreadError {
  message: string;
  name: string;
  /** An ApiError's status (a refusal raised by a producer), to answer it as such. */
  status?: number;
}

export type FromReportThread =
  | { type: 'piece'; id: number; piece: string | Uint8Array }
  /** Job `id` is over: every piece was sent, or it stopped after a cancel. */
  | { type: 'end'; id: number }
  | { type: 'failed'; id: number; error: ThreadError };
