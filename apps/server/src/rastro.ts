// Starts a whole Rastro server from a config: storage, context, HTTP app, device ports.
// `main.ts` calls it for `npm start`; tests call it on free ports with a temporary database.
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { openStorage } from './storage/db.ts';
import { TokenService } from './auth/tokens.ts';
import { SessionStore } from './auth/sessions.ts';
import { hashPassword } from './auth/passwords.ts';
import { UsersRepo } from './users/users-repo.ts';
import { Visibility } from './access/visibility.ts';
import { Changes } from './realtime/changes.ts';
import { LiveFeed } from './realtime/live.ts';
import { buildApp } from './app.ts';
import { startServices } from './services.ts';
import type { ListenerPorts } from './ingest/tcp/protocol-listeners.ts';
import { createMailer } from './mail/mailer.ts';
import { serverStatistics } from './statistics/server-statistics.ts';

export interface StartOptions {
  /** PostgreSQL schema to use (tests isolate suites this way). */
  pgSchema?: string;
  /** Log to stdout (pino JSON); off in tests. */
  logger?: boolean;
  /**
   * Called when an administrator asks for a restart (POST /api/server/restart), after the
   * answer was sent. The owner closes this instance and starts a new one (server-info/restarter.ts).
   */
  onRestart?: (rastro: Rastro) => void;
}

export interface Rastro {
  ctx: AppContext;
  app: FastifyInstance;
  /** Actual HTTP port (useful when the config asked for 0). */
  port: number;
  /** Actual OsmAnd port, 0 when disabled. */
  osmandPort: number;
  /** Actual ports of the device protocols by name (gt06, teltonika, …); a protocol turned off is absent. */
  protocolPorts: Record<string, ListenerPorts>;
  /** Generated administrator password when none was configured and the database was new. */
  generatedAdminPassword: string | null;
  close(): Promise<void>;
}

export async function startRastro(config: Config, options: StartOptions = {}): Promise<Rastro> {
  const log = options.logger ? pino({ level: 'info' }) : pino({ level: 'silent' });
  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, pgSchema: options.pgSchema, log });
  const ctx: AppContext = {
    config,
    storage,
    log,
    tokens: await TokenService.open(storage.db),
    sessions: new SessionStore(storage.db),
    users: new UsersRepo(storage.db),
    visibility: new Visibility(storage.db),
    changes: new Changes(),
    live: new LiveFeed(),
    mailer: createMailer(config, log, () => serverStatistics(ctx).mailSent()),
    restart: null,
    onClose: [],
  };
  ctx.onClose.push(() => ctx.mailer.close());
  await ensureServerRow(ctx);
  const generatedAdminPassword = await ensureAdministrator(ctx);

  const app = await buildApp(ctx, options.logger ? { level: 'warn' } : false);
  await app.listen({ host: config.host, port: config.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const services = await startServices(ctx, { httpPort: port });

  let closed = false;
  const rastro: Rastro = {
    ctx,
    app,
    port,
    osmandPort: services.osmandPort,
    protocolPorts: services.protocolPorts,
    generatedAdminPassword,
    async close() {
      if (closed) return;
      closed = true;
      for (const hook of [...ctx.onClose].reverse()) await hook();
      // app.close() waits for every open connection that is not idle: an answer still streaming
      // to a slow or stalled client, or a connection opened and never used (browsers pre-connect;
      // Node waits for its headers timeout, 60 s). After a short grace the rest are cut.
      const cut = setTimeout(() => app.server.closeAllConnections(), 2_000);
      try {
        await app.close();
      } finally {
        clearTimeout(cut);
      }
      await storage.close();
    },
  };
  const onRestart = options.onRestart;
  if (onRestart) ctx.restart = () => onRestart(rastro);
  return rastro;
}

async function ensureServerRow(ctx: AppContext): Promise<void> {
  const existing = await ctx.storage.db.selectFrom('server').select('id').executeTakeFirst();
  if (existing) return;
  // São Paulo by default: the demo fleet drives there and most customers are in Brazil.
  await ctx.storage.db
    .insertInto('server')
    .values({
      registration: 0, readonly: 0, deviceReadonly: 0, limitCommands: 0, disableReports: 0, fixedEmail: 0,
      map: null, bingKey: null, mapUrl: null, overlayUrl: null, poiLayer: null, announcement: null,
      latitude: -23.5505, longitude: -46.6333, zoom: 12, twelveHourFormat: 0, forceSettings: 0,
      coordinateFormat: null, attributes: '{}',
    })
    .execute();
}

/** On a new database, creates `admin`; returns the generated password when none was configured. */
async function ensureAdministrator(ctx: AppContext): Promise<string | null> {
  if ((await ctx.users.count()) > 0) return null;
  const generated = ctx.config.adminPassword ? null : crypto.randomBytes(9).toString('base64url');
  const password = ctx.config.adminPassword ?? generated!;
  const hash = await hashPassword(password);
  await ctx.users.insert({
    name: 'Administrator', login: 'admin', email: 'admin', phone: null, readonly: 0, administrator: 1,
    map: null, latitude: 0, longitude: 0, zoom: 0, twelveHourFormat: 0, coordinateFormat: null, disabled: 0,
    expirationTime: null, deviceLimit: -1, userLimit: -1, deviceReadonly: 0, limitCommands: 0, disableReports: 0,
    fixedEmail: 0, poiLayer: null, temporary: 0, totpKey: null, hashedPassword: hash.hashedPassword, salt: hash.salt,
    attributes: '{}',
  });
  return generated;
}
