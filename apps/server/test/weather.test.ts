// Header weather: address rules, the providers' answer shapes, the caches, and a contract test
// of GET /tarkan/weather against a local stub of the three services (ipify, ip-api,
// Open-Meteo) answering the documented shapes, including failures, timeouts and "off".
import http from 'node:http';
import type net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { isPrivateAddress, normalizeAddress } from '../src/weather/ip-address.ts';
import {
  httpWeatherProviders, parseForecastAnswer, parseGeoAnswer, parseIpAnswer, ProviderError, type WeatherProviders,
} from '../src/weather/weather-providers.ts';
import { createWeatherService, roundCoordinate, WeatherUnavailable } from '../src/weather/weather-service.ts';
import { startTestServer, type TestServer } from './harness.ts';

const PUBLIC_IP = '203.0.113.7';
const GEO_OK = { status: 'success', country: 'Brazil', city: 'São Paulo', lat: -23.55, lon: -46.63, timezone: 'America/Sao_Paulo', query: PUBLIC_IP };
const FORECAST_OK = {
  latitude: -23.5,
  longitude: -46.625,
  timezone: 'America/Sao_Paulo',
  current_units: { temperature_2m: '°C', weather_code: 'wmo code', is_day: '', wind_speed_10m: 'km/h' },
  current: { time: '2026-03-26T16:15', interval: 900, temperature_2m: 18.0, weather_code: 3, is_day: 1, wind_speed_10m: 19.0 },
};

