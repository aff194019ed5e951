// GET /api/server/timezones: the zone names a `timezone` preference may take — every one usable
// by this runtime, each zone once, UTC and the fixed Etc/GMT offsets included; for logged-in
// callers only, as Traccar. SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isTimeZone } from '@rastro/domain/report-days';
import { backends, startTestServer, type TestServer } from './harness.ts';
import { expectResponse } from './openapi.ts';
import { makeUser } from './visibility-fixtures.ts';

describe.each(backends)('server time zones (%s)', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('needs a session, as Traccar', async () => {
    expect((await server.client().get('/api/server/timezones')).status).toBe(401);
  });

  it('lists usable zone names, alphabetical, each zone once (contract: array of strings)', async () => {
    const user = await makeUser(server, 'zones@test');
    const res = await user.client.get<string[]>('/api/server/timezones');
    expect(res.status).toBe(200);
    expectResponse('GET', '/server/timezones', res);
    const zones = res.json;
    expect(zones).toEqual([...zones].sort());
    expect(zones).toEqual(expect.arrayContaining(['America/Sao_Paulo', 'Europe/Lisbon', 'UTC', 'Etc/GMT+3', 'Etc/GMT-14', 'Etc/GMT+12']));
    expect(zones.every(isTimeZone)).toBe(true);
    // Each zone under one name: none resolves to another listed name.
    const canonical = (z: string) => new Intl.DateTimeFormat('en-US', { timeZone: z }).resolvedOptions().timeZone;
    expect(new Set(zones.map(canonical)).size).toBe(zones.length);
    expect(zones).not.toContain('US/Eastern');
  });
});
