// Builds the HTTP application: Traccar's /api, the socket, and the web client at /.
// Each feature folder exports one `register` function; this file only wires them.
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import websocket from '@fastify/websocket';
import fastifyStatic from '@fastify/static';
import type { AppContext } from './context.ts';
import { ApiError } from './http/errors.ts';
import { registerBodyParsers } from './http/body-parsers.ts';
import { onStoredValueWarning } from './http/json.ts';
import { DATABASE_UNAVAILABLE, RETRY_AFTER_SECONDS, isDatabaseUnavailable } from './storage/unavailable.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { resolveCaller, sendUnauthorized } from './auth/authenticate.ts';
import { crossSiteGuard } from './auth/origin-check.ts';
import { registerAudit } from './audit/audit-plugin.ts';
import { advancedPermissionsGuard } from './access/advanced-perms.ts';
import { restrictedAccountsGuard } from './access/restricted-accounts.ts';
import { sessionRoutes } from './auth/session-routes.ts';
import { passwordRoutes } from './auth/password-routes.ts';
import { usersRoutes } from './users/users-routes.ts';
import { usersDeviceCountsRoutes } from './users/users-device-counts.ts';
import { serverRoutes } from './server-info/server-routes.ts';
import { devicesRoutes } from './devices/devices-routes.ts';
import { deviceClockRoutes } from './device-clock/clock-routes.ts';
import { groupsRoutes } from './groups/groups-routes.ts';
import { permissionsRoutes } from './permissions/permissions-routes.ts';
import { positionsRoutes } from './positions/positions-routes.ts';
import { socketRoutes } from './realtime/socket-routes.ts';
import { weatherRoutes } from './weather/weather-routes.ts';
import { geofencesRoutes } from './geofences/geofences-routes.ts';
import { commandsRoutes } from './commands/commands-routes.ts';
import { reportsRoutes } from './reports/reports-routes.ts';
import { motionReportRoutes } from './motion/motion-report-routes.ts';
import { eventsRoutes } from './events/events-routes.ts';
import { statisticsRoutes } from './statistics/statistics-routes.ts';
import { serverStatistics } from './statistics/server-statistics.ts';
import { entityResourcesRoutes } from './resources/entity-routes.ts';
import { notificationTypesRoutes } from './notifications/notification-types-routes.ts';
import { notificationTestRoute } from './notifications/notification-test-route.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without a session (the caller is still resolved when one is present). */
    public?: boolean;
  }
}

