// What other features use from history: periods and time formats (reports).
export {
  dateTimeFormat, formatDuration, formatTime, fromLocalInput, isPeriod, periodRange, PERIODS, toLocalInput, zoneOf, type PeriodKey,
} from './time.ts';
