// Server configuration, read once from the environment. A bad value stops the start
// with a message that names the variable, so an operator knows what to fix.
import os from 'node:os';
import { parseConfigKeys, type ConfigValue } from './events/config-keys.ts';

export type LicenseMode = 'plus' | 'basic';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | null;
  osmandPort: number;
  /**
   * TCP (and UDP) ports of the binary and text device protocols, by protocol name (gt06,
   * teltonika, h02, suntech: RASTRO_<NAME>_PORT, Traccar's defaults); 0 turns one off.
   */
  protocolPorts: Record<string, number>;
  /** Seconds of silence after which a device connection is closed (RASTRO_DEVICE_IDLE_TIMEOUT, Traccar `server.timeout`). */
  deviceIdleTimeout: number;
  /** Device connections held at once over all protocol ports; more are closed at once (RASTRO_DEVICE_CONNECTIONS). */
  deviceConnections: number;
  adminPassword: string | null;
  demo: boolean;
  license: LicenseMode;
  deviceLimit: number | null;
  smtpUrl: string | null;
  mailFrom: string;
  redisUrl: string | null;
  /** Seconds of silence after which an online device becomes `unknown` (Traccar `status.timeout`). */
  statusTimeout: number;
  /**
   * Positions the writer holds at most while the database is slow or away (RASTRO_INGEST_BUFFER);
   * past that, device messages are refused (OsmAnd: 503 with Retry-After) until it catches up.
   */
  ingestBuffer: number;
  /**
   * Positions decoded from device connections and not yet committed and acknowledged, at most, over
   * all connections (RASTRO_INGEST_IN_FLIGHT); at the cap connections stop being read until commits
   * catch up, so a slow database slows the trackers down instead of filling memory.
   */
  ingestInFlight: number;
  /** Where the built web client lives; served at `/` when present. */
  webRoot: string | null;
  /** Base URL used in links sent by e-mail when the request does not name one. */
  publicUrl: string | null;
  /**
   * More hosts (`host[:port]`, lower case) that are ours besides the public URL's: white-label
   * domains that links may point at and whose pages may call the API (RASTRO_PUBLIC_HOSTS).
   */
  publicHosts: string[];
  /** Longest life of a login token in days (RASTRO_TOKEN_MAX_DAYS); longer requests are cut to it. */
  tokenMaxDays: number;
  /** Days audit rows are kept (RASTRO_AUDIT_RETENTION_DAYS); older ones are removed by audit/audit-retention.ts. */
  auditRetentionDays: number;
  /**
   * Which peers may set X-Forwarded-For (client address for login throttling and logs):
   * `loopback` by default (a reverse proxy on the same host), a comma list of addresses or
   * subnets, or `none`.
   */
  trustProxy: string | false;
  /**
   * Who may show the web client in a frame: the CSP `frame-ancestors` sources, `'none'` by
   * default, `'self'`, or origins such as `https://portal.example.com` (RASTRO_FRAME_ANCESTORS).
   */
  frameAncestors: string[];
  /** Milliseconds between `{}` keepalives on `/api/socket` (Traccar: 55 s). */
  socketKeepaliveMs: number;
  /** Milliseconds between two reports of each demo vehicle. */
  demoIntervalMs: number;
  /** Header weather providers' base URLs (null = "off"); see weather/weather-providers.ts. */
  weather: WeatherConfig;
  /** Traccar config keys set through RASTRO_* variables (event.*, report.trip.*; events/config-keys.ts). */
  keys: Record<string, ConfigValue>;
  /** Report threads and the limits on report work (reports/report-pool.ts). */
  reports: ReportsConfig;
  /** The command lifecycle and the engine-stop speed guard (commands/). */
  commands: CommandsConfig;
}

export interface CommandsConfig {
  /** Seconds a sent command may wait for the device's reply before it is failed (RASTRO_COMMAND_TIMEOUT). */
  timeout: number;
  /**
   * km/h above which an engine stop is held until the vehicle slows down
   * (RASTRO_ENGINE_STOP_MAX_SPEED; the server attribute `engineStop.maxSpeed` overrides it).
   */
  engineStopMaxSpeed: number;
}

