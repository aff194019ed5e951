// Device status over real HTTP: online on a message, unknown after RASTRO_STATUS_TIMEOUT
// seconds of silence (stored and pushed on the live feed), statuses reset at start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestServer } from './harness.ts';
import { createDevice, deviceRow, osmand, recordLive, sleep } from './ingest-helpers.ts';
import { resetStatuses } from '../src/processing/device-status.ts';

describe.each(backends)('device status (%s)', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_STATUS_TIMEOUT: '5' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('goes online on a message and unknown after the timeout of silence', async () => {
    const device = await createDevice(server, 'status-1');
    expect((await deviceRow(server, device.id)).status).toBeNull();
    const live = recordLive(server);
    const sentAt = Date.now();
    expect((await osmand(server, '/?id=status-1&lat=1&lon=2')).status).toBe(200);
    expect((await deviceRow(server, device.id)).status).toBe('online');

    let status: string | null = 'online';
    while (status === 'online' && Date.now() - sentAt < 12_000) {
      await sleep(200);
      status = (await deviceRow(server, device.id)).status;
    }
    const elapsed = Date.now() - sentAt;
    live.stop();
    expect(status).toBe('unknown');
    // Not before the timeout, and within timeout + one sweep (timeout/10) + writer delay.
    expect(elapsed).toBeGreaterThanOrEqual(5_000);
    expect(elapsed).toBeLessThan(7_000);
    const pushed = live.batches.flatMap((b) => b.devices ?? []).filter((d) => d.id === device.id).map((d) => d.status);
    expect(pushed).toEqual(['online', 'unknown']);

    // The next message brings it back online.
    expect((await osmand(server, '/?id=status-1&lat=1&lon=2')).status).toBe(200);
    expect((await deviceRow(server, device.id)).status).toBe('online');
  });

  it('resets stored statuses to null (shown offline) at start', async () => {
    const device = await createDevice(server, 'status-2');
    await server.rastro.ctx.storage.db.updateTable('devices').set({ status: 'online' }).where('id', '=', device.id).execute();
    await resetStatuses(server.rastro.ctx);
    expect((await deviceRow(server, device.id)).status).toBeNull();
  });
});
