// The command lifecycle for the client (product endpoints beside Traccar's /api/commands):
// - GET /api/commands/log?deviceId=N[&limit=]: the device's recent commands, newest first, with
//   their status, why a queued one waits, their times and the device's reply;
// - DELETE /api/commands/log/:id: cancels a command still queued (answers the ended entry).
// Both need sight of the device; a non-administrator gets the same refusal for a command of a
// device they cannot see as for one that does not exist. Cancelling is a change: readonly
// accounts may not.
//
// The client follows changes by polling the list while one of its commands is in flight (and
// when a position of the device arrives): lifecycle steps are rare and matter only while that
// device's detail is open, so no socket message kind is added to Traccar's protocol for them.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertCanWrite } from '../auth/guards.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { accessDenied, badRequest, notFound } from '../http/errors.ts';
import { intParam, pathId, type Query } from '../access/list-params.ts';
import { commandLogToJson } from './command-json.ts';
import { CommandLogRepo, LOG_LIST_DEFAULT, LOG_LIST_MAX } from './command-log-repo.ts';
import { commandDelivery } from './command-delivery.ts';

export async function commandLogRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const log = new CommandLogRepo(ctx.storage.db);
  const delivery = commandDelivery(ctx);

  app.get<{ Querystring: Query }>('/api/commands/log', async (req) => {
    const user = requireUser(req);
    const deviceId = intParam(req.query, 'deviceId');
    if (!deviceId) throw badRequest('Device is required - pass deviceId');
    const limit = Math.min(intParam(req.query, 'limit', 1) ?? LOG_LIST_DEFAULT, LOG_LIST_MAX);
    if (!(await ctx.visibility.canSeeDevice(user, deviceId))) throw accessDenied.device();
    return (await log.listForDevice(deviceId, limit)).map(commandLogToJson);
  });

  app.delete<{ Params: { id: string } }>('/api/commands/log/:id', async (req) => {
    const user = requireUser(req);
    const id = pathId(req.params.id);
    const row = await log.findById(id);
    const visible = row !== undefined && (await ctx.visibility.canSeeDevice(user, Number(row.deviceId)));
    if (!visible) throw user.administrator === 1 ? notFound('Command not found') : accessDenied.device();
    assertCanWrite(user, await getServerRow(ctx));
    const { row: after, cancelled } = await delivery.queue.cancel(id);
    if (!after) throw notFound('Command not found');
    if (!cancelled) throw badRequest('Command not pending - it was sent to the device already or has ended, and cannot be cancelled');
    return commandLogToJson(after);
  });
}
