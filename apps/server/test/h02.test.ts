// H02 over real TCP and UDP on its own port (RASTRO_H02_PORT), through the listener and the
// pipeline: V1 reports answered `*HQ,<id>,V4,V1,<server time>#` once stored, binary `$`
// reports and heartbeats, positions in the database and the API with the device clock's date,
// an unknown tracker turned away and logged with its id, garbage closing only its own
// connection, and engine stop/resume written to a connected tracker (200) or queued and written
// on its next connection (202), its V4 answer stored as the command result. Both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_VECTORS, binaryFrame } from '../src/ingest/h02/h02-vectors.ts';
import { ByteClient, ByteUdpClient } from './byte-client.ts';
import { backends, freePort, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { createDevice, deviceRow, positionsOf } from './ingest-helpers.ts';
import { eventually } from './device-listener-helpers.ts';
import { apiPositions, ascii, expectTurnedAway, nextText } from './text-tracker.ts';

let seq = 0;
/** A 15-digit IMEI of its own for each test (and process, so parallel suites never share one). */
const imei = () => `86${String(process.pid % 100_000).padStart(5, '0')}${String(++seq).padStart(8, '0')}`;

const two = (n: number) => String(n).padStart(2, '0');

/** A V1 (or other type) report dated `at` by a tracker whose clock is on UTC, near São Paulo. */
function report(id: string, at: number, { type = 'V1', status = 'FFFFFBFF', knots = '0.00', latitude = '2330.1000' } = {}): string {
  const d = new Date(at);
  const time = `${two(d.getUTCHours())}${two(d.getUTCMinutes())}${two(d.getUTCSeconds())}`;
  const date = `${two(d.getUTCDate())}${two(d.getUTCMonth() + 1)}${two(d.getUTCFullYear() % 100)}`;
  return `*HQ,${id},${type},${time},A,${latitude},S,04637.8000,W,${knots},090,${date},${status}#`;
}

/** The server time of a V4,V1 answer. */
function answerTime(answer: string): number {
  const m = /,(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})#$/.exec(answer);
  if (!m) throw new Error(`not a timed answer: ${answer}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
}

describe.each(backends)('H02 over TCP and UDP (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let port: number;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_H02_PORT: String(await freePort()) });
    admin = await server.admin();
    port = server.rastro.protocolPorts.h02!.tcp;
  });
  afterAll(async () => {
    await server?.close();
  });

  async function waitForPositions(deviceId: number, count: number) {
    await eventually(async () => (await positionsOf(server, deviceId)).length, count);
    return positionsOf(server, deviceId);
  }

  it('serves the H02 port over TCP and UDP; reports are answered as Traccar does once stored', async () => {
    expect(server.rastro.protocolPorts.h02).toEqual({ tcp: port, udp: port });
    const device = await createDevice(server, imei());
    const tracker = await ByteClient.connect(port);
    const at = Math.floor((Date.now() - 60_000) / 1000) * 1000;
    tracker.send(ascii(report(device.uniqueId, at, { knots: '10.00', status: 'FFFFFFFF' })));
    const answer = await nextText(tracker, '#');
    expect(answer).toMatch(new RegExp(`^\\*HQ,${device.uniqueId},V4,V1,\\d{14}#$`));
    expect(Math.abs(answerTime(answer) - Date.now())).toBeLessThan(5_000);
    // Acknowledged only once stored.
    expect(await positionsOf(server, device.id)).toHaveLength(1);
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'online')).toBe('online');

    // A heartbeat is echoed; the binary form of another tracker is stored too.
    tracker.send(ascii(`*HQ,${device.uniqueId},HTBT,85#`));
    expect(await nextText(tracker, '#')).toBe(`*HQ,${device.uniqueId},HTBT#`);
    expect(await eventually(async () => (await positionsOf(server, device.id)).length, 2)).toBe(2);

    const positions = await apiPositions(admin, device.id);
    const located = positions.find((p) => p.attributes.status !== undefined)!;
    expect(located).toMatchObject({ protocol: 'h02', valid: true, speed: 10, course: 90, fixTime: new Date(at).toISOString().replace('Z', '+00:00') });
    expect(located.latitude).toBeCloseTo(-23.501667, 5);
    expect(located.longitude).toBeCloseTo(-46.63, 5);
    expect(located.attributes).toMatchObject({ ignition: true, blocked: false, status: 0xffffffff });
    const heartbeat = positions.find((p) => p.attributes.batteryLevel !== undefined)!;
    expect(heartbeat.attributes.batteryLevel).toBe(85);
    expect(heartbeat.latitude).toBeCloseTo(-23.501667, 5);
    await tracker.close();
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'offline')).toBe('offline');

    const binaryDevice = await createDevice(server, '4106000826');
    const binary = await ByteClient.connect(port);
    binary.send(binaryFrame(REFERENCE_VECTORS[10]));
    const [stored] = await waitForPositions(binaryDevice.id, 1);
    expect(Number(stored!.fixTime)).toBe(Date.UTC(2015, 7, 31, 21, 53, 21));
    expect(await binary.waitClosed(200)).toBe(false);
    await binary.close();

    const udp = await ByteUdpClient.open(server.rastro.protocolPorts.h02!.udp);
    const udpDevice = await createDevice(server, imei());
    udp.send(ascii(report(udpDevice.uniqueId, at)));
    const [datagram] = await udp.waitFor(1);
    expect(Buffer.from(datagram!, 'hex').toString('latin1')).toMatch(new RegExp(`^\\*HQ,${udpDevice.uniqueId},V4,V1,\\d{14}#$`));
    expect(await positionsOf(server, udpDevice.id)).toHaveLength(1);
    // A command to the tracker behind that address goes out as a datagram.
    const sent = await admin.post('/api/commands/send', { deviceId: udpDevice.id, type: 'engineStop', attributes: {} });
    expect(sent.status).toBe(200);
    const [, command] = await udp.waitFor(2);
    expect(Buffer.from(command!, 'hex').toString('latin1')).toMatch(new RegExp(`^\\*HQ,${udpDevice.uniqueId},S20,\\d{6},1,1#$`));
    await udp.close();
  });

  it('turns an unknown tracker away without an answer, logged with its id', async () => {
    const stranger = imei();
    await expectTurnedAway(server, port, 'h02', stranger, ascii(report(stranger, Date.now())));
  });

  it('closes a connection that sends garbage or an endless frame, and keeps serving the other trackers', async () => {
    const device = await createDevice(server, imei());
    const survivor = await ByteClient.connect(port);
    for (const [i, bytes] of [Buffer.from('GET / HTTP/1.1\r\n\r\n'), Buffer.from(`*HQ,${'9'.repeat(2000)}`), Buffer.alloc(64, 0x24)].entries()) {
      const bad = await ByteClient.connect(port);
      bad.send(bytes);
      expect(await bad.waitClosed(), `attack ${i}`).toBe(true);
      survivor.send(ascii(report(device.uniqueId, Date.now() - 30_000 + i)));
      expect(await nextText(survivor, '#')).toMatch(/^\*HQ,\d+,V4,V1,\d{14}#$/);
    }
    expect(await positionsOf(server, device.id)).toHaveLength(3);
    await survivor.close();
  });

  it('writes an engine stop to a connected tracker (200) and stores its V4 answer; queues a resume for an offline one (202)', async () => {
    const device = await createDevice(server, imei());
    const tracker = await ByteClient.connect(port);
    tracker.send(ascii(report(device.uniqueId, Date.now() - 5_000)));
    await nextText(tracker, '#');

    const types = await admin.get<Array<{ type: string }>>(`/api/commands/types?deviceId=${device.id}`);
    expect(types.json.map((t) => t.type).sort()).toEqual(['custom', 'engineResume', 'engineStop']);

    const sent = await admin.post('/api/commands/send', { deviceId: device.id, type: 'engineStop', attributes: {} });
    expect(sent.status).toBe(200);
    const stop = await nextText(tracker, '#');
    const m = new RegExp(`^\\*HQ,${device.uniqueId},S20,(\\d{6}),1,1#$`).exec(stop);
    expect(m).not.toBeNull();
    // The tracker confirms with a V4 report: the cut output active (bit 27 at 0).
    tracker.send(ascii(report(device.uniqueId, Date.now() - 1_000, { type: `V4,S20,DONE,${m![1]}`, status: 'F7FFFBFF' })));
    const answered = async () => (await positionsOf(server, device.id)).some((p) => JSON.parse(p.attributes).result === `S20,DONE,${m![1]}`);
    expect(await eventually(answered, true)).toBe(true);
    const blocked = (await positionsOf(server, device.id)).map((p) => JSON.parse(p.attributes) as Record<string, unknown>).find((a) => a.result);
    expect(blocked?.blocked).toBe(true);
    const results = async () => (await server.rastro.ctx.storage.db.selectFrom('events').select('type').where('deviceId', '=', device.id).where('type', '=', 'commandResult').execute()).length;
    expect(await eventually(results, 1)).toBe(1);

    await tracker.close();
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'offline')).toBe('offline');
    const queued = await admin.post('/api/commands/send', { deviceId: device.id, type: 'engineResume', attributes: {} });
    expect(queued.status).toBe(202);
    const back = await ByteClient.connect(port);
    back.send(ascii(report(device.uniqueId, Date.now())));
    const written = [await nextText(back, '#'), await nextText(back, '#')];
    expect(written.find((t) => t.includes(',S20,'))).toMatch(new RegExp(`^\\*HQ,${device.uniqueId},S20,\\d{6},1,0#$`));
    expect(written.find((t) => t.includes(',V4,V1,'))).toBeDefined();
    const left = async () => (await server.rastro.ctx.storage.db.selectFrom('commandsQueue').select('id').where('deviceId', '=', device.id).execute()).length;
    expect(await eventually(left, 0)).toBe(0);
    await back.close();
  });
});
