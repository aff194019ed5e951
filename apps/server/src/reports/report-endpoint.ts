// One report kind = one endpoint pair: GET /api/reports/<name> answers a JSON array
// (streamed: devices one after the other, items as they are produced) or, with
// `Accept: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`, a spreadsheet;
// GET /api/reports/<name>/xlsx always answers the spreadsheet (Traccar's path form);
// GET /api/reports/<name>/mail answers 204 at once and e-mails the spreadsheet to the caller.
//
// To add a kind (trips and stops do this from their own files; see report-kind.ts):
//
//   registerReportKind(app, ctx, {
//     name: 'trips',
//     check(params) { ... },                 // kind-specific params, on the request thread (throw badRequest)
//     async open(request) {                  // in a report thread
//       return (device) => tripsOf(device);  // AsyncIterable of items for one device, in order
//     },
//     toJson: (item) => ({ ... }),           // the OpenAPI shape (ReportTrips)
//     sheet: { title: 'reportTrips', perDevice: true, columns: [ { header: 'startTime', kind: 'time', value: (t, f) => f.time(t.startTime) }, ... ] },
//   });
// and list it in report-kinds.ts, where the report threads look kinds up.
//
// Common checks (session, disableReports, from/to, period limit, device and group visibility)
// happen in `readReportRequest` before `check`, so every kind answers bad input the same way,
// at once; the answer itself is produced in a report thread (report-pool.ts).
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import type { ReportKind } from './report-kind.ts';
import { readReportRequest, reportPrefs, type ReportParams, type ReportUser } from './report-request.ts';
import { reportPool } from './report-pool.ts';
import { XLSX_TYPE, fileName, formatter, type SheetLayout } from './xlsx.ts';

/** True when the client asks for the spreadsheet (Accept names the xlsx type). */
export function wantsXlsx(req: FastifyRequest): boolean {
  return (req.headers.accept ?? '').toLowerCase().includes(XLSX_TYPE);
}

async function answer<T>(ctx: AppContext, kind: ReportKind<T>, req: FastifyRequest, reply: FastifyReply, xlsx: boolean) {
  const params = await readReportRequest(ctx, req);
  kind.check?.(params);
  const sheet = xlsx ? kind.sheet : undefined;
  const stream = reportPool(ctx).stream(params.user.id, { kind: kind.name, format: sheet ? 'xlsx' : 'json', params });
  if (sheet) {
    const f = formatter(params.prefs);
    const name = fileName(f.text(sheet.title), params.from, params.to, params.prefs.timeZone);
    return reply.type(XLSX_TYPE).header('Content-Disposition', `attachment; filename="${name}"`).send(stream);
  }
  return reply.type('application/json; charset=utf-8').send(stream);
}

/** Builds the spreadsheet in a report thread and mails it to the caller (Traccar's `/mail`: 204 now, mail later). */
async function mail<T>(ctx: AppContext, kind: ReportKind<T>, sheet: SheetLayout<T>, req: FastifyRequest, reply: FastifyReply) {
  const params = await readReportRequest(ctx, req);
  kind.check?.(params);
  const f = formatter(params.prefs);
  const title = f.text(sheet.title);
  const name = fileName(title, params.from, params.to, params.prefs.timeZone);
  reportPool(ctx).mail(params.user.id, { kind: kind.name, format: 'xlsx', params }, (content) =>
    ctx.mailer.send({
      to: params.user.email,
      subject: title,
      text: `${title}: ${name}`,
      attachments: [{ filename: name, content, contentType: XLSX_TYPE }],
    }),
  );
  return reply.code(204).send();
}

export function registerReportKind<T>(app: FastifyInstance, ctx: AppContext, kind: ReportKind<T>): void {
  // Made with the routes, so the server's shutdown closes it (its threads start on first use).
  reportPool(ctx);
  // A kind without a spreadsheet answers JSON whatever the Accept header asks, and has no /xlsx or /mail.
  app.get(`/api/reports/${kind.name}`, async (req, reply) => answer(ctx, kind, req, reply, wantsXlsx(req)));
  const sheet = kind.sheet;
  if (!sheet) return;
  app.get(`/api/reports/${kind.name}/xlsx`, async (req, reply) => answer(ctx, kind, req, reply, true));
  app.get(`/api/reports/${kind.name}/mail`, async (req, reply) => mail(ctx, kind, sheet, req, reply));
}

/**
 * Position history (GET /api/positions?deviceId&from&to, checked by the caller) as a stream
 * of its JSON array: the route report of that one device, run in a report thread like every
 * report and counted in the caller's report limit.
 */
export function positionHistory(ctx: AppContext, user: ReportUser, deviceId: number, from: number, to: number): Readable {
  const params: ReportParams = {
    user: { id: user.id, administrator: user.administrator, email: user.email },
    devices: [{ id: deviceId, name: '', groupId: null, attributes: '{}' }],
    from,
    to,
    query: {},
    // Unused by a JSON answer.
    prefs: reportPrefs({}, {}),
  };
  return reportPool(ctx).stream(user.id, { kind: 'route', format: 'json', params });
}
