// Security headers on every answer of the main server (API, 404, errors, the web client and its
// SPA fallback) and nosniff on the OsmAnd port: a CSP the client lives within, framing refused
// unless RASTRO_FRAME_ANCESTORS lists origins, HSTS only over https (a trusted proxy's
// X-Forwarded-Proto counts), and the API still usable cross-origin (CORP cross-origin on /api).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { backends, startTestServer, type TestResponse, type TestServer } from './harness.ts';

/** A tiny web root: the SPA page, one asset and the worker file names the real build has. */
function makeWebRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-web-'));
  fs.writeFileSync(path.join(root, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>');
  fs.mkdirSync(path.join(root, 'assets'));
  fs.writeFileSync(path.join(root, 'assets/app.js'), 'console.log("app");\n');
  fs.writeFileSync(path.join(root, 'sw.js'), 'self.addEventListener("fetch", () => {});\n');
  return root;
}

/** The CSP as a map of directive -> sources. */
function csp(res: TestResponse): Map<string, string[]> {
  const header = res.headers.get('content-security-policy');
  expect(header, 'Content-Security-Policy').toBeTruthy();
  return new Map(
    header!.split(';').map((d) => d.trim()).filter(Boolean).map((d) => {
      const [name, ...sources] = d.split(/\s+/);
      return [name!, sources];
    }),
  );
}

/** What every answer of the main server carries, whatever its route or status. */
function expectCommonHeaders(res: TestResponse): void {
  const policy = csp(res);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  // Scripts from our own files only: no inline script, no eval.
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('script-src-attr')).toEqual(["'none'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'self'"]);
  expect(policy.get('form-action')).toEqual(["'self'"]);
  expect(policy.get('worker-src')).toEqual(["'self'", 'blob:']);
  expect(policy.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'data:', 'blob:', 'https:']));
  expect(policy.get('connect-src')).toEqual(expect.arrayContaining(["'self'", 'https:', 'ws:', 'wss:']));
  expect(policy.get('style-src')?.[0]).toBe("'self'");
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  // Never upgrade-insecure-requests: it would break installs served over plain http.
  expect(policy.has('upgrade-insecure-requests')).toBe(false);
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
  expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  // Plain http: no HSTS.
  expect(res.headers.get('strict-transport-security')).toBeNull();
}

