// Acknowledgements without a flush timer (issue 11, point 10): a device sending report after
// report over one keep-alive connection, each waiting for its answer, as a tracker emptying its
// buffer after a coverage gap. Each answer still follows its commit, but the writer commits as
// soon as it is idle: 200 round trips take a fraction of the old 200 × 25 ms.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestServer } from './harness.ts';
import { createDevice, positionsOf } from './ingest-helpers.ts';

/** A GET on `agent`; says whether it went over a connection already used. */
function get(server: TestServer, agent: http.Agent, path: string): Promise<{ status: number; reused: boolean }> {
  const url = new URL(server.osmandUrl);
  return new Promise((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
    });
    req.on('error', reject);
  });
}

describe.each(backends)('ack latency over one connection (%s)', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('200 sequential reports, each sent once the previous is answered, are all stored and take well under 200 × 25 ms', async () => {
    const device = await createDevice(server, 'ack-seq-1');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const t0 = Date.now() - 1_000_000;
    // The first report loads the device's state; the timing is about the ones after it.
    expect((await get(server, agent, `/?id=ack-seq-1&lat=1&lon=2&timestamp=${t0}`)).status).toBe(200);
    const started = performance.now();
    const answers = [];
    for (let i = 1; i <= 200; i++) {
      answers.push(await get(server, agent, `/?id=ack-seq-1&lat=1&lon=${2 + i / 10_000}&timestamp=${t0 + i * 1000}&seq=${i}`));
    }
    const took = performance.now() - started;
    agent.destroy();
    expect(answers.every((a) => a.status === 200 && a.reused)).toBe(true);
    // The old writer waited for its 25 ms timer before every commit: at least 5 s here.
    expect(took).toBeLessThan(2_500);
    // Acknowledged means committed: every report is stored, in order.
    const rows = await positionsOf(server, device.id);
    const seqs = rows.map((r) => (JSON.parse(r.attributes) as { seq?: number }).seq).filter((s) => s !== undefined);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });
});
