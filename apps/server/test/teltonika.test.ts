// Teltonika over real TCP and UDP on the server's own listener (RASTRO_TELTONIKA_PORT): the
// IMEI handshake, AVL packets acknowledged with their record count once stored, an unknown
// IMEI refused with 00 and closed, garbage closing only its own connection, commands written
// as codec 12 to a connected device (200) or queued and delivered on the next connection
// (202), the device's codec 12 answer stored as a command result, and UDP datagrams answered
// with their packet ids. Both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Position } from '@rastro/domain/entities';
import { CODEC_12, CODEC_8, CODEC_8E } from '../src/ingest/teltonika/constants.ts';
import { avlData, avlRecord, hexBytes, imeiHandshake, REFERENCE_VECTORS, tcpPacket, udpDatagram, type RecordSpec } from '../src/ingest/teltonika/teltonika-packets.ts';
import { ByteClient, ByteUdpClient } from './byte-client.ts';
import { backends, freePort, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { createDevice, deviceRow, positionsOf, sleep } from './ingest-helpers.ts';
import { eventually } from './device-listener-helpers.ts';

let seq = 0;
/** A 15-digit IMEI of its own for each test (and process, so parallel suites never share one). */
const imei = () => `35${String(process.pid % 100_000).padStart(5, '0')}${String(++seq).padStart(8, '0')}`;

/** Codec 12 packets the server sends for these commands (ingest/teltonika/commands.test.ts checks the bytes). */
const SETDIGOUT_1 = '00000000000000130c01050000000b7365746469676f7574203101000087a2';
const GETVER = '000000000000000e0c010500000006676574766572010000a4c2';

/** A packet of positions near São Paulo a minute apart, the first `minutesAgo`, with the given IO. */
function positions(codec: number, count: number, io: RecordSpec['io'] = [[239, 1, 1], [66, 2, 12_600]], minutesAgo = count): Buffer {
  const now = Date.now();
  const records = Array.from({ length: count }, (_, i) => avlRecord(codec, {
    time: now - (minutesAgo - i) * 60_000, latitude: -23.55 - i / 1000, longitude: -46.63, altitude: 760, course: 90, satellites: 10, speedKmh: 0, io,
  }));
  return tcpPacket(avlData(codec, records));
}

/** The device's answer to a command: a codec 12 response (type 0x06). */
function response(text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(body.length);
  return tcpPacket(avlData(CODEC_12, [Buffer.concat([Buffer.from([0x06]), length, body])]));
}

describe.each(backends)('Teltonika over TCP and UDP (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let port: number;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_TELTONIKA_PORT: String(await freePort()) });
    admin = await server.admin();
    port = server.rastro.protocolPorts.teltonika!.tcp;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A connected device past its handshake. */
  async function connect(uniqueId: string): Promise<ByteClient> {
    const client = await ByteClient.connect(port);
    client.send(imeiHandshake(uniqueId));
    expect(await client.readHex(1)).toBe('01');
    return client;
  }

  async function history(deviceId: number): Promise<Position[]> {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const res = await admin.get<Position[]>(`/api/positions?deviceId=${deviceId}&from=${from}&to=${to}`);
    expect(res.status).toBe(200);
    return res.json;
  }

  it('listens on TCP and UDP on the same port', () => {
    expect(server.rastro.protocolPorts.teltonika).toEqual({ tcp: port, udp: port });
  });

  it('accepts the handshake, acknowledges each packet with its record count once stored, and the positions are there', async () => {
    const device = await createDevice(server, imei());
    const client = await connect(device.uniqueId);
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'online')).toBe('online');

    client.send(hexBytes(REFERENCE_VECTORS[2]));
    expect(await client.readHex(4)).toBe('00000001');
    client.send(positions(CODEC_8, 3, undefined, 10));
    expect(await client.readHex(4)).toBe('00000003');
    client.send('ff'); // keep-alive: no answer
    client.send(positions(CODEC_8E, 2, [[239, 1, 0], [78, 8, 0x6b00001a2b3c4d01n]]));
    expect(await client.readHex(4)).toBe('00000002');

    // The reference's 2013 record is stored too (outside the history window asked below).
    const rows = await positionsOf(server, device.id);
    expect(rows).toHaveLength(6);
    const first = rows.find((p) => p.fixTime === Date.UTC(2013, 7, 31, 15, 0, 41, 710))!;
    expect(first).toMatchObject({ protocol: 'teltonika', valid: 1, altitude: -4 });
    expect(first.latitude).toBeCloseTo(37.67434, 5);
    expect(first.longitude).toBeCloseTo(21.43278, 5);
    expect(JSON.parse(first.attributes)).toMatchObject({ sat: 9, power: 12.835, motion: false });
    const recent = await history(device.id);
    expect(recent).toHaveLength(5);
    expect(recent.every((p) => p.protocol === 'teltonika' && p.valid)).toBe(true);
    expect(recent.slice(0, 3).map((p) => p.attributes.ignition)).toEqual([true, true, true]);
    expect(recent.slice(3).map((p) => p.attributes.driverUniqueId)).toEqual(['014D3C2B1A00006B', '014D3C2B1A00006B']);
    expect(recent[0]!.latitude).toBeCloseTo(-23.55, 5);

    // The device now speaks Teltonika: its command types are the encoder's.
    const types = await admin.get<{ type: string }[]>(`/api/commands/types?deviceId=${device.id}`);
    expect(types.json.map((t) => t.type).sort()).toEqual(['custom', 'engineResume', 'engineStop', 'getModemStatus', 'getVersion', 'positionSingle', 'rebootDevice']);
    await client.close();
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'offline')).toBe('offline');
  });

  it('refuses an unknown IMEI with 00 and closes the connection', async () => {
    const client = await ByteClient.connect(port);
    client.send(imeiHandshake(imei()));
    expect(await client.readHex(1)).toBe('00');
    expect(await client.waitClosed()).toBe(true);
  });

  it('closes a connection on garbage or a bad CRC, and keeps serving the other devices', async () => {
    const device = await createDevice(server, imei());
    const survivor = await connect(device.uniqueId);
    const badCrc = Buffer.from(positions(CODEC_8, 1));
    badCrc[badCrc.length - 1]! ^= 0xff;
    const attacks = [Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n'), Buffer.from('00000000ffffffff', 'hex'), badCrc, hexBytes(REFERENCE_VECTORS[10])];
    for (const [i, bytes] of attacks.entries()) {
      const other = await createDevice(server, imei());
      const bad = await connect(other.uniqueId);
      bad.send(bytes);
      expect(await bad.waitClosed(), `attack ${i}`).toBe(true);
      expect(await positionsOf(server, other.id)).toHaveLength(0);
      survivor.send(positions(CODEC_8, 1));
      expect(await survivor.readHex(4)).toBe('00000001');
    }
    expect(await positionsOf(server, device.id)).toHaveLength(attacks.length);
    await survivor.close();
  });

  it('writes engineStop to the connected device as codec 12 (200), and stores its answer as the command result', async () => {
    const device = await createDevice(server, imei());
    const client = await connect(device.uniqueId);
    client.send(positions(CODEC_8, 1));
    expect(await client.readHex(4)).toBe('00000001');

    const sent = await admin.post('/api/commands/send', { deviceId: device.id, type: 'engineStop', attributes: {} });
    expect(sent.status).toBe(200);
    expect(await client.readHex(SETDIGOUT_1.length / 2)).toBe(SETDIGOUT_1);

    client.send(response('DOUT1:1 DOUT2:0 Timeout:INFINITY'));
    const result = async () => {
      const rows = await server.rastro.ctx.storage.db.selectFrom('events').select(['type', 'attributes']).where('deviceId', '=', device.id)
        .where('type', '=', 'commandResult').execute();
      return rows.map((r) => (JSON.parse(r.attributes) as { result: string }).result).join();
    };
    expect(await eventually(result, 'DOUT1:1 DOUT2:0 Timeout:INFINITY')).toBe('DOUT1:1 DOUT2:0 Timeout:INFINITY');
    // The answer needs no ack: nothing more was written.
    await sleep(150);
    expect(client.pending.toString('hex')).toBe('');
    const stored = await positionsOf(server, device.id);
    expect(JSON.parse(stored.at(-1)!.attributes)).toMatchObject({ result: 'DOUT1:1 DOUT2:0 Timeout:INFINITY' });
    await client.close();
  });

  it('queues a command for an offline device (202) and writes it after the next handshake', async () => {
    const device = await createDevice(server, imei());
    const queued = await admin.post('/api/commands/send', { deviceId: device.id, type: 'getVersion', attributes: {} });
    expect(queued.status).toBe(202);
    const client = await ByteClient.connect(port);
    client.send(imeiHandshake(device.uniqueId));
    expect(await client.readHex(1 + GETVER.length / 2)).toBe(`01${GETVER}`);
    const left = async () => (await server.rastro.ctx.storage.db.selectFrom('commandsQueue').select('id').where('deviceId', '=', device.id).execute()).length;
    expect(await eventually(left, 0)).toBe(0);
    await client.close();
  });

  it('serves UDP: each datagram answered with its packet ids and record count, commands to the last address, strangers ignored', async () => {
    const device = await createDevice(server, imei());
    const udp = await ByteUdpClient.open(server.rastro.protocolPorts.teltonika!.udp);
    const data = (count: number) => avlData(CODEC_8E, Array.from({ length: count }, (_, i) => avlRecord(CODEC_8E, {
      time: Date.now() - 60_000 + i, latitude: -22.9 - i / 1000, longitude: -43.2, satellites: 7, io: [[240, 1, 1]],
    })));
    udp.send(udpDatagram(0xcafe, 0x05, device.uniqueId, data(2)));
    expect(await udp.waitFor(1)).toEqual(['0005cafe010502']);
    udp.send(udpDatagram(0xcaff, 0x06, device.uniqueId, data(1)));
    expect(await udp.waitFor(2)).toEqual(['0005cafe010502', '0005caff010601']);
    const stored = await history(device.id);
    expect(stored).toHaveLength(3);
    expect(stored.every((p) => p.attributes.motion === true && p.protocol === 'teltonika')).toBe(true);

    const sent = await admin.post('/api/commands/send', { deviceId: device.id, type: 'engineStop', attributes: {} });
    expect(sent.status).toBe(200);
    expect((await udp.waitFor(3))[2]).toBe(SETDIGOUT_1);

    const stranger = await ByteUdpClient.open(server.rastro.protocolPorts.teltonika!.udp);
    stranger.send(udpDatagram(1, 1, imei(), data(1)));
    expect(await stranger.waitFor(1, 500)).toEqual([]);
    await Promise.all([udp.close(), stranger.close()]);
  });
});
