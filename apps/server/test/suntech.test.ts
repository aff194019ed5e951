// Suntech over real TCP on its own port (RASTRO_SUNTECH_PORT), through the listener and the
// pipeline: universal and legacy reports stored without an answer (Suntech expects none over
// TCP), keep-alives echoed, the zip form, an unknown tracker turned away and logged with its
// id, garbage closing only its own connection, and commands in the dialect the tracker speaks
// written to a connected tracker (200) or queued and written on its next connection (202),
// its answer stored as the command result. Both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knotsFromKmh } from '@rastro/domain/units';
import { REFERENCE_VECTORS } from '../src/ingest/suntech/suntech-vectors.ts';
import { ByteClient } from './byte-client.ts';
import { backends, freePort, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { createDevice, deviceRow, positionsOf, sleep } from './ingest-helpers.ts';
import { eventually } from './device-listener-helpers.ts';
import { apiPositions, ascii, expectTurnedAway, nextText } from './text-tracker.ts';

let seq = 0;
/** A 10-digit universal id (or the 9 digits of a legacy one) of its own for each test and process. */
const deviceId = () => `9${String(process.pid % 10_000).padStart(4, '0')}${String(++seq).padStart(5, '0')}`;

const two = (n: number) => String(n).padStart(2, '0');

function dateTime(at: number): string {
  const d = new Date(at);
  return `${d.getUTCFullYear()}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())};${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
}

/** A universal status report (every header field), output 1 as given. */
const universal = (id: string, at: number, { kmh = '36.00', output = '00000000', type = 'STT', typeFields = '2;1;0042' } = {}) =>
  `${type};${id};3FFFFF;95;1.0.11;1;${dateTime(at)};00001F2C;724;10;08B7;31;-23.501667;-046.630000;${kmh};90.00;9;1;00000001;${output};${typeFields}\r`;

/** A legacy ST300 status report. */
const legacy = (id: string, at: number, io = '100000') =>
  `ST300STT;${id};45;311;${dateTime(at)};8b7;-23.501667;-046.630000;000.000;000.00;9;1;1234567;12.80;${io};2;0042\r`;

describe.each(backends)('Suntech over TCP (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let port: number;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_SUNTECH_PORT: String(await freePort()) });
    admin = await server.admin();
    port = server.rastro.protocolPorts.suntech!.tcp;
  });
  afterAll(async () => {
    await server?.close();
  });

  const stored = async (id: number, count: number) => {
    expect(await eventually(async () => (await positionsOf(server, id)).length, count)).toBe(count);
    return positionsOf(server, id);
  };

  it('serves the Suntech port (TCP only); reports are stored without an answer, keep-alives echoed', async () => {
    expect(server.rastro.protocolPorts.suntech).toEqual({ tcp: port, udp: 0 });
    const device = await createDevice(server, deviceId());
    const tracker = await ByteClient.connect(port);
    const at = Math.floor((Date.now() - 60_000) / 1000) * 1000;
    tracker.send(ascii(universal(device.uniqueId, at)));
    await stored(device.id, 1);
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'online')).toBe('online');
    tracker.send(ascii(`ALV;${device.uniqueId}\r`));
    expect(await nextText(tracker, '\r')).toBe(`ALV;${device.uniqueId}\r`);
    tracker.send(ascii(universal(device.uniqueId, at + 10_000, { type: 'ALT', typeFields: '42;0;0' })));
    await stored(device.id, 2);
    await sleep(100);
    expect(tracker.pending.length).toBe(0);

    const positions = await apiPositions(admin, device.id);
    const first = positions.find((p) => p.attributes.alarm === undefined)!;
    expect(first).toMatchObject({ protocol: 'suntech', valid: true, course: 90, fixTime: new Date(at).toISOString().replace('Z', '+00:00') });
    expect(first.speed).toBeCloseTo(knotsFromKmh(36), 5);
    expect(first.latitude).toBeCloseTo(-23.501667, 5);
    expect(first.attributes).toMatchObject({ ignition: true, blocked: false, sat: 9 });
    expect(first.network?.cellTowers?.[0]).toMatchObject({ mobileCountryCode: 724, mobileNetworkCode: 10 });
    const events = await server.rastro.ctx.storage.db.selectFrom('events').select(['type', 'attributes']).where('deviceId', '=', device.id).execute();
    expect(events.filter((e) => e.type === 'alarm').map((e) => JSON.parse(e.attributes) as unknown)).toContainEqual({ alarm: 'sos' });
    await tracker.close();
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'offline')).toBe('offline');

    // The zip form.
    const zipDevice = await createDevice(server, '511340877');
    const zip = await ByteClient.connect(port);
    zip.send(Buffer.from(REFERENCE_VECTORS[12], 'hex'));
    const [position] = await stored(zipDevice.id, 1);
    expect(Number(position!.fixTime)).toBe(Date.UTC(2024, 11, 23, 0, 22, 4));
    await zip.close();
  });

  it('turns an unknown tracker away without an answer, logged with its id', async () => {
    const stranger = deviceId();
    await expectTurnedAway(server, port, 'suntech', stranger, ascii(legacy(stranger, Date.now())));
  });

  it('closes a connection that sends garbage or an endless report, and keeps serving the other trackers', async () => {
    const device = await createDevice(server, deviceId());
    const survivor = await ByteClient.connect(port);
    const attacks = [Buffer.from([0x00, 0x01, 0x02]), Buffer.from(`STT;${'1'.repeat(5000)}`), Buffer.from([0x02, 0xff, 0xff, 0x10])];
    for (const [i, bytes] of attacks.entries()) {
      const bad = await ByteClient.connect(port);
      bad.send(bytes);
      expect(await bad.waitClosed(), `attack ${i}`).toBe(true);
      survivor.send(ascii(`ALV;${device.uniqueId}\r`));
      expect(await nextText(survivor, '\r')).toBe(`ALV;${device.uniqueId}\r`);
    }
    await survivor.close();
  });

  it('writes an engine stop in the universal dialect (200), stores the RES answer; queues one for a legacy tracker offline (202)', async () => {
    const device = await createDevice(server, deviceId());
    const tracker = await ByteClient.connect(port);
    tracker.send(ascii(universal(device.uniqueId, Date.now() - 5_000, { kmh: '0.00' })));
    await stored(device.id, 1);

    const types = await admin.get<Array<{ type: string }>>(`/api/commands/types?deviceId=${device.id}`);
    expect(types.json.map((t) => t.type).sort()).toEqual(['custom', 'engineResume', 'engineStop', 'outputControl', 'positionSingle', 'rebootDevice']);

    const sent = await admin.post('/api/commands/send', { deviceId: device.id, type: 'engineStop', attributes: {} });
    expect(sent.status).toBe(200);
    expect(await nextText(tracker, '\r')).toBe(`CMD;${device.uniqueId};04;01\r`);
    tracker.send(ascii(`RES;${device.uniqueId};04;01\r`));
    tracker.send(ascii(universal(device.uniqueId, Date.now() - 1_000, { kmh: '0.00', output: '00000001' })));
    const positions = await stored(device.id, 3);
    const attributes = positions.map((p) => JSON.parse(p.attributes) as Record<string, unknown>);
    expect(attributes.find((a) => a.result !== undefined)?.result).toBe('04;01');
    expect(attributes.at(-1)?.blocked).toBe(true);
    const results = async () => (await server.rastro.ctx.storage.db.selectFrom('events').select('type').where('deviceId', '=', device.id).where('type', '=', 'commandResult').execute()).length;
    expect(await eventually(results, 1)).toBe(1);
    await tracker.close();

    const legacyDevice = await createDevice(server, deviceId().slice(1));
    const queued = await admin.post('/api/commands/send', { deviceId: legacyDevice.id, type: 'engineResume', attributes: {} });
    expect(queued.status).toBe(202);
    const st300 = await ByteClient.connect(port);
    st300.send(ascii(legacy(legacyDevice.uniqueId, Date.now() - 2_000, '100010')));
    expect(await nextText(st300, '\r')).toBe(`ST300CMD;${legacyDevice.uniqueId};02;Disable1\r`);
    st300.send(ascii(`ST300CMD;Res;${legacyDevice.uniqueId};311;Disable1\r`));
    const answered = async () => (await positionsOf(server, legacyDevice.id)).some((p) => JSON.parse(p.attributes).result === '311;Disable1');
    expect(await eventually(answered, true)).toBe(true);
    const left = async () => (await server.rastro.ctx.storage.db.selectFrom('commandsQueue').select('id').where('deviceId', '=', legacyDevice.id).execute()).length;
    expect(await eventually(left, 0)).toBe(0);
    await st300.close();
  });
});
