// Everything a feature needs at run time, built once in `createContext` and handed to each
// feature's `register*` function. Tests build the same context over a temporary database.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Storage } from './storage/db.ts';
import type { TokenService } from './auth/tokens.ts';
import type { SessionStore } from './auth/sessions.ts';
import type { UsersRepo } from './users/users-repo.ts';
import type { Visibility } from './access/visibility.ts';
import type { Changes } from './realtime/changes.ts';
import type { LiveFeed } from './realtime/live.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Processing } from './processing/processing.ts';

export interface AppContext {
  config: Config;
  storage: Storage;
  log: FastifyBaseLogger;
  tokens: TokenService;
  sessions: SessionStore;
  users: UsersRepo;
  visibility: Visibility;
  /** Object changes made through the API; call `changes.publish(...)` after a write. */
  changes: Changes;
  /** Stored positions and device state changes, for the sockets. */
  live: LiveFeed;
  /** Outgoing e-mail (SMTP from RASTRO_SMTP_URL; `enabled` is false when not configured). */
  mailer: Mailer;
  /** Asks the process to restart this server in place (set when started with `onRestart`). */
  restart: (() => void) | null;
  /**
   * The position pipeline (device cache, writer, status), set by `startServices` once it runs;
   * other ingest paths (binary protocols, demo fleet) submit decoded messages through it.
   */
  processing?: Processing;
  /** Hooks run on shutdown, last registered first (sockets, ingest ports, timers). */
  onClose: Array<() => Promise<void> | void>;
}
