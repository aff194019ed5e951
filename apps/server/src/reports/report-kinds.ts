// Every report kind by name: a report thread gets a job as (kind name, format, parameters)
// and finds the producer here. Kinds live in their own files, away from the routes, so a
// thread loads only what produces reports.
import type { ReportKind } from './report-kind.ts';
import { routeReport } from './route-report.ts';
import { summaryReport } from './summary-report.ts';
import { eventsReport } from './events-report.ts';
import { tripsReport } from './trips.ts';
import { stopsReport } from './stops.ts';
import { combinedReport } from './combined-report.ts';

const kinds: Array<ReportKind<unknown>> = [routeReport, summaryReport, eventsReport, tripsReport, stopsReport, combinedReport];

export const REPORT_KINDS: ReadonlyMap<string, ReportKind<unknown>> = new Map(kinds.map((k) => [k.name, k]));
