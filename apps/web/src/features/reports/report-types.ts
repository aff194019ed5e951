// The report pages under /reports (spec §2) and what each asks of the server (spec §7).
import { PERMISSION_BITS } from '@rastro/domain/permissions';
import type { ReportKind } from './report-api.ts';

export const REPORT_PATHS = ['resume', 'travels', 'stops', 'events', 'history'] as const;
export type ReportPath = (typeof REPORT_PATHS)[number];

export const REPORTS: Record<ReportPath, { kind: ReportKind; file: string; bit: number | null }> = {
  resume: { kind: 'summary', file: 'resume.xlsx', bit: null },
  history: { kind: 'route', file: 'route.xlsx', bit: PERMISSION_BITS.reportsRoute },
  travels: { kind: 'trips', file: 'travels.xlsx', bit: PERMISSION_BITS.reportsTrips },
  stops: { kind: 'stops', file: 'stops.xlsx', bit: PERMISSION_BITS.reportsStops },
  events: { kind: 'events', file: 'events.xlsx', bit: PERMISSION_BITS.reportsEvents },
};
