// Server configuration, read once from the environment. A bad value stops the start
// with a message that names the variable, so an operator knows what to fix.
import { parseConfigKeys, type ConfigValue } from './events/config-keys.ts';

export type LicenseMode = 'plus' | 'basic';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  osmandPort: number;
  adminPassword: string | null;
  demo: boolean;
  license: LicenseMode;
  deviceLimit: number | null;
  smtpUrl: string | null;
  mailFrom: string;
  redisUrl: string | null;
  /** Seconds of silence after which an online device becomes `unknown` (Traccar `status.timeout`). */
  statusTimeout: number;
  /** Where the built web client lives; served at `/` when present. */
  webRoot: string | null;
  /** Base URL used in links sent by e-mail when the request does not name one. */
  publicUrl: string | null;
  /**
   * Which peers may set X-Forwarded-For (client address for login throttling and logs):
   * `loopback` by default (a reverse proxy on the same host), a comma list of addresses or
   * subnets, or `none`.
   */
  trustProxy: string | false;
  /** Milliseconds between `{}` keepalives on `/api/socket` (Traccar: 55 s). */
  socketKeepaliveMs: number;
  /** Milliseconds between two reports of each demo vehicle. */
  demoIntervalMs: number;
  /** Header weather providers' base URLs (null = "off"); see weather/weather-providers.ts. */
  weather: WeatherConfig;
  /** Traccar config keys set through RASTRO_* variables (event.*, report.trip.*; events/config-keys.ts). */
  keys: Record<string, ConfigValue>;
}

export interface WeatherConfig {
  ipUrl: string | null;
  geoUrl: string | null;
  forecastUrl: string | null;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (true/false), got "${raw}"`);
}

function url(env: Env, name: string, protocols: string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}, got "${raw}"`);
  }
  return raw.trim();
}

function trustProxy(env: Env): string | false {
  const raw = (env.RASTRO_TRUST_PROXY ?? 'loopback').trim();
  if (raw === '' || raw === 'loopback') return 'loopback';
  if (raw === 'none' || raw === '0' || raw === 'false') return false;
  const parts = raw.split(',').map((p) => p.trim());
  const ok = parts.every((p) => ['loopback', 'linklocal', 'uniquelocal'].includes(p) || /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(p));
  if (!ok) throw new ConfigError(`RASTRO_TRUST_PROXY must be loopback, none, or a comma list of addresses/subnets, got "${raw}"`);
  return parts.join(',');
}

/** A provider base URL: the default when unset, null when "off". */
function providerUrl(env: Env, name: string, fallback: string): string | null {
  const raw = env[name]?.trim();
  if (raw && raw.toLowerCase() === 'off') return null;
  return url(env, name, ['http:', 'https:']) ?? fallback;
}

export function loadConfig(env: Env = process.env): Config {
  const license = (env.RASTRO_LICENSE ?? 'plus').trim().toLowerCase() || 'plus';
  if (license !== 'plus' && license !== 'basic') {
    throw new ConfigError(`RASTRO_LICENSE must be "plus" or "basic", got "${env.RASTRO_LICENSE}"`);
  }
  const host = (env.RASTRO_HOST ?? '0.0.0.0').trim() || '0.0.0.0';
  if (!/^[A-Za-z0-9.:[\]-]+$/.test(host)) throw new ConfigError(`RASTRO_HOST must be a host name or address, got "${host}"`);
  const deviceLimitRaw = env.RASTRO_DEVICE_LIMIT;
  const deviceLimit =
    deviceLimitRaw === undefined || deviceLimitRaw.trim() === ''
      ? null
      : int(env, 'RASTRO_DEVICE_LIMIT', 0, 0, 1_000_000_000);
  const adminPassword = env.RASTRO_ADMIN_PASSWORD;
  if (adminPassword !== undefined && adminPassword !== '' && adminPassword.length < 4) {
    throw new ConfigError('RASTRO_ADMIN_PASSWORD must have at least 4 characters');
  }
  const keys = parseConfigKeys(env);
  if ('error' in keys) throw new ConfigError(keys.error);
  return {
    host,
    port: int(env, 'RASTRO_PORT', 8082, 0, 65535),
    dataDir: (env.RASTRO_DATA_DIR ?? './data').trim() || './data',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    osmandPort: int(env, 'RASTRO_OSMAND_PORT', 5055, 0, 65535),
    adminPassword: adminPassword ? adminPassword : null,
    demo: flag(env, 'RASTRO_DEMO', true),
    license,
    deviceLimit,
    smtpUrl: url(env, 'RASTRO_SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.RASTRO_MAIL_FROM?.trim() || 'Rastro <no-reply@rastro.local>',
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    statusTimeout: int(env, 'RASTRO_STATUS_TIMEOUT', 600, 5, 86_400 * 30),
    webRoot: env.RASTRO_WEB_ROOT?.trim() || null,
    publicUrl: url(env, 'RASTRO_PUBLIC_URL', ['http:', 'https:']),
    trustProxy: trustProxy(env),
    socketKeepaliveMs: int(env, 'RASTRO_SOCKET_KEEPALIVE_MS', 55_000, 50, 3_600_000),
    demoIntervalMs: int(env, 'RASTRO_DEMO_INTERVAL_MS', 5_000, 50, 3_600_000),
    weather: {
      ipUrl: providerUrl(env, 'RASTRO_WEATHER_IP_URL', 'https://api.ipify.org'),
      geoUrl: providerUrl(env, 'RASTRO_WEATHER_GEO_URL', 'http://ip-api.com/json'),
      forecastUrl: providerUrl(env, 'RASTRO_WEATHER_FORECAST_URL', 'https://api.open-meteo.com/v1/forecast'),
    },
    keys: keys.values,
  };
}
