// The answer of a report as pieces, produced in a report thread: the JSON array as text in
// ~64 KB pieces, or the spreadsheet's bytes as exceljs writes them. The consumer pulls: a piece
// is produced only when the previous one was taken, so a slow reader stops the reads.
import type { ReportKind } from './report-kind.ts';
import type { ReportRequest } from './report-request.ts';
import type { ReportDevice } from './reports-repo.ts';
import { xlsxStream } from './xlsx.ts';

export type ReportFormat = 'json' | 'xlsx';

/** JSON array text, produced item by item in ~64 KB pieces. */
export async function* jsonArray<T>(devices: ReportDevice[], rows: (d: ReportDevice) => AsyncIterable<T>, toJson: (item: T) => unknown): AsyncGenerator<string> {
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

/** The whole answer of `kind` for `request` in `format`, piece by piece. */
export async function* reportPieces<T>(kind: ReportKind<T>, request: ReportRequest, format: ReportFormat): AsyncGenerator<string | Buffer> {
  const layout = format === 'xlsx' ? kind.sheet : undefined;
  // Before any read; the endpoints never ask a kind without a sheet for one.
  if (format === 'xlsx' && !layout) throw new Error(`report kind "${kind.name}" has no spreadsheet`);
  const rows = await kind.open(request);
  if (layout) yield* xlsxStream<T>({ layout, prefs: request.prefs, devices: request.devices, rows }) as AsyncIterable<Buffer>;
  else yield* jsonArray(request.devices, rows, kind.toJson);
}
