// The report filter shared by every report page (switching the report type keeps it): devices,
// groups, period shortcut or custom range (datetime-local values in the user's zone) and the
// show-markers switch.
import { create } from 'zustand';
import type { PeriodKey } from '../history/index.ts';

export interface ReportFilter {
  deviceIds: string[];
  groupIds: string[];
  period: PeriodKey;
  from: string;
  to: string;
  showMarkers: boolean;
}

export const useReportFilter = create<ReportFilter>(() => ({
  deviceIds: [],
  groupIds: [],
  period: 'today',
  from: '',
  to: '',
  showMarkers: true,
}));

export const setReportFilter = (patch: Partial<ReportFilter>) => useReportFilter.setState(patch);
