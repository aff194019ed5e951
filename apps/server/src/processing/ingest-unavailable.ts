// A device message that was not taken: the position writer already holds as many positions as
// it may while the database is behind or away (RASTRO_INGEST_BUFFER), or the server gave up on
// the database while stopping. The device must send the message again later; ingest listeners
// answer it without an acknowledgement (OsmAnd: HTTP 503 with Retry-After).
import { RETRY_AFTER_SECONDS } from '../storage/unavailable.ts';

export class IngestUnavailable extends Error {
  constructor(
    message: string,
    /** When the device should try again. */
    readonly retryAfterSeconds: number = RETRY_AFTER_SECONDS,
  ) {
    super(message);
    this.name = 'IngestUnavailable';
  }
}

export const bufferFull = (limit: number) =>
  new IngestUnavailable(`Server busy - ${limit} positions are waiting for the database, send again later`);

export const notStoredAtShutdown = () =>
  new IngestUnavailable('Server stopping - the database was unavailable and the position was not stored');
