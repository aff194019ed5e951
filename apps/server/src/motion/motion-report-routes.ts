// Registers /api/reports/trips and /api/reports/stops (reports/trips.ts, reports/stops.ts)
// through the reports feature's registerReportKind, in their own plugin.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { registerReportKind } from '../reports/report-endpoint.ts';
import { tripsReport } from '../reports/trips.ts';
import { stopsReport } from '../reports/stops.ts';

export async function motionReportRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerReportKind(app, ctx, tripsReport);
  registerReportKind(app, ctx, stopsReport);
}