export async function buildApp(ctx: AppContext, logger: boolean | object = false): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    bodyLimit: 1024 * 1024,
    // Only a proxy we trust may tell us the client's address (login throttling counts per address).
    trustProxy: ctx.config.trustProxy,
    // Traccar lists can be long; keep JSON serialisation defaults.
  });
  await registerSecurityHeaders(app, ctx.config); // first, so every answer (errors and 404s too) carries them
  await app.register(cookie);
  // JSON depth, UTF-8 and surrogate checks; strict percent-encoding of forms and queries.
  await registerBodyParsers(app);
  onStoredValueWarning((details) => ctx.log.warn(details, 'stored value cannot be shown - answered as null'));
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('credential', null);

  // CORS as Traccar: any origin without credentials, echo only same-host origins with them.
  app.addHook('onRequest', async (req, reply) => {
    if (!req.url.startsWith('/api')) return;
    reply.header('Access-Control-Allow-Headers', 'origin, content-type, accept, authorization');
    reply.header('Access-Control-Allow-Credentials', 'true');
    reply.header('Access-Control-Allow-Methods', 'GET, POST, PUT, DELETE, OPTIONS');
    const origin = req.headers.origin;
    if (!origin) reply.header('Access-Control-Allow-Origin', '*');
    else {
      try {
        if (new URL(origin).host === req.headers.host) reply.header('Access-Control-Allow-Origin', origin);
      } catch {
        /* a malformed Origin gets no CORS header */
      }
    }
  });

  // Cross-site POST/PUT/DELETE (login CSRF included) are refused before anything runs.
  app.addHook('onRequest', crossSiteGuard(ctx));

  app.addHook('preHandler', async (req, reply) => {
    if (!req.url.startsWith('/api') || req.method === 'OPTIONS') return;
    const isPublic = req.routeOptions.config?.public === true;
    try {
      req.user = await resolveCaller(ctx, req);
    } catch (error) {
      if (isPublic && req.headers.authorization === undefined) {
        req.user = null;
      } else throw error;
    }
    if (!req.user && !isPublic) return sendUnauthorized(req, reply);
    // Traccar counts the requests of logged-in callers (GET /api/statistics).
    if (req.user) serverStatistics(ctx).request(req.user.id);
  });

  // Spec §6 advanced permission bits, route by route (the table is in access/advanced-perms.ts).
  app.addHook('preHandler', restrictedAccountsGuard());
  app.addHook('preHandler', advancedPermissionsGuard(ctx));

  // Audit rows of every login and write (audit/audited-routes.ts), after authentication, before the routes.
  await registerAudit(app, ctx);

  app.options('/api/*', async (_req, reply) => reply.code(204).send());

  app.setErrorHandler((error, req, reply) => {
    if (error instanceof ApiError) {
      for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
      return reply.code(error.status).type('text/plain; charset=utf-8').send(error.message);
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(status).type('text/plain; charset=utf-8').send(`${(error as Error).message}`);
    }
    // The database is restarting or unreachable: a clean "try again", not a 500 (so /api/health answers 503 too).
    if (isDatabaseUnavailable(error)) {
      req.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).header('Retry-After', String(RETRY_AFTER_SECONDS)).type('text/plain; charset=utf-8').send(DATABASE_UNAVAILABLE);
    }
    req.log.error(error);
    return reply.code(500).type('text/plain; charset=utf-8').send('Internal server error - the error was logged');
  });

  app.get('/api/health', { config: { public: true } }, async (_req, reply) => {
    await ctx.storage.db.selectFrom('server').select('id').limit(1).execute();
    return reply.type('text/plain').send('OK');
  });

  await sessionRoutes(app, ctx);
  await passwordRoutes(app, ctx);
  await usersRoutes(app, ctx);
  await usersDeviceCountsRoutes(app, ctx);
  await serverRoutes(app, ctx);
  await devicesRoutes(app, ctx);
  await deviceClockRoutes(app, ctx);
  await groupsRoutes(app, ctx);
  await permissionsRoutes(app, ctx);
  await positionsRoutes(app, ctx);
  await socketRoutes(app, ctx);
  await weatherRoutes(app, ctx);
  await geofencesRoutes(app, ctx);
  await commandsRoutes(app, ctx);
  await reportsRoutes(app, ctx);
  await motionReportRoutes(app, ctx);
  await eventsRoutes(app, ctx);
  await statisticsRoutes(app, ctx);
  await entityResourcesRoutes(app, ctx);
  await notificationTypesRoutes(app);
  await notificationTestRoute(app, ctx);

  await registerWebClient(app, ctx);
  return app;
}

/**
 * Cache rules of the built client: hashed files under assets/ never change (a year, immutable);
 * the page, the service worker and the manifest are re-checked on every load so a new version
 * reaches people at once (the worker then offers it); anything else an hour.
 */
function webCacheHeaders(root: string, file: string, reply: { header(name: string, value: string): unknown }): void {
  const relative = path.relative(root, file).split(path.sep).join('/');
  if (relative.startsWith('assets/')) reply.header('Cache-Control', 'public, max-age=31536000, immutable');
  else if (/^(index\.html|sw\.js|registerSW\.js|manifest\.webmanifest)$/.test(relative)) reply.header('Cache-Control', 'no-cache');
  if (relative.endsWith('.webmanifest')) reply.header('Content-Type', 'application/manifest+json; charset=utf-8');
}

/** Serves the built client with an SPA fallback: any non-API HTML request gets index.html. */
async function registerWebClient(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const root = ctx.config.webRoot ?? path.resolve(import.meta.dirname, '../../web/dist');
  const index = path.join(root, 'index.html');
  const hasClient = fs.existsSync(index);
  if (hasClient) {
    await app.register(fastifyStatic, { root, wildcard: false, maxAge: 3600 * 1000, setHeaders: (reply, file) => webCacheHeaders(root, file, reply) });
  }
  app.setNotFoundHandler((req, reply) => {
    const wantsHtml = (req.headers.accept ?? '').includes('text/html');
    const lastSegment = req.url.split('?')[0]?.split('/').pop() ?? '';
    if (req.method === 'GET' && wantsHtml && !req.url.startsWith('/api') && !lastSegment.includes('.')) {
      if (hasClient) return reply.type('text/html').header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
  });
}
