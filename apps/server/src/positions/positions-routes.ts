// GET /api/positions, Traccar's four forms:
//   (no params)            latest position of every device the caller sees;
//   deviceId               latest position of that device (0 or 1 element);
//   deviceId + from + to   history by fixTime, capped at MAX_HISTORY_POSITIONS (reports rights,
//                          period at most report.periodLimit), produced in a report thread like
//                          the route report it is (reports/report-endpoint.ts);
//   id (repeatable)        those positions whose device the caller sees (reports rights).
// Unlike Traccar, the latest positions are not limited to the last 90 days: a vehicle parked
// for months must still show where it is.
import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../users/user-json.ts';
import type { AppContext } from '../context.ts';
import { requireUser } from '../auth/authenticate.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { accessDenied, badRequest, forbidden } from '../http/errors.ts';
import { parseAttributes, parseIsoInstant } from '../http/json.ts';
import { idsParam, intParam, single, type Query } from '../access/list-params.ts';
import { PositionsRepo } from './positions-repo.ts';
import { positionToJson } from './position-json.ts';
import { assertPeriodLimit } from '../reports/report-request.ts';
import { positionHistory } from '../reports/report-endpoint.ts';

export const reportsDisabled = () => forbidden('Reports are disabled - this account cannot view history or reports');

function instant(query: Query, name: string): number {
  const raw = single(query, name);
  if (raw === undefined || raw.trim() === '') throw badRequest(`Missing ${name} - history needs deviceId, from and to`);
  const ms = parseIsoInstant(raw);
  if (ms === null) throw badRequest(`Invalid ${name} - an ISO date with offset is expected, like 2024-05-01T10:00:00Z`);
  return ms;
}

export async function positionsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const positions = new PositionsRepo(ctx.storage.db);

  /** History and positions by id need report rights (user and server `disableReports`). */
  async function assertReports(user: UserRow): Promise<void> {
    if (user.administrator === 1) return;
    const server = await getServerRow(ctx);
    if (user.disableReports === 1 || server.disableReports === 1) throw reportsDisabled();
  }

  app.get<{ Querystring: Query }>('/api/positions', async (req, reply) => {
    const user = requireUser(req);
    const q = req.query;
    const ids = idsParam(q, 'id');
    const deviceId = intParam(q, 'deviceId') || undefined;

    if (ids.length > 0) {
      await assertReports(user);
      const rows = await positions.byIds(ids);
      if (user.administrator === 1 || rows.length === 0) return rows.map(positionToJson);
      // Positions of devices the caller cannot see are left out, like ids with no position,
      // so the answer never tells "not yours" from "does not exist".
      const visible = await ctx.visibility.deviceIds(user);
      return rows.filter((r) => visible.has(r.deviceId)).map(positionToJson);
    }

    if (q.from !== undefined || q.to !== undefined) {
      if (deviceId === undefined) throw badRequest('Missing deviceId - history needs deviceId, from and to');
      const from = instant(q, 'from');
      const to = instant(q, 'to');
      if (from > to) throw badRequest('Invalid period - from must not be later than to');
      if (!(await ctx.visibility.canSeeDevice(user, deviceId))) throw accessDenied.device();
      await assertReports(user);
      assertPeriodLimit(from, to, parseAttributes((await getServerRow(ctx)).attributes), ctx.config.keys);
      return reply.type('application/json; charset=utf-8').send(positionHistory(ctx, user, deviceId, from, to));
    }

    if (deviceId !== undefined) {
      if (!(await ctx.visibility.canSeeDevice(user, deviceId))) throw accessDenied.device();
      const latest = await positions.latestOf(deviceId);
      return latest ? [positionToJson(latest)] : [];
    }

    const rows = await positions.latest(user.administrator === 1 ? undefined : user.id);
    return rows.map(positionToJson);
  });
}