export interface ReportsConfig {
  /** Worker threads running reports and position histories (RASTRO_REPORT_THREADS). */
  threads: number;
  /** Reports one user may have running or waiting at once, and mailed reports pending (RASTRO_REPORT_USER_LIMIT). */
  userLimit: number;
  /** Reports of all users waiting for a thread; more are refused with 503 (RASTRO_REPORT_QUEUE). */
  queue: number;
  /** Mailed reports of all users waiting, being built or being sent; more are refused with 429 (RASTRO_REPORT_MAIL_QUEUE). */
  mailQueue: number;
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

/** RASTRO_PUBLIC_HOSTS: host names (with a port when not the default), or URLs whose host is taken. */
function publicHosts(env: Env): string[] {
  const raw = (env.RASTRO_PUBLIC_HOSTS ?? '').trim();
  return raw.split(/[\s,]+/).filter(Boolean).map((entry) => {
    let host = entry;
    if (entry.includes('://')) {
      try {
        const parsed = new URL(entry);
        host = parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.host : '';
      } catch {
        host = '';
      }
    }
    if (!/^([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/i.test(host)) {
      throw new ConfigError(`RASTRO_PUBLIC_HOSTS must be host names like gps.example.com or gps.example.com:8443, got "${entry}"`);
    }
    return host.toLowerCase();
  });
}

/**
 * RASTRO_FRAME_ANCESTORS: `none` (default), `self`, or origins (space or comma separated) that
 * may frame the client. Only scheme://host[:port] is accepted, so nothing else can slip into the
 * Content-Security-Policy header.
 */
function frameAncestors(env: Env): string[] {
  const raw = (env.RASTRO_FRAME_ANCESTORS ?? '').trim();
  const parts = raw.split(/[\s,]+/).filter(Boolean).map((p) => p.replace(/^'(none|self)'$/i, '$1'));
  if (parts.length === 0 || (parts.length === 1 && parts[0]!.toLowerCase() === 'none')) return ["'none'"];
  return parts.map((p) => {
    if (p.toLowerCase() === 'self') return "'self'";
    const origin = /^(https?:\/\/(\*\.)?([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:(\d{1,5}|\*))?)\/?$/i.exec(p);
    if (!origin) throw new ConfigError(`RASTRO_FRAME_ANCESTORS must be none, self, or origins like https://portal.example.com, got "${raw}"`);
    return origin[1]!.toLowerCase();
  });
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
    protocolPorts: {
      gt06: int(env, 'RASTRO_GT06_PORT', 5023, 0, 65535),
      teltonika: int(env, 'RASTRO_TELTONIKA_PORT', 5027, 0, 65535),
      h02: int(env, 'RASTRO_H02_PORT', 5013, 0, 65535),
      suntech: int(env, 'RASTRO_SUNTECH_PORT', 5011, 0, 65535),
    },
    deviceIdleTimeout: int(env, 'RASTRO_DEVICE_IDLE_TIMEOUT', 1800, 1, 86_400 * 7),
    deviceConnections: int(env, 'RASTRO_DEVICE_CONNECTIONS', 20_000, 1, 1_000_000),
    adminPassword: adminPassword ? adminPassword : null,
    demo: flag(env, 'RASTRO_DEMO', true),
    license,
    deviceLimit,
    smtpUrl: url(env, 'RASTRO_SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.RASTRO_MAIL_FROM?.trim() || 'Rastro <no-reply@rastro.local>',
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    statusTimeout: int(env, 'RASTRO_STATUS_TIMEOUT', 600, 5, 86_400 * 30),
    ingestBuffer: int(env, 'RASTRO_INGEST_BUFFER', 50_000, 1, 10_000_000),
    ingestInFlight: int(env, 'RASTRO_INGEST_IN_FLIGHT', 4_000, 1, 1_000_000),
    webRoot: env.RASTRO_WEB_ROOT?.trim() || null,
    publicUrl: url(env, 'RASTRO_PUBLIC_URL', ['http:', 'https:']),
    publicHosts: publicHosts(env),
    tokenMaxDays: int(env, 'RASTRO_TOKEN_MAX_DAYS', 365, 1, 3650),
    auditRetentionDays: int(env, 'RASTRO_AUDIT_RETENTION_DAYS', 365, 1, 36_500),
    trustProxy: trustProxy(env),
    frameAncestors: frameAncestors(env),
    socketKeepaliveMs: int(env, 'RASTRO_SOCKET_KEEPALIVE_MS', 55_000, 50, 3_600_000),
    demoIntervalMs: int(env, 'RASTRO_DEMO_INTERVAL_MS', 5_000, 50, 3_600_000),
    weather: {
      ipUrl: providerUrl(env, 'RASTRO_WEATHER_IP_URL', 'https://api.ipify.org'),
      geoUrl: providerUrl(env, 'RASTRO_WEATHER_GEO_URL', 'http://ip-api.com/json'),
      forecastUrl: providerUrl(env, 'RASTRO_WEATHER_FORECAST_URL', 'https://api.open-meteo.com/v1/forecast'),
    },
    keys: keys.values,
    reports: {
      // Half the cores (1 on a 2-core machine): the other half keeps serving the API and ingest.
      threads: int(env, 'RASTRO_REPORT_THREADS', Math.max(1, Math.min(4, Math.floor(os.availableParallelism() / 2))), 1, 64),
      userLimit: int(env, 'RASTRO_REPORT_USER_LIMIT', 2, 1, 1000),
      queue: int(env, 'RASTRO_REPORT_QUEUE', 20, 0, 100_000),
      mailQueue: int(env, 'RASTRO_REPORT_MAIL_QUEUE', 20, 1, 100_000),
    },
    commands: {
      timeout: int(env, 'RASTRO_COMMAND_TIMEOUT', 120, 1, 86_400),
      engineStopMaxSpeed: int(env, 'RASTRO_ENGINE_STOP_MAX_SPEED', 20, 0, 1000),
    },
  };
}
