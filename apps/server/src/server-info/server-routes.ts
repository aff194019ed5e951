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

export async function serverRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sendServer = async (req: FastifyRequest, reply: FastifyReply) => {
    const row = await getServerRow(ctx);
    const newServer = req.user ? undefined : (await ctx.users.count()) === 0;
    await licenseHeaders(ctx, reply);
    return serverToJson(row, { emailEnabled: ctx.mailer.enabled, newServer });
  };

  app.get('/api/server', { config: { public: true } }, sendServer);

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
