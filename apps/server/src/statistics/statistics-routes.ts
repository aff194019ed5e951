// GET /api/statistics?from&to (administrators; others 400 as every refusal): the days whose
// captureTime — the UTC midnight that ends them — lies in the period, oldest first. The running
// day is not among them until it ends (as Traccar, which writes a day's row when it is over).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertAdmin } from '../auth/guards.ts';
import { isoBound, type Query } from '../access/list-params.ts';
import { statisticsIn } from './statistics-repo.ts';
import { statisticsToJson } from './statistics-json.ts';

export async function statisticsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/statistics', async (req) => {
    assertAdmin(requireUser(req));
    const query = (req.query ?? {}) as Query;
    const from = isoBound(query, 'from', 'statistics');
    const to = isoBound(query, 'to', 'statistics');
    const rows = await statisticsIn(ctx.storage.db, from, to, Date.now());
    return rows.map(statisticsToJson);
  });
}