describe.each(backends)('security headers (%s)', (backend) => {
  let server: TestServer;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = makeWebRoot();
    server = await startTestServer(backend, { RASTRO_WEB_ROOT: webRoot });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('an API answer carries them, and the API stays usable from other origins', async () => {
    const res = await server.client().get('/api/health', { origin: 'https://other.example.com' });
    expect(res.status).toBe(200);
    expectCommonHeaders(res);
    // Traccar's clients call the API from other origins (CORS in app.ts): the resource policy must allow it.
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const preflight = await server.client().request('OPTIONS', '/api/devices', undefined, { origin: 'https://other.example.com' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('a logged-in API answer carries them', async () => {
    const admin = await server.admin();
    const res = await admin.get('/api/devices');
    expect(res.status).toBe(200);
    expectCommonHeaders(res);
  });

  it('error answers carry them: 401, 400 from a route, bad JSON, 404, a bad URL, 413', async () => {
    const unauthorized = await server.client().get('/api/devices');
    expect(unauthorized.status).toBe(401);
    expectCommonHeaders(unauthorized);

    const admin = await server.admin();
    const refused = await admin.post('/api/devices', { name: 'No unique id' });
    expect(refused.status).toBe(400);
    expect(refused.headers.get('content-type')).toContain('text/plain');
    expectCommonHeaders(refused);

    const badJson = await admin.post('/api/devices', '{"name": ', { 'content-type': 'application/json' });
    expect(badJson.status).toBe(400);
    expectCommonHeaders(badJson);

    const missingApi = await admin.get('/api/no-such-thing');
    expect(missingApi.status).toBe(404);
    expectCommonHeaders(missingApi);
    expect(missingApi.headers.get('cross-origin-resource-policy')).toBe('cross-origin');

    // Fastify answers a URL it cannot decode itself, before any hook: it still gets the essentials.
    const badUrl = await server.client().get('/api/devices/%E0%A4%A');
    expect(badUrl.status).toBe(400);
    expect(csp(badUrl).get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp(badUrl).get('script-src')).toEqual(["'self'"]);
    expect(badUrl.headers.get('x-content-type-options')).toBe('nosniff');
    expect(badUrl.headers.get('x-frame-options')).toBe('DENY');

    const tooLarge = await admin.post('/api/devices', JSON.stringify({ name: 'x'.repeat(1_100_000) }));
    expect(tooLarge.status).toBe(413);
    expectCommonHeaders(tooLarge);

    const missingFile = await server.client().get('/no-such-file.png');
    expect(missingFile.status).toBe(404);
    expectCommonHeaders(missingFile);
    expect(missingFile.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('the web client: the page, its SPA fallback, its files and the service worker', async () => {
    for (const p of ['/', '/index.html', '/devices/12', '/reports/trips?from=x']) {
      const res = await server.client().get(p, { accept: 'text/html' });
      expect(res.status, p).toBe(200);
      expect(res.text, p).toContain('<div id="root">');
      expectCommonHeaders(res);
      expect(res.headers.get('cross-origin-resource-policy'), p).toBe('same-origin');
    }
    // Workers take their policy from their own script's answer, so files carry it too.
    for (const p of ['/assets/app.js', '/sw.js']) {
      const res = await server.client().get(p);
      expect(res.status, p).toBe(200);
      expectCommonHeaders(res);
    }
  });

  it('the OsmAnd port answers with nosniff (200 and 400)', async () => {
    const ok = await fetch(`${server.osmandUrl}/?id=unknown-device&lat=1&lon=2`, { method: 'POST' });
    expect(ok.status).toBe(400);
    expect(ok.headers.get('x-content-type-options')).toBe('nosniff');
    const missing = await fetch(`${server.osmandUrl}/`, { method: 'POST' });
    expect(missing.status).toBe(400);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
    const admin = await server.admin();
    expect((await admin.post('/api/devices', { name: 'Nosniff', uniqueId: 'nosniff-1' })).status).toBe(200);
    const stored = await fetch(`${server.osmandUrl}/?id=nosniff-1&lat=1&lon=2`, { method: 'POST' });
    expect(stored.status).toBe(200);
    expect(stored.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('HSTS only over https: a trusted proxy saying https gets it, plain http does not', async () => {
    const viaProxy = await server.client().get('/api/health', { 'x-forwarded-proto': 'https' });
    expect(viaProxy.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const page = await server.client().get('/', { accept: 'text/html', 'x-forwarded-proto': 'https' });
    expect(page.headers.get('strict-transport-security')).toBe('max-age=31536000');
    const plain = await server.client().get('/api/health');
    expect(plain.headers.get('strict-transport-security')).toBeNull();
    const saysHttp = await server.client().get('/api/health', { 'x-forwarded-proto': 'http' });
    expect(saysHttp.headers.get('strict-transport-security')).toBeNull();
  });
});

describe.each(backends)('security headers, configured (%s)', (backend) => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('an untrusted peer cannot turn HSTS on with X-Forwarded-Proto', async () => {
    const server = await startTestServer(backend, { RASTRO_TRUST_PROXY: 'none' });
    servers.push(server);
    const res = await server.client().get('/api/health', { 'x-forwarded-proto': 'https' });
    expect(res.status).toBe(200);
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('RASTRO_FRAME_ANCESTORS lets the listed origins embed the client (and drops X-Frame-Options)', async () => {
    const server = await startTestServer(backend, { RASTRO_FRAME_ANCESTORS: 'https://portal.example.com, https://*.fleet.example.org:8443' });
    servers.push(server);
    const res = await server.client().get('/api/health');
    expect(csp(res).get('frame-ancestors')).toEqual(['https://portal.example.com', 'https://*.fleet.example.org:8443']);
    // X-Frame-Options cannot name origins; browsers that know frame-ancestors ignore it anyway.
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('RASTRO_FRAME_ANCESTORS=self allows the same origin only (X-Frame-Options SAMEORIGIN)', async () => {
    const server = await startTestServer(backend, { RASTRO_FRAME_ANCESTORS: 'self' });
    servers.push(server);
    const res = await server.client().get('/api/health');
    expect(csp(res).get('frame-ancestors')).toEqual(["'self'"]);
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });
});

describe('RASTRO_FRAME_ANCESTORS', () => {
  it("defaults to 'none' and reads self and origin lists", () => {
    expect(loadConfig({}).frameAncestors).toEqual(["'none'"]);
    expect(loadConfig({ RASTRO_FRAME_ANCESTORS: ' ' }).frameAncestors).toEqual(["'none'"]);
    expect(loadConfig({ RASTRO_FRAME_ANCESTORS: "'none'" }).frameAncestors).toEqual(["'none'"]);
    expect(loadConfig({ RASTRO_FRAME_ANCESTORS: 'SELF' }).frameAncestors).toEqual(["'self'"]);
    expect(loadConfig({ RASTRO_FRAME_ANCESTORS: "'self' https://Portal.example.com/ http://10.0.0.5:3000,https://[::1]:8443" }).frameAncestors)
      .toEqual(["'self'", 'https://portal.example.com', 'http://10.0.0.5:3000', 'https://[::1]:8443']);
  });

  it('refuses anything that is not an origin, naming the variable', () => {
    for (const bad of ['none https://a.example.com', 'https://a.example.com/embed', 'https://a.example.com; script-src *', '*', 'javascript:alert(1)', 'a.example.com', "https://a.example.com'"]) {
      expect(() => loadConfig({ RASTRO_FRAME_ANCESTORS: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ RASTRO_FRAME_ANCESTORS: bad }), bad).toThrow(/RASTRO_FRAME_ANCESTORS/);
    }
  });
});
