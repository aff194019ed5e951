// The three outside services behind the header weather (spec §1, §7 "External services"),
// each a small interface with a real HTTP client:
//   public IP lookup   ipify      GET <ipUrl>?format=json                → {"ip": "203.0.113.7"}
//   IP geolocation     ip-api     GET <geoUrl>/<ip>?fields=status,…      → {"status":"success","city":…,"lat":…,"lon":…,"timezone":…}
//                                                                           or {"status":"fail","message":"private range"}
//   forecast           Open-Meteo GET <forecastUrl>?latitude=…&longitude=…&current=temperature_2m,weather_code,is_day&timezone=auto
//                                                                         → {"timezone":…, "current":{"temperature_2m":18.0,"weather_code":3,"is_day":1,…}}
// Every call gives up after a few seconds; answers that do not have the documented shape are
// failures (ProviderError), never half-filled data.
import type { WeatherConfig } from '../config.ts';

export interface Location {
  latitude: number;
  longitude: number;
  city: string | null;
  timezone: string | null;
}

export interface CurrentWeather {
  /** °C */
  temperature: number;
  /** WMO weather interpretation code (0–99). */
  weatherCode: number;
  isDay: boolean;
  timezone: string | null;
}

export interface WeatherProviders {
  /** The public address of this server's network (null when the lookup is off). */
  publicIp: (() => Promise<string>) | null;
  locate(ip: string): Promise<Location>;
  forecast(latitude: number, longitude: number): Promise<CurrentWeather>;
}

export class ProviderError extends Error {}

export const PROVIDER_TIMEOUT_MS = 3_000;

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v : null);

async function getJson(url: string, timeoutMs: number, what: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error as Error).message;
    throw new ProviderError(`${what}: ${reason}`);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new ProviderError(`${what}: HTTP ${response.status}`);
  }
  try {
    const body = (await response.json()) as unknown;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
    return body as Record<string, unknown>;
  } catch (error) {
    throw new ProviderError(`${what}: bad JSON (${(error as Error).message})`);
  }
}

/** Appends a path segment and query parameters to a configured base URL (which may have its own). */
function withParams(base: string, segment: string | null, params: Record<string, string>): string {
  const url = new URL(base);
  if (segment !== null) url.pathname = `${url.pathname.replace(/\/+$/, '')}/${encodeURIComponent(segment)}`;
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

export function parseIpAnswer(body: Record<string, unknown>): string {
  const ip = text(body.ip);
  if (!ip) throw new ProviderError('public IP lookup: no "ip" in the answer');
  return ip;
}

export function parseGeoAnswer(body: Record<string, unknown>): Location {
  if (body.status !== 'success') throw new ProviderError(`IP geolocation: ${text(body.message) ?? 'failed'}`);
  const { lat, lon } = body;
  if (!isNumber(lat) || !isNumber(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
    throw new ProviderError('IP geolocation: no coordinates in the answer');
  }
  return { latitude: lat, longitude: lon, city: text(body.city), timezone: text(body.timezone) };
}

export function parseForecastAnswer(body: Record<string, unknown>): CurrentWeather {
  const current = body.current as Record<string, unknown> | undefined;
  const temperature = current?.temperature_2m;
  const code = current?.weather_code;
  if (!isNumber(temperature) || !isNumber(code) || !Number.isInteger(code) || code < 0 || code > 99) {
    throw new ProviderError('forecast: no current temperature_2m / weather_code in the answer');
  }
  return { temperature, weatherCode: code, isDay: current?.is_day !== 0, timezone: text(body.timezone) };
}

/** The real clients, from the configured base URLs (null when the weather is off). */
export function httpWeatherProviders(config: WeatherConfig, timeoutMs = PROVIDER_TIMEOUT_MS): WeatherProviders | null {
  const { ipUrl, geoUrl, forecastUrl } = config;
  if (!geoUrl || !forecastUrl) return null;
  return {
    publicIp: ipUrl ? async () => parseIpAnswer(await getJson(withParams(ipUrl, null, { format: 'json' }), timeoutMs, 'public IP lookup')) : null,
    async locate(ip) {
      const url = withParams(geoUrl, ip, { fields: 'status,message,country,city,lat,lon,timezone,query' });
      return parseGeoAnswer(await getJson(url, timeoutMs, 'IP geolocation'));
    },
    async forecast(latitude, longitude) {
      const url = withParams(forecastUrl, null, {
        latitude: latitude.toFixed(2),
        longitude: longitude.toFixed(2),
        current: 'temperature_2m,weather_code,is_day',
        timezone: 'auto',
      });
      return parseForecastAnswer(await getJson(url, timeoutMs, 'forecast'));
    },
  };
}
