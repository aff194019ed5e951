// One report kind = one endpoint pair: GET /api/reports/<name> answers a JSON array
// (streamed: devices one after the other, items as they are produced) or, with
// `Accept: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet`, a spreadsheet;
// GET /api/reports/<name>/xlsx always answers the spreadsheet (Traccar's path form);
// GET /api/reports/<name>/mail answers 204 at once and e-mails the spreadsheet to the caller.
//
// To add a kind (trips and stops do this from their own files):
//
//   registerReportKind(app, ctx, {
//     name: 'trips',
//     async open(request) {                  // validate kind-specific params here (throw badRequest)
//       return (device) => tripsOf(device);  // AsyncIterable of items for one device, in order
//     },
//     toJson: (item) => ({ ... }),           // the OpenAPI shape (ReportTrips)
//     sheet: { title: 'reportTrips', perDevice: true, columns: [ { header: 'startTime', kind: 'time', value: (t, f) => f.time(t.startTime) }, ... ] },
//   });
//
// Common checks (session, disableReports, from/to, device and group visibility) happen in
// `readReportRequest` before `open`, so every kind answers bad input the same way.
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { readReportRequest, type ReportRequest } from './report-request.ts';
import type { ReportDevice } from './reports-repo.ts';
import { XLSX_TYPE, fileName, formatter, xlsxStream, type SheetLayout } from './xlsx.ts';

export interface ReportKind<T> {
  /** Path segment under /api/reports. */
  name: string;
  /** Reads the kind's own parameters (may throw ApiError) and returns the per-device producer. */
  open(request: ReportRequest): Promise<(device: ReportDevice) => AsyncIterable<T>>;
  toJson(item: T): unknown;
  sheet: SheetLayout<T>;
}

/** True when the client asks for the spreadsheet (Accept names the xlsx type). */
export function wantsXlsx(req: FastifyRequest): boolean {
  return (req.headers.accept ?? '').toLowerCase().includes(XLSX_TYPE);
}

/** JSON array text, produced item by item in ~64 KB pieces. */
async function* jsonArray<T>(devices: ReportDevice[], rows: (d: ReportDevice) => AsyncIterable<T>, toJson: (item: T) => unknown): AsyncGenerator<string> {
  let buffer = '[';
  let first = true;
  for (const device of devices) {
    for await (const item of rows(device)) {
      buffer += (first ? '' : ',') + JSON.stringify(toJson(item));
      first = false;
      if (buffer.length >= 65_536) {
        yield buffer;
        buffer = '';
      }
    }
  }
  yield `${buffer}]`;
}

async function answer<T>(ctx: AppContext, kind: ReportKind<T>, req: FastifyRequest, reply: FastifyReply, xlsx: boolean) {
  const request = await readReportRequest(ctx, req);
  const rows = await kind.open(request);
  if (xlsx) {
    const f = formatter(request.prefs);
    const name = fileName(f.text(kind.sheet.title), request.from, request.to, request.prefs.timeZone);
    const stream = xlsxStream({ layout: kind.sheet, prefs: request.prefs, devices: request.devices, rows });
    return reply.type(XLSX_TYPE).header('Content-Disposition', `attachment; filename="${name}"`).send(stream);
  }
  return reply.type('application/json; charset=utf-8').send(Readable.from(jsonArray(request.devices, rows, kind.toJson)));
}

/** Builds the spreadsheet in the background and mails it to the caller (Traccar's `/mail`: 204 now, mail later). */
async function mail<T>(ctx: AppContext, kind: ReportKind<T>, req: FastifyRequest, reply: FastifyReply) {
  const request = await readReportRequest(ctx, req);
  const rows = await kind.open(request);
  const f = formatter(request.prefs);
  const title = f.text(kind.sheet.title);
  const name = fileName(title, request.from, request.to, request.prefs.timeZone);
  const deliver = async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of xlsxStream({ layout: kind.sheet, prefs: request.prefs, devices: request.devices, rows })) chunks.push(chunk as Buffer);
    await ctx.mailer.send({
      to: request.user.email,
      subject: title,
      text: `${title}: ${name}`,
      attachments: [{ filename: name, content: Buffer.concat(chunks), contentType: XLSX_TYPE }],
    });
  };
  deliver().catch((error: unknown) => ctx.log.error({ err: error, report: kind.name }, 'report mail failed'));
  return reply.code(204).send();
}

export function registerReportKind<T>(app: FastifyInstance, ctx: AppContext, kind: ReportKind<T>): void {
  app.get(`/api/reports/${kind.name}`, async (req, reply) => answer(ctx, kind, req, reply, wantsXlsx(req)));
  app.get(`/api/reports/${kind.name}/xlsx`, async (req, reply) => answer(ctx, kind, req, reply, true));
  app.get(`/api/reports/${kind.name}/mail`, async (req, reply) => mail(ctx, kind, req, reply));
}
