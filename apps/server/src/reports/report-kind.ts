// One report kind (route, summary, events, trips, stops): how its request is checked, how its
// items are produced device by device, and how an item is written as JSON and as a
// spreadsheet row. Routes are made from it by report-endpoint.ts; the items are produced in a
// report thread (report-thread.ts), which finds the kind by name in report-kinds.ts.
import type { ReportParams, ReportRequest } from './report-request.ts';
import type { ReportDevice } from './reports-repo.ts';
import type { SheetLayout } from './xlsx.ts';

export interface ReportKind<T> {
  /** Path segment under /api/reports, and the kind's name in report-kinds.ts. */
  name: string;
  /**
   * The kind's own parameters, checked on the request thread before any work is queued, so
   * bad input is answered 400 at once (throw ApiError). No database reads here.
   */
  check?(params: ReportParams): void;
  /** In a report thread: returns the per-device producer (items of one device, in order). */
  open(request: ReportRequest): Promise<(device: ReportDevice) => AsyncIterable<T>>;
  toJson(item: T): unknown;
  /** The spreadsheet layout; absent for a kind answered as JSON only (combined: Traccar offers no spreadsheet of it). */
  sheet?: SheetLayout<T>;
}
