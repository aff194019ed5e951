// What other features use from reports: the report requests, value formats, panel padding and event names (history).
export { downloadReport, fetchPositions, fetchReport, type StopItem } from './report-api.ts';
export { useFormats } from './use-formats.ts';
export { panelPadding } from './panel-padding.ts';
export { eventLabel } from './event-label.ts';
