// GET /api/notifications/types: the event types a notification may watch, as Traccar lists
// them (every Event.TYPE_*, in its order) — @rastro/domain/event-types.
import type { FastifyInstance } from 'fastify';
import { EVENT_TYPES } from '@rastro/domain/event-types';
import { requireUser } from '../auth/authenticate.ts';

export async function notificationTypesRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/notifications/types', async (req) => {
    requireUser(req);
    return EVENT_TYPES.map((type) => ({ type }));
  });
}
