// Which errors mean "the database is away for now" (retry, answer 503) and which are about the
// request itself (answered at once, as before).
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable.ts';

const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('PostgreSQL going away: admin/crash shutdown, starting up, too many connections, connection exceptions', () => {
    for (const code of ['57P01', '57P02', '57P03', '53300', '08006', '08001', '08003', '08P01']) expect(isDatabaseUnavailable(coded(code))).toBe(true);
  });

  it('pg and pg-pool messages of a broken or unobtainable connection', () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated',
      'Client has encountered a connection error and is not queryable',
      'timeout exceeded when trying to connect',
    ]) expect(isDatabaseUnavailable(new Error(message))).toBe(true);
  });

  it('sockets refused or cut, also inside an AggregateError (a name with several addresses)', () => {
    expect(isDatabaseUnavailable(coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'))).toBe(true);
    expect(isDatabaseUnavailable(coded('ECONNRESET'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]))).toBe(true);
  });

  it('SQLite busy, locked, I/O error, full disk (extended codes too)', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_FULL']) {
      expect(isDatabaseUnavailable(coded(code))).toBe(true);
    }
  });

  it('errors about the request, or from elsewhere, are not', () => {
    expect(isDatabaseUnavailable(coded('23505', 'duplicate key value violates unique constraint'))).toBe(false);
    expect(isDatabaseUnavailable(coded('23503', 'insert or update violates foreign key constraint'))).toBe(false);
    expect(isDatabaseUnavailable(coded('SQLITE_CONSTRAINT_FOREIGNKEY'))).toBe(false);
    expect(isDatabaseUnavailable(coded('42P01', 'relation "positions" does not exist'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('SQLite writer thread stopped (exit code 1)'))).toBe(false);
    // An outside service that cannot be reached (fetch wraps the socket error) is not the database.
    expect(isDatabaseUnavailable(new TypeError('fetch failed', { cause: coded('ECONNREFUSED') }))).toBe(false);
    for (const value of [null, undefined, 'ECONNREFUSED', 42, {}]) expect(isDatabaseUnavailable(value)).toBe(false);
  });
});
