// /api/server: the global settings (public read, admin write) and the in-process restart.
// Like the product's extension, the answers carry `licensemode` and, when a server-wide
// device limit is configured, `devicelimit` = devices still allowed.
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { ApiError } from '../http/errors.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertAdmin } from '../auth/guards.ts';
import { getServerRow, invalidateServerRow, updateServerRow } from './server-repo.ts';
import { assertServerAttributes } from './server-settings-rules.ts';
import { serverToJson, serverUpdateFromJson } from './server-json.ts';
import { remainingDeviceSlots } from './device-limit.ts';
import { storageSpace } from './storage-space.ts';
import { availableTimeZones } from './time-zones.ts';

export async function serverRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Names this instance: after POST /api/server/restart a client polls GET /api/server until
  // another name answers, so it knows the new instance is up (not the old one still closing).
  const instance = crypto.randomUUID();
  const sendServer = async (req: FastifyRequest, reply: FastifyReply) => {
    const row = await getServerRow(ctx);
    // As Traccar: the disk space is an administrator's business, and only a caller not logged
    // in asks whether to register the first user (the first-start administrator exists from
    // the start, so it is true only on a database whose users were all removed by hand).
    const storage = req.user?.administrator === 1 ? await storageSpace(ctx.config.dataDir) : null;
    const newServer = req.user ? false : (await ctx.users.count()) === 0;
    await licenseHeaders(ctx, reply, instance);
    return serverToJson(row, { emailEnabled: ctx.mailer.enabled, storageSpace: storage, newServer });
  };

  app.get('/api/server', { config: { public: true } }, sendServer);

  // Any logged-in caller, as Traccar (not public): the zone names a preference may take (time-zones.ts).
  app.get('/api/server/timezones', async () => availableTimeZones());

  app.put('/api/server', async (req, reply) => {
    const user = requireUser(req);
    assertAdmin(user);
    const values = serverUpdateFromJson(req.body);
    // Read past the cache: the attribute checks compare with what is stored now.
    invalidateServerRow(ctx);
    assertServerAttributes(values.attributes, await getServerRow(ctx), user);
    await updateServerRow(ctx, values);
    return sendServer(req, reply);
  });

  // Traccar's /reboot ends the process; here both paths restart in place (restarter.ts).
  const restart = async (req: FastifyRequest, reply: FastifyReply) => {
    assertAdmin(requireUser(req));
    const run = ctx.restart;
    if (!run) throw new ApiError(503, 'Restart unavailable - this server was not started with restart support');
    ctx.log.warn({ userId: req.user?.id }, 'restart requested');
    reply.header(INSTANCE_HEADER, instance);
    reply.header('Access-Control-Expose-Headers', INSTANCE_HEADER);
    // Close only once the answer has left, so the client sees success.
    reply.raw.once('finish', () => setImmediate(run));
    return reply.code(200).send([]);
  };
  app.post('/api/server/restart', restart);
  app.post('/api/server/reboot', restart);
}

/** The instance's name (a new one after each restart). */
export const INSTANCE_HEADER = 'rastro-instance';

async function licenseHeaders(ctx: AppContext, reply: FastifyReply, instance: string): Promise<void> {
  reply.header('licensemode', ctx.config.license);
  const remaining = await remainingDeviceSlots(ctx);
  if (remaining !== null) reply.header('devicelimit', String(remaining));
  reply.header(INSTANCE_HEADER, instance);
  // Browsers hide custom headers from cross-origin scripts unless they are listed.
  reply.header('Access-Control-Expose-Headers', `licensemode, devicelimit, ${INSTANCE_HEADER}`);
}
