// Units (spec §9, reference §5.15). Traccar sends speed in knots and distances in metres.
// Speed unit: the user's attribute speedUnit, else the server's, else by language (km/h for
// Portuguese and Spanish, mph for English). Distance unit likewise (km, or miles for English).

export const KMH_PER_KNOT = 1.852;
export const MPH_PER_KNOT = 1.15078;
export const MI_PER_KM = 0.621371;

export type SpeedUnit = 'kmh' | 'mph' | 'kn';
export type DistanceUnit = 'km' | 'mi';

export const knotsToKmh = (knots: number): number => knots * KMH_PER_KNOT;
export const knotsToMph = (knots: number): number => knots * MPH_PER_KNOT;
export const kmToMiles = (km: number): number => km * MI_PER_KM;
/**
 * Metres per second → knots (reports' averageSpeed: distance / time), with Traccar's factor
 * (1.94384, five figures) rather than the exact 3.6 / 1.852: average speeds then equal
 * Traccar's to the last digit, which is what a customer comparing both reports sees.
 */
export const KNOTS_PER_MPS = 1.94384;
export const knotsFromMps = (mps: number): number => mps * KNOTS_PER_MPS;
/** km/h → knots (trackers that report km/h: GT06, Teltonika, Suntech). */
export const knotsFromKmh = (kmh: number): number => kmh / KMH_PER_KNOT;

export function speedFromKnots(knots: number, unit: SpeedUnit): number {
  return unit === 'kmh' ? knotsToKmh(knots) : unit === 'mph' ? knotsToMph(knots) : knots;
}

export function distanceFromMetres(metres: number, unit: DistanceUnit): number {
  const km = metres / 1000;
  return unit === 'mi' ? kmToMiles(km) : km;
}

const isEnglish = (language: string) => language.toLowerCase().startsWith('en');

function asSpeedUnit(v: unknown): SpeedUnit | null {
  return v === 'kmh' || v === 'mph' || v === 'kn' ? v : null;
}
function asDistanceUnit(v: unknown): DistanceUnit | null {
  if (v === 'km') return 'km';
  if (v === 'mi' || v === 'miles') return 'mi';
  return null;
}

type Attrs = Record<string, unknown> | null | undefined;

export function resolveSpeedUnit(userAttributes: Attrs, serverAttributes: Attrs, language: string): SpeedUnit {
  return asSpeedUnit(userAttributes?.speedUnit) ?? asSpeedUnit(serverAttributes?.speedUnit) ?? (isEnglish(language) ? 'mph' : 'kmh');
}

export function resolveDistanceUnit(userAttributes: Attrs, serverAttributes: Attrs, language: string): DistanceUnit {
  return asDistanceUnit(userAttributes?.distanceUnit) ?? asDistanceUnit(serverAttributes?.distanceUnit) ?? (isEnglish(language) ? 'mi' : 'km');
}

export const SPEED_LABEL: Record<SpeedUnit, string> = { kmh: 'km/h', mph: 'mph', kn: 'kn' };
export const DISTANCE_LABEL: Record<DistanceUnit, string> = { km: 'km', mi: 'mi' };

/** "46 km/h": rounded to whole units. */
export function formatSpeed(knots: number, unit: SpeedUnit, locale?: string): string {
  const value = Math.round(speedFromKnots(knots, unit));
  return `${value.toLocaleString(locale)} ${SPEED_LABEL[unit]}`;
}

/** "12.35 km": two decimals. */
export function formatDistance(metres: number, unit: DistanceUnit, locale?: string): string {
  const value = distanceFromMetres(metres, unit);
  return `${value.toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${DISTANCE_LABEL[unit]}`;
}

// Relative last update (reference §5.9): negative → now; over a day → days; over an hour → hours;
// over a minute → minutes; else "less than a minute"; never updated → new.
export type RelativeAge =
  | { unit: 'new' }
  | { unit: 'now' }
  | { unit: 'lessMinute' }
  | { unit: 'minutes' | 'hours' | 'days'; value: number };

export function relativeAge(lastUpdate: string | null | undefined, nowMs: number): RelativeAge {
  const t = lastUpdate ? Date.parse(lastUpdate) : NaN;
  if (!Number.isFinite(t)) return { unit: 'new' };
  const seconds = (nowMs - t) / 1000;
  if (seconds < 0) return { unit: 'now' };
  if (seconds > 86_400) return { unit: 'days', value: Math.round(seconds / 86_400) };
  if (seconds > 3_600) return { unit: 'hours', value: Math.round(seconds / 3_600) };
  if (seconds > 60) return { unit: 'minutes', value: Math.round(seconds / 60) };
  return { unit: 'lessMinute' };
}
