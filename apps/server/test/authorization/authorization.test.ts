// The authorization table (issue 13, item 12): every route of the server, tried as every role
// of the fixture world (world.ts), must answer what its row says (rows/*.ts) — on SQLite, and
// on PostgreSQL when TEST_DATABASE_URL is set. One server per backend; one request per case;
// what a case creates or changes is removed or put back after it (runner.ts).
//
// A route with no row fails the completeness test below: a new route comes with its rows.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestClient, type TestServer } from '../harness.ts';
import { ROLES, passes } from './roles.ts';
import { registeredRoutes } from './route-list.ts';
import { outsideFastify, ROWS } from './rows/index.ts';
import { runCase, splitRoute } from './runner.ts';
import { buildWorld, makeWebRoot, type Fixture } from './world.ts';

describe.each(backends)('authorization table (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let fixture: Fixture;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = makeWebRoot();
    server = await startTestServer(backend, {
      RASTRO_WEB_ROOT: webRoot,
      // The header weather stays off: no outside calls from tests.
      RASTRO_WEATHER_IP_URL: 'off',
      RASTRO_WEATHER_GEO_URL: 'off',
      RASTRO_WEATHER_FORECAST_URL: 'off',
    });
    admin = await server.admin();
    fixture = await buildWorld(server, admin, webRoot);
  }, 180_000);

  afterAll(async () => {
    try {
      await server?.close();
    } finally {
      if (webRoot) fs.rmSync(webRoot, { recursive: true, force: true });
    }
  });

  it('has a row for every route the server registers, and no row for a route it does not', () => {
    const registered = registeredRoutes(server.rastro.app).map((r) => `${r.method} ${r.path}`);
    const covered = new Set(ROWS.filter((r) => !outsideFastify(r)).map((r) => r.route));
    const missing = registered.filter((route) => !covered.has(route));
    const stale = [...covered].filter((route) => !registered.includes(route));
    expect(missing, `routes without a row in test/authorization/rows: add their rows\n  ${missing.join('\n  ')}`).toEqual([]);
    expect(stale, `rows for routes the server does not register\n  ${stale.join('\n  ')}`).toEqual([]);
  });

  it('has rows whose requests are shown well formed by a role that passes (or that say why none does)', () => {
    for (const row of ROWS) {
      splitRoute(row.route);
      const anyPasses = ROLES.some((role) => passes(row.expect[role]));
      expect(anyPasses || row.nobodyPasses !== undefined, `${row.route} (${row.variant}): no role passes and no reason is given`).toBe(true);
    }
  });

  for (const row of ROWS) {
    describe(`${row.route} · ${row.variant}`, () => {
      it.each(ROLES)('as %s', async (role) => {
        const failure = await runCase({ server, admin, fixture }, row, role);
        expect(failure, `${row.route} (${row.variant}) as ${role}`).toBeNull();
      });
    });
  }
});
