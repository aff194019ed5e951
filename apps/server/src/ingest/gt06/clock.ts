// GT06 dates are `YY MM DD hh mm ss` from the unit's clock, with no zone. A login packet may
// carry a time-zone extension (the zone the unit is set to); when it does, later dates of that
// connection are local to it and we turn them into UTC here — unless the device has a
// `decoder.timezone` attribute: as in Traccar, the operator's setting wins over the unit's, so
// the date is left as the device's clock (`clock: 'device'`) for the pipeline to correct.
import { isInstantInRange } from '@rastro/domain/schemas/instant';
import { calendarInstant } from '../calendar-instant.ts';
import type { ProtocolSession } from '../protocol.ts';

const ZONE_KEY = 'gt06ZoneMs';
const MINUTE = 60_000;
/** Real zones lie within UTC−12 … UTC+14. */
const MAX_ZONE_MS = 14 * 60 * MINUTE;

/**
 * The offset (ms east of UTC) a login's 2-byte extension names, or null when it names none:
 * bits 15–4 hold the zone ×100 (`800` = GMT+8, `530` = GMT+5:30), bit 3 is set west of Greenwich,
 * bits 1–0 the language.
 */
export function zoneFromExtension(bits: number): number | null {
  const value = bits >> 4;
  const hours = Math.floor(value / 100);
  const minutes = value % 100;
  if (minutes >= 60) return null;
  const offset = (hours * 60 + minutes) * MINUTE;
  if (offset > MAX_ZONE_MS) return null;
  return bits & 0x08 ? -offset : offset;
}

/** Remembers (or forgets, with null) the zone a login announced, for the connection's next frames. */
export function rememberZone(session: ProtocolSession, offsetMs: number | null): void {
  if (offsetMs === null) delete session.state[ZONE_KEY];
  else session.state[ZONE_KEY] = offsetMs;
}

function announcedZone(session: ProtocolSession): number | null {
  const zone = session.state[ZONE_KEY];
  if (typeof zone !== 'number') return null;
  const configured = session.deviceAttributes?.['decoder.timezone'];
  return configured === undefined || configured === null || configured === '' ? zone : null;
}

export interface DeviceDate {
  time: number;
  clock: 'utc' | 'device';
}

/**
 * The instant of a date read as local to the connection's announced zone (UTC when it announced
 * none, marked `device`), or null for a date no calendar has (month 0, 31 April, hour 24: what
 * units without a fix yet often send) or beyond the years the domain keeps.
 */
export function deviceDate(session: ProtocolSession, year: number, month: number, day: number, hour: number, minute: number, second: number): DeviceDate | null {
  const local = calendarInstant(year, month, day, hour, minute, second);
  if (local === null) return null;
  const zone = announcedZone(session);
  const time = zone === null ? local : local - zone;
  if (!isInstantInRange(time)) return null;
  return { time, clock: zone === null ? 'device' : 'utc' };
}

/** The 6-byte binary date at `frame[at]` (`YY MM DD hh mm ss`, years from 2000). */
export const readDate = (frame: Buffer, at: number, session: ProtocolSession): DeviceDate | null =>
  deviceDate(session, 2000 + frame[at]!, frame[at + 1]!, frame[at + 2]!, frame[at + 3]!, frame[at + 4]!, frame[at + 5]!);
