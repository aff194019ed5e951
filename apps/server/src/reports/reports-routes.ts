// /api/reports: route, summary, events and combined (their kinds in route-report.ts,
// summary-report.ts, events-report.ts, combined-report.ts); trips and stops come from the motion feature's own plugin
// (motion/motion-report-routes.ts), registered through the same `registerReportKind`
// (report-endpoint.ts), so neither plugin has to change for the other.
//
//   GET /api/reports/route    deviceId*, groupId*, from, to           → Position[] per device by fixTime
//   GET /api/reports/summary  deviceId*, groupId*, from, to, daily, path=fast|slow → ReportSummary[] (per device, or per device per day)
//   GET /api/reports/events   deviceId*, groupId*, from, to, type*, alarm* → Event[] per device by eventTime
//   GET /api/reports/combined deviceId*, groupId*, from, to           → CombinedReportItem[] (one per device)
// each but combined also as a spreadsheet (Accept: xlsx type, or the /xlsx suffix) and by e-mail (/mail).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { registerReportKind } from './report-endpoint.ts';
import { routeReport } from './route-report.ts';
import { summaryReport } from './summary-report.ts';
import { eventsReport } from './events-report.ts';
import { combinedReport } from './combined-report.ts';

export { routeReport, summaryReport, eventsReport };

export async function reportsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerReportKind(app, ctx, routeReport);
  registerReportKind(app, ctx, summaryReport);
  registerReportKind(app, ctx, eventsReport);
  registerReportKind(app, ctx, combinedReport);
}
