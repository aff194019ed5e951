// GET /api/server/timezones: the zone names offered for the `timezone` preference (the days of
// a daily summary, the times of a spreadsheet, the web client's clock). Only zones this
// runtime can compute with are offered, so a choice always works: the runtime's own zone
// database (Intl), each zone once under its canonical name, plus UTC and the fixed Etc/GMT
// offsets, which that list leaves out although every zone computation accepts them.
//
// Traccar answers Java's ZoneId list instead: the same zones, but each under all its names
// (US/Eastern beside America/New_York, three-letter ids, the SystemV zones the tz database
// dropped in 2020), in hash-set order. An alias stored by a Traccar client still works here
// (isTimeZone resolves it); it is just not offered twice.
import { isTimeZone } from '@rastro/domain/report-days';

/** Etc/GMT-14 … Etc/GMT+12 (POSIX signs: Etc/GMT+3 is three hours behind UTC); Etc/GMT is UTC. */
function fixedOffsetZones(): string[] {
  const out: string[] = [];
  for (let hours = -14; hours <= 12; hours++) if (hours !== 0) out.push(`Etc/GMT${hours > 0 ? '+' : '-'}${Math.abs(hours)}`);
  return out;
}

let zones: readonly string[] | null = null;

/** The offered zone names, alphabetical; computed once (the runtime's database does not change while it runs). */
export function availableTimeZones(): readonly string[] {
  if (!zones) {
    const names = new Set<string>([...Intl.supportedValuesOf('timeZone'), 'UTC', ...fixedOffsetZones()]);
    zones = [...names].filter(isTimeZone).sort();
  }
  return zones;
}
