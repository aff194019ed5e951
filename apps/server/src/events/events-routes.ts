// GET /api/events/{id} (Traccar EventResource): one stored event, for a caller who sees its
// device (administrators any). A non-administrator gets the usual device-access refusal both
// when the event's device is not theirs and when there is no such event, so event ids cannot
// be probed; administrators get 404 for a missing event.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { eventToJson } from './event-json.ts';
import { requireUser } from '../auth/authenticate.ts';
import { accessDenied, notFound } from '../http/errors.ts';
import { pathId } from '../access/list-params.ts';

export async function eventsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { id: string } }>('/api/events/:id', async (req) => {
    const user = requireUser(req);
    const id = pathId(req.params.id);
    const row = await ctx.storage.db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
    const visible = row !== undefined && (await ctx.visibility.canSeeDevice(user, Number(row.deviceId)));
    if (!visible) throw user.administrator === 1 ? notFound('Event not found') : accessDenied.device();
    return eventToJson(row);
  });
}
