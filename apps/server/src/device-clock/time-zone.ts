// The `decoder.timezone` device/group attribute: the zone a tracker's clock is set to, for
// protocols whose dates carry no zone (GT06, H02: `DecodedFix.clock === 'device'`). Accepted
// values, as Traccar's zone ids plus plain offsets:
//   - a zone id: `America/Sao_Paulo`, `Europe/Lisbon`, `UTC`, `GMT`, `Etc/GMT+3` (IANA names,
//     daylight saving included);
//   - a fixed offset after GMT or UTC: `GMT-3`, `GMT-03`, `GMT-3:00`, `GMT-0300`, `UTC+5:30`;
//   - a bare number: hours when it lies within ±14 (`-3`, `5.5`), else minutes (`-180`, `330`).
// Anything else is invalid: Traccar then silently reads the dates as UTC; we do the same, and
// the device's clock check says the value is not understood.

export type DeviceZone =
  | { kind: 'fixed'; offsetMs: number }
  | { kind: 'named'; id: string };

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** Real offsets lie within UTC−12 … UTC+14. */
const MAX_OFFSET_MS = 14 * HOUR;

const CUSTOM = /^(?:GMT|UTC)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?$/i;

/** The zone a `decoder.timezone` value names, or null when the value is not a zone. */
export function parseTimeZone(value: unknown): DeviceZone | null {
  if (typeof value === 'number') return fromNumber(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return null;
  if (/^[+-]?\d+(\.\d+)?$/.test(text)) return fromNumber(Number(text));
  const custom = CUSTOM.exec(text);
  if (custom) {
    const hours = Number(custom[2]);
    const minutes = custom[3] === undefined ? 0 : Number(custom[3]);
    if (hours > 23 || minutes > 59) return null;
    const offsetMs = (custom[1] === '-' ? -1 : 1) * (hours * HOUR + minutes * MINUTE);
    return Math.abs(offsetMs) <= MAX_OFFSET_MS ? { kind: 'fixed', offsetMs } : null;
  }
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(text) || !formatterOf(text)) return null;
  return { kind: 'named', id: text };
}

function fromNumber(n: number): DeviceZone | null {
  if (!Number.isFinite(n)) return null;
  const offsetMs = Math.round(Math.abs(n) <= 14 ? n * HOUR : n * MINUTE);
  return Math.abs(offsetMs) <= MAX_OFFSET_MS ? { kind: 'fixed', offsetMs } : null;
}

// Building an Intl formatter costs far more than using one: one per zone, kept.
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterOf(id: string): Intl.DateTimeFormat | null {
  let f = formatters.get(id);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: id, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
      });
    } catch {
      f = null;
    }
    if (formatters.size < 1000) formatters.set(id, f);
  }
  return f;
}

const QUARTER = 15 * MINUTE;
/** Quarter hours remembered per zone (a wall-clock conversion looks at two: its guess and the result). */
const QUARTERS_KEPT = 16;
/**
 * Offsets already computed, per zone and quarter hour of UTC: today's zones change offset only
 * on quarter hours, and a tracker's fixes arrive in order, so nearly every fix reuses one
 * instead of formatting a date (microseconds each).
 */
const offsetCache = new Map<string, Map<number, number>>();

/** Offset of a named zone at one instant (wall clock − UTC), to the second. */
function namedOffset(id: string, utcMs: number): number {
  const quarter = Math.floor(utcMs / QUARTER);
  let known = offsetCache.get(id);
  const hit = known?.get(quarter);
  if (hit !== undefined) return hit;
  const f = formatterOf(id);
  if (!f) return 0;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(quarter * QUARTER))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const offset = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) - quarter * QUARTER;
  if (!known) {
    if (offsetCache.size >= 1000) offsetCache.clear();
    offsetCache.set(id, (known = new Map()));
  } else if (known.size >= QUARTERS_KEPT) known.clear();
  known.set(quarter, offset);
  return offset;
}

/** The zone's offset from UTC at `utcMs` (positive east of Greenwich). */
export function zoneOffset(zone: DeviceZone, utcMs: number): number {
  return zone.kind === 'fixed' ? zone.offsetMs : namedOffset(zone.id, utcMs);
}

/**
 * The UTC instant of a zone-less date read as if it were UTC (`wallMs`). Around a daylight
 * saving change the offset is taken at the corrected instant, so an hour that exists twice
 * resolves to its first occurrence's offset after the change, like most libraries.
 */
export function wallClockToUtc(wallMs: number, zone: DeviceZone): number {
  if (zone.kind === 'fixed') return wallMs - zone.offsetMs;
  const guess = wallMs - zoneOffset(zone, wallMs);
  return wallMs - zoneOffset(zone, guess);
}
