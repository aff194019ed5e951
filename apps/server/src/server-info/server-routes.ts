// /api/server: the global settings (public read, admin write) and the in-process restart.
// Like the product's extension, the answers carry `licensemode` and, when a server-wide
// device limit is configured, `devicelimit` = devices still allowed.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertAdmin } from '../auth/guards.ts';
import { getServerRow, updateServerRow } from './server-repo.ts';
import { serverToJson, serverUpdateFromJson } from './server-json.ts';
import { remainingDeviceSlots } from './device-limit.ts';
import { storageSpace } from './storage-space.ts';
import { availableTimeZones } from './time-zones.ts';

export async function serverRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sendServer = async (req: FastifyRequest, reply: FastifyReply) => {
    const row = await getServerRow(ctx);
    // As Traccar: the disk space is an administrator's business, and only a caller not logged
    // in asks whether to register the first user (the first-start administrator exists from
    // the start, so it is true only on a database whose users were all removed by hand).
    const storage = req.user?.administrator === 1 ? await storageSpace(ctx.config.dataDir) : null;
    const newServer = req.user ? false : (await ctx.users.count()) === 0;
    await licenseHeaders(ctx, reply);
    return serverToJson(row, { emailEnabled: ctx.mailer.enabled, storageSpace: storage, newServer });
  };

  app.get('/api/server', { config: { public: true } }, sendServer);

  // Any logged-in caller, as Traccar (not public): the zone names a preference may take (time-zones.ts).
  app.get('/api/server/timezones', async () => availableTimeZones());

  app.put('/api/server', async (req, reply) => {
    assertAdmin(requireUser(req));
    await updateServerRow(ctx, serverUpdateFromJson(req.body));
    return sendServer(req, reply);
  });

  // Traccar's /reboot ends the process; here both paths restart in place (restarter.ts).
  const restart = async (req: FastifyRequest, reply: FastifyReply) => {
    assertAdmin(requireUser(req));
    const run = ctx.restart;
    if (!run) throw new ApiError(503, 'Restart unavailable - this server was not started with restart support');
    ctx.log.warn({ userId: req.user?.id }, 'restart requested');
    // Close only once the answer has left, so the client sees success.
    reply.raw.once('finish', () => setImmediate(run));
    return reply.code(200).send([]);
  };
  app.post('/api/server/restart', restart);
  app.post('/api/server/reboot', restart);
}

async function licenseHeaders(ctx: AppContext, reply: FastifyReply): Promise<void> {
  reply.header('licensemode', ctx.config.license);
  const remaining = await remainingDeviceSlots(ctx);
  if (remaining !== null) reply.header('devicelimit', String(remaining));
  // Browsers hide custom headers from cross-origin scripts unless they are listed.
  reply.header('Access-Control-Expose-Headers', 'licensemode, devicelimit');
}
