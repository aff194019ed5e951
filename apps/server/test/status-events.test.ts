// Device status and its events (issue 11, point 6), with event.status.enable on: a tracker on a
// TCP port goes online when its connection identifies it, unknown after the status timeout and
// offline when its connection closes; each change is stored as an event, pushed as {devices}
// and handed to the notification side (the writer's flush listeners). An OsmAnd (HTTP) device
// never goes offline because its HTTP connection closed.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlushedBatch } from '../src/processing/position-writer.ts';
import { startProtocolListener, type ProtocolListener } from '../src/ingest/tcp/protocol-listeners.ts';
import { backends, startTestServer, type TestServer } from './harness.ts';
import { createDevice, deviceRow, recordLive, sleep } from './ingest-helpers.ts';
import { eventually, LineClient, lineProtocol } from './device-listener-helpers.ts';

let seq = 0;
const uid = (name: string) => `${name}-${process.pid}-${++seq}`;

describe.each(backends)('device status events (%s)', (backend) => {
  let server: TestServer;
  let listener: ProtocolListener;
  const flushed: FlushedBatch[] = [];

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_EVENT_STATUS_ENABLE: '1' });
    listener = await startProtocolListener(server.rastro.ctx, lineProtocol('status-line'), 0, '127.0.0.1');
    server.rastro.ctx.processing!.writer.onFlushed((batch) => flushed.push(batch));
  });
  afterAll(async () => {
    await server?.close();
  });

  const eventsOf = async (deviceId: number) =>
    (await server.rastro.ctx.storage.db.selectFrom('events').select(['type', 'positionId']).where('deviceId', '=', deviceId).orderBy('id').execute())
      .map((e) => `${e.type}:${Number(e.positionId)}`);
  const handedOver = (deviceId: number) =>
    flushed.flatMap((b) => b.deviceEvents).filter((e) => e.entry.id === deviceId).map((e) => e.event.type);

  it('TCP: online on login, unknown after the timeout, offline when the connection closes; stored, pushed and handed to notifications', async () => {
    const device = await createDevice(server, uid('tcp-status'));
    const live = recordLive(server);
    const client = await LineClient.connect(listener.ports.tcp);
    client.send(`ID,${device.uniqueId}\n`);
    expect(await client.next()).toBe('OK');
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'online')).toBe('online');
    const pushed = () => live.batches.flatMap((b) => b.devices ?? []).filter((d) => d.id === device.id).map((d) => d.status).join();
    // (A push shows the device as it is when published: wait for this one before changing it again.)
    expect(await eventually(pushed, 'online')).toBe('online');

    // Silent for longer than the status timeout while the connection stays open: unknown.
    expect(server.rastro.ctx.processing!.status.sweep(Date.now() + 3_600_000)).toBeGreaterThanOrEqual(1);
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'unknown')).toBe('unknown');
    expect(await eventually(pushed, 'online,unknown')).toBe('online,unknown');

    await client.close();
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'offline')).toBe('offline');
    expect(await eventually(pushed, 'online,unknown,offline')).toBe('online,unknown,offline');
    live.stop();
    expect(await eventsOf(device.id)).toEqual(['deviceOnline:0', 'deviceUnknown:0', 'deviceOffline:0']);
    expect(handedOver(device.id)).toEqual(['deviceOnline', 'deviceUnknown', 'deviceOffline']);

    // Back: online again, with its event.
    const again = await LineClient.connect(listener.ports.tcp);
    again.send(`ID,${device.uniqueId}\n`);
    expect(await again.next()).toBe('OK');
    expect(await eventually(async () => (await eventsOf(device.id)).length, 4)).toBe(4);
    expect((await eventsOf(device.id))[3]).toBe('deviceOnline:0');
    await again.close();
  });

  it('OsmAnd (HTTP): a closed HTTP connection leaves the device online', async () => {
    const device = await createDevice(server, uid('http-status'));
    const url = new URL(server.osmandUrl);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const status = await new Promise<number>((resolve, reject) => {
      http.get({ host: url.hostname, port: url.port, path: `/?id=${device.uniqueId}&lat=1&lon=2`, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }).on('error', reject);
    });
    expect(status).toBe(200);
    expect((await deviceRow(server, device.id)).status).toBe('online');
    // The keep-alive connection goes away (the phone's app closes it, or a proxy does).
    agent.destroy();
    await sleep(300);
    expect((await deviceRow(server, device.id)).status).toBe('online');
    expect(await eventsOf(device.id)).toEqual(['deviceOnline:0']);
  });
});
