// Physical ranges of the numbers a position or a setting carries, shared by the API schemas
// and the device decoders. Units are Traccar's: knots, metres, degrees.

export interface Range {
  min: number;
  max: number;
  /** Unit named in messages. */
  unit?: string;
}

export const RANGES = {
  latitude: { min: -90, max: 90, unit: 'degrees' },
  longitude: { min: -180, max: 180, unit: 'degrees' },
  /**
   * 1,000 knots (515 m/s) is the COCOM limit above which civilian GPS receivers stop
   * reporting a fix at all, so no tracker we serve can measure more.
   */
  speed: { min: 0, max: 1000, unit: 'knots' },
  course: { min: 0, max: 360, unit: 'degrees' },
  /**
   * From the deepest point people have reached underground (the Kola borehole, −12,262 m) to
   * the edge of space (the Kármán line, 100 km): high-altitude balloons carry trackers well
   * above airliners, nothing we track goes beyond that.
   */
  altitude: { min: -12_262, max: 100_000, unit: 'metres' },
  /** An error radius larger than half the Earth's circumference says nothing. */
  accuracy: { min: 0, max: 20_000_000, unit: 'metres' },
  /** Battery level in percent. */
  battery: { min: 0, max: 100, unit: 'percent' },
  /** Dilution of precision; receivers cap it at 99.99, some report a little more. */
  hdop: { min: 0, max: 1000 },
  /** An odometer beyond 100 million km belongs to no vehicle. */
  odometer: { min: 0, max: 1e11, unit: 'metres' },
  /** Engine hours (ms) for a century of running. */
  hours: { min: 0, max: 100 * 365.25 * 24 * 3600_000, unit: 'milliseconds' },
  /** Map zoom levels of web map tiles. */
  zoom: { min: 0, max: 24 },
  /** A user's device and user limits: -1 is unlimited. */
  limit: { min: -1, max: 1_000_000_000 },
} as const satisfies Record<string, Range>;

export type RangeName = keyof typeof RANGES;

/** A finite number within the range. */
export function inRange(name: RangeName, value: number): boolean {
  const r: Range = RANGES[name];
  return Number.isFinite(value) && value >= r.min && value <= r.max;
}

/** "from 0 to 1000 knots" — for messages. */
export function rangeText(name: RangeName): string {
  const r: Range = RANGES[name];
  return `from ${r.min} to ${r.max}${r.unit ? ` ${r.unit}` : ''}`;
}
