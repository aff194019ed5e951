// GET /api/statistics?from&to (administrators; others 400 as every refusal): the days whose
// captureTime — the UTC midnight that ends them — lies in the period, oldest first. The running
// day is not among them until it ends (as Traccar, which writes a day's row when it is over).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertAdmin } from '../auth/guards.ts';
import { badRequest } from '../http/errors.ts';
import { parseIsoInstant } from '../http/json.ts';
import { single, type Query } from '../access/list-params.ts';
import { statisticsIn } from './statistics-repo.ts';
import { statisticsToJson } from './statistics-json.ts';

function instant(query: Query, name: 'from' | 'to'): number {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') {
    throw badRequest(`Missing ${name} - statistics need from and to as ISO dates with an offset, like 2024-05-01T00:00:00Z`);
  }
  const ms = parseIsoInstant(raw);
  if (ms === null) throw badRequest(`Invalid ${name} "${raw.slice(0, 40)}" - an ISO date with an offset is expected, like 2024-05-01T00:00:00Z`);
  return ms;
}

export async function statisticsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/statistics', async (req) => {
    assertAdmin(requireUser(req));
    const query = (req.query ?? {}) as Query;
    const from = instant(query, 'from');
    const to = instant(query, 'to');
    const rows = await statisticsIn(ctx.storage.db, from, to, Date.now());
    return rows.map(statisticsToJson);
  });
}
