import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestServer } from './harness.ts';

describe.each(backends)('server start (%s)', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the health check', async () => {
    const res = await server.client().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.text).toBe('OK');
  });

  it('refuses a protected endpoint without a session', async () => {
    const res = await server.client().get('/api/devices', { accept: 'text/html' });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="api"');
  });
});
