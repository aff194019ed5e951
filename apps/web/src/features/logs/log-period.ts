// The log viewer's period filter: today, or the last 7, 30 or 90 days up to now.

export const LOG_PERIODS = ['today', 'week', 'month', 'quarter'] as const;
export type LogPeriodId = (typeof LOG_PERIODS)[number];

const DAYS: Record<Exclude<LogPeriodId, 'today'>, number> = { week: 7, month: 30, quarter: 90 };

/** The period's bounds at `now` (local time for "today"); the end is a minute ahead so rows written meanwhile show. */
export function periodRange(period: LogPeriodId, now: Date): { from: Date; to: Date } {
  const to = new Date(now.getTime() + 60_000);
  if (period === 'today') return { from: new Date(now.getFullYear(), now.getMonth(), now.getDate()), to };
  return { from: new Date(now.getTime() - DAYS[period] * 86_400_000), to };
}
