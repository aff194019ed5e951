// Differential test against a real Traccar 6.14.5 (issue 12): the world Traccar was given
// (traccar-world-1.json, copied from shared/reference/traccar-answers) is replayed on our
// server — the same API calls, the same 90 OsmAnd reports — then every request Traccar answered
// is asked again and the answers compared (compare.ts). Each difference fails its request's
// test unless DELIBERATE (deliberate-differences.ts) accepts it with a reason.
//
//   npx vitest run apps/server/test/differential
//   RASTRO_DIFF_REPORT=/tmp/diff-report.md npx vitest run apps/server/test/differential
//     also writes every difference, accepted or not, as Markdown (report.ts); the PostgreSQL
//     run writes next to it with `.postgres` before the extension.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, backends, startTestServer, type TestServer } from '../harness.ts';
import { askAll } from './ask.ts';
import { compareAnswers, type Answer } from './compare.ts';
import { DELIBERATE, type Deliberate } from './deliberate-differences.ts';
import { deliberateFor } from './deliberate-match.ts';
import { pairEvents } from './event-pairs.ts';
import { markdownReport, type RequestResult } from './report.ts';
import { ingestReports, replayWorld, type Fixture } from './replay.ts';
import { ALL_EVENTS, requestsFor } from './requests.ts';

const fixture = JSON.parse(fs.readFileSync(new URL('./traccar-world-1.json', import.meta.url), 'utf8')) as Fixture;
const range = { from: fixture.t0Iso, to: new Date((fixture.t0 + 3600) * 1000).toISOString() };
const REQUESTS = requestsFor(ADMIN_PASSWORD);
/** An empty entry in the fixture: Traccar's answer to that request was not recorded. */
const recorded = (name: string) => typeof fixture.answers[name]?.status === 'number';

function explain(result: RequestResult): string {
  const open = result.differences.filter((d) => !d.deliberate);
  const rows = open.map((d) => {
    const note = d.note ? `  (${d.note})` : '';
    return `  ${d.kind.padEnd(7)} ${d.path}\n          Traccar: ${JSON.stringify(d.traccar)}\n          ours:    ${JSON.stringify(d.ours)}${note}`;
  });
  return `${result.name}: ${open.length} difference(s) from Traccar not in DELIBERATE\n${rows.join('\n')}`;
}

describe.each(backends)('differential: Traccar world 1 (%s)', (backend) => {
  let server: TestServer;
  const results = new Map<string, RequestResult>();
  const used = new Set<Deliberate>();

  beforeAll(async () => {
    server = await startTestServer(backend);
    const ids = await replayWorld(server, fixture.world);
    await ingestReports(server, await server.admin(), fixture.osmandQueries, ids, range);
    const answers = await askAll(server, REQUESTS, ids, range);
    pairEvents(fixture.answers[ALL_EVENTS]?.json, answers.get(ALL_EVENTS)?.json, ids);

    for (const request of REQUESTS) {
      const ours = answers.get(request.name)!;
      const traccar = fixture.answers[request.name] ?? {};
      const notRecorded = !recorded(request.name);
      const differences = notRecorded
        ? []
        : compareAnswers(request.name, traccar as Answer, ours, { ids, kind: request.kind }).map((d) => {
          const deliberate = deliberateFor(d, DELIBERATE);
          if (deliberate) used.add(deliberate);
          return deliberate ? { ...d, deliberate } : d;
        });
      results.set(request.name, { name: request.name, traccarStatus: traccar.status, ourStatus: ours.status, notRecorded, differences });
    }

    const reportPath = process.env.RASTRO_DIFF_REPORT?.trim();
    if (reportPath) {
      const file = backend === 'sqlite' ? reportPath : reportPath.replace(/(\.md)?$/, `.${backend}$1`);
      fs.writeFileSync(file, markdownReport(backend, [...results.values()], DELIBERATE.filter((d) => !used.has(d))));
    }
  }, 180_000);

  afterAll(async () => {
    await server?.close();
  });

  it('has one request for every recorded answer, in the recorded order', () => {
    expect(REQUESTS.map((r) => r.name)).toEqual(Object.keys(fixture.answers));
  });

  for (const request of REQUESTS) {
    it.skipIf(!recorded(request.name))(request.name, () => {
      const result = results.get(request.name)!;
      if (result.differences.some((d) => !d.deliberate)) throw new Error(explain(result));
    });
  }

  it('every DELIBERATE entry still accepts a difference (a fixed one is taken off the list)', () => {
    const stale = DELIBERATE.filter((d) => !used.has(d)).map((d) => `${d.request} ${d.kind} ${d.path}`);
    expect(stale).toEqual([]);
  });
});
