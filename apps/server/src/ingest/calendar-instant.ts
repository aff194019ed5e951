// Trackers send dates as calendar parts (H02's ddmmyy + hhmmss, Suntech's YYYYMMDD + HH:MM:SS,
// BCD or binary bytes). The domain's instant rule decides whether they name a real date of
// 1970–2200: 31/02 or 25:00 is refused, never rolled over into the next month or day.
import { parseIsoInstant } from '@rastro/domain/schemas/instant';

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** Epoch ms of the parts read as UTC, or null when they are not a real date and time of 1970–2200. */
export function calendarInstant(year: number, month: number, day: number, hour: number, minute: number, second: number): number | null {
  const parts = [year, month, day, hour, minute, second];
  if (!parts.every((p) => Number.isInteger(p) && p >= 0) || year > 9999 || parts.slice(1).some((p) => p > 99)) return null;
  return parseIsoInstant(`${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}Z`);
}
