// Tells a database that is away for a while (restarting, unreachable, connection cut, locked
// or out of disk for a moment) from an error in what we asked of it. The first kind is worth
// waiting for and retrying — the position writer keeps its batch, the API answers 503 "try
// again" — the second is answered at once, as before.

/** What a client is told while the database cannot be reached (HTTP 503, first line of the body). */
export const DATABASE_UNAVAILABLE = 'Database unavailable - try again shortly';

/** Seconds a client is asked to wait before trying again (Retry-After). */
export const RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL SQLSTATEs of a connection that failed or a server that is going away: class 08
 * (connection exception), 57P01 admin_shutdown (pg_terminate_backend, fast shutdown), 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up), 53300 too_many_connections.
 */
const PG_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Socket errors of a connection that could not be made or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN',
  'EHOSTDOWN', 'EAI_AGAIN', 'ENOTFOUND',
]);

/**
 * SQLite result codes (extended codes start with these) of a database that is busy or cannot
 * write for now: locked past busy_timeout, an I/O error, a full disk.
 */
const SQLITE_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL', 'SQLITE_PROTOCOL'];

/** pg and pg-pool say a connection broke in plain messages, without a code. */
const PG_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
  'Connection terminated due to connection timeout',
];

/**
 * True when `error` says the database is unavailable for now, not that the request was wrong.
 * Only the error itself counts, not a `cause` it wraps: an outside service (weather, SMTP) that
 * cannot be reached must not pass for the database.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (PG_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || SOCKET_CODES.has(code)) return true;
    if (SQLITE_PREFIXES.some((prefix) => code.startsWith(prefix))) return true;
  }
  if (typeof message === 'string' && PG_MESSAGES.some((m) => message.startsWith(m))) return true;
  // Node reports a refused connection to a name with several addresses as an AggregateError.
  return Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e));
}
