// The header weather for one caller: where they are (their address → location, asking the
// public IP lookup first when the address is private), then the current weather there.
// Locations are cached per address for hours (they do not move, and the free geolocation tier
// allows 45 calls a minute), forecasts per rounded coordinate for ~10 minutes (upstream
// refreshes every 15), the public address for an hour. A failed step is not retried for a
// minute, so a server without internet answers at once instead of waiting for timeouts.
import type { WeatherReport } from '@rastro/domain/weather';
import { isPrivateAddress, normalizeAddress } from './ip-address.ts';
import { ProviderError, type CurrentWeather, type Location, type WeatherProviders } from './weather-providers.ts';

export type { WeatherReport };

export class WeatherUnavailable extends Error {}

export interface WeatherServiceOptions {
  now?: () => number;
  locationTtlMs?: number;
  forecastTtlMs?: number;
  /** How long an expired forecast may still be shown when the provider fails. */
  staleForecastMs?: number;
  publicIpTtlMs?: number;
  failureBackoffMs?: number;
  /** Entries kept per cache (oldest dropped first). */
  maxEntries?: number;
}

interface Entry<T> {
  value: T;
  at: number;
}

/** A small time-stamped cache with a size cap, in-flight sharing and failure back-off. */
class Step<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly pending = new Map<string, Promise<T>>();
  private readonly failedAt = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs: number,
    private readonly backoffMs: number,
    private readonly maxEntries: number,
    private readonly staleMs = 0,
  ) {}

  async get(key: string, load: () => Promise<T>): Promise<T> {
    const cached = this.entries.get(key);
    const now = this.now();
    if (cached && now - cached.at < this.ttlMs) return cached.value;
    const stale = cached && now - cached.at < this.ttlMs + this.staleMs ? cached.value : undefined;
    const failed = this.failedAt.get(key);
    if (failed !== undefined && now - failed < this.backoffMs) {
      if (stale !== undefined) return stale;
      throw new WeatherUnavailable(`${key}: failed recently, waiting before asking again`);
    }
    let running = this.pending.get(key);
    if (!running) {
      running = load()
        .then((value) => {
          this.failedAt.delete(key);
          this.entries.delete(key);
          this.entries.set(key, { value, at: this.now() });
          if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
          return value;
        })
        .catch((error: unknown) => {
          this.failedAt.set(key, this.now());
          if (this.failedAt.size > this.maxEntries) this.failedAt.delete(this.failedAt.keys().next().value!);
          throw error;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, running);
    }
    try {
      return await running;
    } catch (error) {
      if (stale !== undefined) return stale;
      throw error instanceof ProviderError ? new WeatherUnavailable(error.message) : error;
    }
  }
}

export interface WeatherService {
  /** The weather at the caller's address; throws WeatherUnavailable when it cannot be told. */
  report(callerIp: string): Promise<WeatherReport>;
}

const HOUR = 3_600_000;

/** Coordinates rounded to 0.1° (about 11 km): nearby callers share one forecast. */
export const roundCoordinate = (value: number) => Math.round(value * 10) / 10;

export function createWeatherService(providers: WeatherProviders, options: WeatherServiceOptions = {}): WeatherService {
  const now = options.now ?? Date.now;
  const backoff = options.failureBackoffMs ?? 60_000;
  const max = options.maxEntries ?? 5_000;
  const publicIp = new Step<string>(now, options.publicIpTtlMs ?? HOUR, backoff, 1);
  const locations = new Step<Location>(now, options.locationTtlMs ?? 6 * HOUR, backoff, max);
  const forecasts = new Step<CurrentWeather>(now, options.forecastTtlMs ?? 600_000, backoff, max, options.staleForecastMs ?? HOUR);

  async function addressToLocate(callerIp: string): Promise<string> {
    const address = normalizeAddress(callerIp);
    if (!isPrivateAddress(address)) return address;
    const lookup = providers.publicIp;
    if (!lookup) throw new WeatherUnavailable('the caller has a private address and the public IP lookup is off');
    const ip = await publicIp.get('public-ip', lookup);
    if (isPrivateAddress(ip)) throw new WeatherUnavailable(`the public IP lookup answered a private address (${ip})`);
    return normalizeAddress(ip);
  }

  return {
    async report(callerIp) {
      const ip = await addressToLocate(callerIp);
      const location = await locations.get(`location ${ip}`, () => providers.locate(ip));
      const latitude = roundCoordinate(location.latitude);
      const longitude = roundCoordinate(location.longitude);
      const current = await forecasts.get(`forecast ${latitude},${longitude}`, () => providers.forecast(latitude, longitude));
      return {
        temperature: current.temperature,
        weatherCode: current.weatherCode,
        isDay: current.isDay,
        city: location.city,
        timezone: location.timezone ?? current.timezone,
      };
    },
  };
}
