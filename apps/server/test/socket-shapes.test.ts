// What /api/socket sends has the shapes of Traccar's REST answers (issue 12): a device with no
// group or calendar says 0, a position without address, network or geofences says null for
// each — on the live push of a report, on the snapshot a new socket gets, and on the push of a
// device edited through REST.
import type { Device, Position } from '@rastro/domain/entities';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { createDevice, osmand } from './ingest-helpers.ts';
import { LiveSocket, isKey, type Received } from './socket-client.ts';

const NONE_OF_A_POSITION = { address: null, network: null, geofenceIds: null };
const NONE_OF_A_DEVICE = { groupId: 0, calendarId: 0 };

const about = (key: 'devices' | 'positions', id: number, field: 'id' | 'deviceId') => (m: Received) =>
  isKey(key)(m) && (m.json[key] as Array<Record<string, unknown>>).some((x) => x[field] === id);

describe.each(backends)('socket shapes (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  beforeAll(async () => {
    server = await startTestServer(backend);
    admin = await server.admin();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sends a device without group as 0 and a position without extras as nulls, live and on connect', async () => {
    const device = await createDevice(server, 'shape-1');
    const live = await LiveSocket.open(server.url, { cookie: admin.cookie });
    try {
      const report = await osmand(server, `/?id=shape-1&lat=-23.55&lon=-46.63&timestamp=${Math.floor(Date.now() / 1000)}`);
      expect(report.status).toBe(200);
      const message = await live.next(about('positions', device.id, 'deviceId'));
      expect((message.json.positions as Position[]).find((p) => p.deviceId === device.id)).toMatchObject(NONE_OF_A_POSITION);
      // The device came online with the report: its {devices} goes out just before the {positions}.
      const online = live.received.find(about('devices', device.id, 'id'))!;
      expect((online.json.devices as Device[]).find((d) => d.id === device.id)).toMatchObject({ status: 'online', ...NONE_OF_A_DEVICE });

      // A REST edit reaches the socket with the same shape.
      const current = (await admin.get<Device>(`/api/devices/${device.id}`)).json;
      expect((await admin.put(`/api/devices/${device.id}`, { ...current, name: 'Shape renamed' })).status).toBe(200);
      const edited = (await live.next(about('devices', device.id, 'id'))).json.devices as Device[];
      expect(edited.find((d) => d.id === device.id)).toMatchObject({ name: 'Shape renamed', ...NONE_OF_A_DEVICE });
    } finally {
      live.close();
    }

    const fresh = await LiveSocket.open(server.url, { cookie: admin.cookie });
    try {
      const snapshot = (await fresh.next(about('positions', device.id, 'deviceId'))).json.positions as Position[];
      expect(snapshot.find((p) => p.deviceId === device.id)).toMatchObject(NONE_OF_A_POSITION);
    } finally {
      fresh.close();
    }
  });
});