describe('caller addresses', () => {
  it.each(['127.0.0.1', '::1', '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.10', '169.254.0.5', '100.64.1.1', '::ffff:192.168.0.2', 'fd00::1', 'fe80::1', '0.0.0.0', 'not-an-ip', ''])(
    '%s is private',
    (ip) => expect(isPrivateAddress(ip)).toBe(true),
  );
  it.each(['203.0.113.7', '8.8.8.8', '172.32.0.1', '100.128.0.1', '::ffff:8.8.4.4', '2001:db8::1', '[2001:4860::8888]'])('%s is public', (ip) =>
    expect(isPrivateAddress(ip)).toBe(false),
  );
  it('unwraps IPv4-mapped IPv6 addresses', () => {
    expect(normalizeAddress('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(normalizeAddress(' 2001:db8::1 ')).toBe('2001:db8::1');
  });
});

describe('provider answers', () => {
  it('reads the documented shapes', () => {
    expect(parseIpAnswer({ ip: PUBLIC_IP })).toBe(PUBLIC_IP);
    expect(parseGeoAnswer(GEO_OK)).toEqual({ latitude: -23.55, longitude: -46.63, city: 'São Paulo', timezone: 'America/Sao_Paulo' });
    expect(parseForecastAnswer(FORECAST_OK)).toEqual({ temperature: 18, weatherCode: 3, isDay: true, timezone: 'America/Sao_Paulo' });
    expect(parseForecastAnswer({ current: { temperature_2m: -2.5, weather_code: 71, is_day: 0 } })).toEqual({
      temperature: -2.5, weatherCode: 71, isDay: false, timezone: null,
    });
  });
  it('refuses failures and answers without the fields', () => {
    expect(() => parseIpAnswer({})).toThrow(ProviderError);
    expect(() => parseGeoAnswer({ status: 'fail', message: 'private range' })).toThrow(/private range/);
    expect(() => parseGeoAnswer({ status: 'success', lat: 'x', lon: 2 })).toThrow(ProviderError);
    expect(() => parseGeoAnswer({ status: 'success', lat: 91, lon: 2 })).toThrow(ProviderError);
    expect(() => parseForecastAnswer({ current: { temperature_2m: 20 } })).toThrow(ProviderError);
    expect(() => parseForecastAnswer({ current: { temperature_2m: 20, weather_code: 150 } })).toThrow(ProviderError);
    expect(() => parseForecastAnswer({})).toThrow(ProviderError);
  });
});

describe('configuration', () => {
  it('uses the public services by default and turns each off with "off"', () => {
    expect(loadConfig({}).weather).toEqual({
      ipUrl: 'https://api.ipify.org',
      geoUrl: 'http://ip-api.com/json',
      forecastUrl: 'https://api.open-meteo.com/v1/forecast',
    });
    const off = loadConfig({ RASTRO_WEATHER_IP_URL: 'off', RASTRO_WEATHER_GEO_URL: 'OFF', RASTRO_WEATHER_FORECAST_URL: ' off ' }).weather;
    expect(off).toEqual({ ipUrl: null, geoUrl: null, forecastUrl: null });
    expect(httpWeatherProviders(off)).toBeNull();
    expect(httpWeatherProviders({ ...loadConfig({}).weather, forecastUrl: null })).toBeNull();
    expect(httpWeatherProviders({ ...loadConfig({}).weather, ipUrl: null })?.publicIp).toBeNull();
  });
  it('refuses URLs that are not http(s), naming the variable', () => {
    expect(() => loadConfig({ RASTRO_WEATHER_GEO_URL: 'ftp://geo' })).toThrow(/RASTRO_WEATHER_GEO_URL/);
    expect(() => loadConfig({ RASTRO_WEATHER_FORECAST_URL: 'nonsense' })).toThrow(/RASTRO_WEATHER_FORECAST_URL/);
  });
});

/** Fake providers that count their calls. */
function fakeProviders(overrides: Partial<WeatherProviders> = {}) {
  const calls = { publicIp: 0, locate: [] as string[], forecast: [] as string[] };
  const providers: WeatherProviders = {
    publicIp: async () => {
      calls.publicIp += 1;
      return PUBLIC_IP;
    },
    locate: async (ip) => {
      calls.locate.push(ip);
      return { latitude: -23.55, longitude: -46.63, city: 'São Paulo', timezone: 'America/Sao_Paulo' };
    },
    forecast: async (lat, lon) => {
      calls.forecast.push(`${lat},${lon}`);
      return { temperature: 21.5, weatherCode: 2, isDay: true, timezone: 'America/Sao_Paulo' };
    },
    ...overrides,
  };
  return { providers, calls };
}

describe('weather service caches', () => {
  it('asks the public IP lookup only for private callers', async () => {
    const { providers, calls } = fakeProviders();
    const service = createWeatherService(providers);
    expect(await service.report('198.51.100.20')).toEqual({ temperature: 21.5, weatherCode: 2, isDay: true, city: 'São Paulo', timezone: 'America/Sao_Paulo' });
    expect(calls.publicIp).toBe(0);
    expect(calls.locate).toEqual(['198.51.100.20']);
    await service.report('192.168.0.9');
    expect(calls.publicIp).toBe(1);
    expect(calls.locate).toEqual(['198.51.100.20', PUBLIC_IP]);
  });

  it('keeps locations per address for hours and forecasts per rounded coordinate for ~10 minutes', async () => {
    let now = 1_000_000;
    const { providers, calls } = fakeProviders();
    const service = createWeatherService(providers, { now: () => now });
    await service.report('198.51.100.20');
    await service.report('198.51.100.20');
    expect(calls.locate).toHaveLength(1);
    expect(calls.forecast).toEqual(['-23.5,-46.6']);
    // Another address at the same rounded coordinate shares the forecast.
    await service.report('198.51.100.21');
    expect(calls.locate).toHaveLength(2);
    expect(calls.forecast).toHaveLength(1);
    now += 11 * 60_000;
    await service.report('198.51.100.20');
    expect(calls.forecast).toHaveLength(2);
    expect(calls.locate).toHaveLength(2);
    now += 7 * 3_600_000;
    await service.report('198.51.100.20');
    expect(calls.locate).toHaveLength(3);
  });

  it('shares one call between concurrent callers', async () => {
    const { providers, calls } = fakeProviders();
    const service = createWeatherService(providers);
    await Promise.all(Array.from({ length: 5 }, () => service.report('198.51.100.20')));
    expect(calls.locate).toHaveLength(1);
    expect(calls.forecast).toHaveLength(1);
  });

  it('does not retry a failed provider for a minute, then does', async () => {
    let now = 0;
    let failing = true;
    const { providers, calls } = fakeProviders({
      locate: async (ip) => {
        calls.locate.push(ip);
        if (failing) throw new ProviderError('IP geolocation: no answer within 3000 ms');
        return { latitude: 1, longitude: 2, city: null, timezone: null };
      },
    });
    const service = createWeatherService(providers, { now: () => now });
    await expect(service.report('198.51.100.20')).rejects.toBeInstanceOf(WeatherUnavailable);
    await expect(service.report('198.51.100.20')).rejects.toBeInstanceOf(WeatherUnavailable);
    expect(calls.locate).toHaveLength(1);
    failing = false;
    now += 61_000;
    expect((await service.report('198.51.100.20')).city).toBeNull();
    expect(calls.locate).toHaveLength(2);
  });

  it('shows an expired forecast for a while when the forecast fails', async () => {
    let now = 0;
    let failing = false;
    const { providers } = fakeProviders({
      forecast: async () => {
        if (failing) throw new ProviderError('forecast: HTTP 500');
        return { temperature: 10, weatherCode: 0, isDay: false, timezone: null };
      },
    });
    const service = createWeatherService(providers, { now: () => now });
    await service.report('198.51.100.20');
    failing = true;
    now += 15 * 60_000;
    expect((await service.report('198.51.100.20')).temperature).toBe(10);
    now += 2 * 3_600_000;
    await expect(service.report('198.51.100.20')).rejects.toBeInstanceOf(WeatherUnavailable);
  });

  it('is unavailable for private callers when the public IP lookup is off', async () => {
    const { providers } = fakeProviders({ publicIp: null });
    await expect(createWeatherService(providers).report('127.0.0.1')).rejects.toThrow(/public IP lookup is off/);
  });

  it('rounds coordinates to 0.1°', () => {
    expect(roundCoordinate(-23.55)).toBe(-23.5);
    expect(roundCoordinate(-46.63)).toBe(-46.6);
    expect(roundCoordinate(12.349)).toBe(12.3);
  });
});

// ---------------------------------------------------------------------------------------------
// Contract test: the real HTTP clients against a local stub of the three services.

type Mode = 'ok' | 'geo-fail' | 'forecast-500' | 'hang' | 'bad-json';

interface Stub {
  url: string;
  mode: Mode;
  requests: URL[];
  close(): Promise<void>;
}

async function startStub(): Promise<Stub> {
  const sockets = new Set<net.Socket>();
  const stub: Stub = { url: '', mode: 'ok', requests: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    stub.requests.push(url);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (stub.mode === 'hang') return; // never answers: the client must give up
    if (url.pathname === '/ipify/' || url.pathname === '/ipify') return json(200, { ip: PUBLIC_IP });
    if (url.pathname.startsWith('/ip-api/json/')) {
      if (stub.mode === 'geo-fail') return json(200, { status: 'fail', message: 'private range', query: url.pathname.split('/').pop() });
      return json(200, { ...GEO_OK, query: decodeURIComponent(url.pathname.split('/').pop() ?? '') });
    }
    if (url.pathname === '/open-meteo/v1/forecast') {
      if (stub.mode === 'forecast-500') return json(500, { error: true, reason: 'boom' });
      if (stub.mode === 'bad-json') return json(200, '{"current": ');
      return json(200, FORECAST_OK);
    }
    json(404, { error: 'not found' });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  stub.url = `http://127.0.0.1:${port}`;
  stub.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return stub;
}

const stubEnv = (stub: Stub) => ({
  RASTRO_WEATHER_IP_URL: `${stub.url}/ipify`,
  RASTRO_WEATHER_GEO_URL: `${stub.url}/ip-api/json`,
  RASTRO_WEATHER_FORECAST_URL: `${stub.url}/open-meteo/v1/forecast`,
});

describe('GET /tarkan/weather against stub providers', () => {
  let stub: Stub;
  const servers: TestServer[] = [];
  const start = async (env: Record<string, string>) => {
    const server = await startTestServer('sqlite', env);
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    stub = await startStub();
  });
  afterEach(async () => {
    stub.mode = 'ok';
    stub.requests = [];
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await stub?.close();
  });

  it('needs a session', async () => {
    const server = await start(stubEnv(stub));
    const res = await server.client().get('/tarkan/weather');
    expect(res.status).toBe(401);
    expect(stub.requests).toHaveLength(0);
  });

  it('locates a local caller through the public IP lookup, then asks the forecast; caches both', async () => {
    const server = await start(stubEnv(stub));
    const admin = await server.admin();
    const res = await admin.get('/tarkan/weather');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ temperature: 18, weatherCode: 3, isDay: true, city: 'São Paulo', timezone: 'America/Sao_Paulo' });
    expect(res.headers.get('cache-control')).toContain('no-store');
    const [ip, geo, forecast] = stub.requests;
    expect(ip!.searchParams.get('format')).toBe('json');
    expect(geo!.pathname).toBe(`/ip-api/json/${PUBLIC_IP}`);
    expect(geo!.searchParams.get('fields')).toBe('status,message,country,city,lat,lon,timezone,query');
    expect(forecast!.searchParams.get('latitude')).toBe('-23.50');
    expect(forecast!.searchParams.get('longitude')).toBe('-46.60');
    expect(forecast!.searchParams.get('current')).toBe('temperature_2m,weather_code,is_day');
    expect(forecast!.searchParams.get('timezone')).toBe('auto');
    // The header asks every minute: the next answers come from the caches.
    expect((await admin.get('/tarkan/weather')).status).toBe(200);
    expect(stub.requests).toHaveLength(3);
  });

  it('locates a public caller (behind a trusted proxy) directly, without the public IP lookup', async () => {
    const server = await start(stubEnv(stub));
    const admin = await server.admin();
    const res = await admin.get('/tarkan/weather', { 'X-Forwarded-For': '198.51.100.44' });
    expect(res.status).toBe(200);
    expect(stub.requests.map((r) => r.pathname)).toEqual(['/ip-api/json/198.51.100.44', '/open-meteo/v1/forecast']);
  });

  it.each<[Mode, string]>([
    ['geo-fail', 'private range'],
    ['forecast-500', 'HTTP 500'],
    ['bad-json', 'bad JSON'],
  ])('answers 503 when a provider fails (%s)', async (mode, reason) => {
    stub.mode = mode;
    const server = await start(stubEnv(stub));
    const admin = await server.admin();
    const res = await admin.get('/tarkan/weather');
    expect(res.status).toBe(503);
    expect(res.text).toContain(reason);
  });

  it('gives up on a provider that does not answer within 3 s, then answers at once', async () => {
    stub.mode = 'hang';
    const server = await start(stubEnv(stub));
    const admin = await server.admin();
    let started = Date.now();
    const first = await admin.get('/tarkan/weather');
    const firstMs = Date.now() - started;
    expect(first.status).toBe(503);
    expect(first.text).toContain('no answer within 3000 ms');
    expect(firstMs).toBeGreaterThanOrEqual(2_900);
    expect(firstMs).toBeLessThan(6_000);
    started = Date.now();
    expect((await admin.get('/tarkan/weather')).status).toBe(503);
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('answers 503 quickly when nothing listens (no internet)', async () => {
    const closed = await startStub();
    const env = stubEnv(closed);
    await closed.close();
    const server = await start(env);
    const admin = await server.admin();
    const started = Date.now();
    expect((await admin.get('/tarkan/weather')).status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('answers 204 when the weather is turned off', async () => {
    const server = await start({ ...stubEnv(stub), RASTRO_WEATHER_FORECAST_URL: 'off' });
    const admin = await server.admin();
    const res = await admin.get('/tarkan/weather');
    expect(res.status).toBe(204);
    expect(stub.requests).toHaveLength(0);
  });
});
