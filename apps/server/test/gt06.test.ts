// GT06 over real TCP on its own port (RASTRO_GT06_PORT), through the listener and the pipeline:
// the login and every packet answered with Traccar's exact bytes once stored, positions,
// alarms and status in the database and the API, the login's time zone applied, unknown units
// and garbage turned away while the others keep being served, and commands written to a
// connected unit (200) or queued and written after its next login (202), its reply stored.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Position } from '@rastro/domain/entities';
import { knotsFromKmh } from '@rastro/domain/units';
import { buildFrame, gt06FrameLength } from '../src/ingest/gt06/framing.ts';
import { alarmPacket, location22, login, status13 } from '../src/ingest/gt06/gt06-vectors.ts';
import { backends, freePort, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { createDevice, deviceRow, positionsOf, sleep } from './ingest-helpers.ts';
import { eventually } from './device-listener-helpers.ts';

/** A GT06 unit on a TCP connection: writes frames, splits what the server answers into frames. */
class Gt06Unit {
  private pending = Buffer.alloc(0);
  private readonly frames: Buffer[] = [];
  private read = 0;
  isClosed = false;
  private serial = 0;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.pending = Buffer.concat([this.pending, chunk]);
      for (;;) {
        const length = this.pending.length > 0 ? gt06FrameLength(this.pending, 0) : 0;
        if (length === 0 || length > this.pending.length) break;
        this.frames.push(this.pending.subarray(0, length));
        this.pending = this.pending.subarray(length);
      }
    });
    socket.on('error', () => undefined);
    socket.once('close', () => (this.isClosed = true));
  }

  static connect(port: number): Promise<Gt06Unit> {
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => resolve(new Gt06Unit(socket)));
      socket.once('error', reject);
    });
  }

  nextSerial(): number {
    return ++this.serial;
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  get received(): string[] {
    return this.frames.map((f) => f.toString('hex'));
  }

  /** The next frame the server wrote, as hex. */
  async next(timeoutMs = 5_000): Promise<string> {
    await eventually(() => this.read < this.frames.length || this.isClosed, true, timeoutMs);
    const frame = this.frames[this.read];
    if (!frame) throw new Error(`no frame within ${timeoutMs} ms${this.isClosed ? ' (connection closed)' : ''}: got ${JSON.stringify(this.received)}`);
    this.read++;
    return frame.toString('hex');
  }

  async waitClosed(timeoutMs = 5_000): Promise<boolean> {
    return (await eventually(() => this.isClosed, true, timeoutMs)) === true;
  }

  close(): void {
    this.socket.end();
  }
}

const ack = (type: number, serial: number) => buildFrame(type, Buffer.alloc(0), serial).toString('hex');

let seq = 0;
/** A 15-digit IMEI unique to this run. */
const imei = () => `86${String(process.pid % 100_000).padStart(5, '0')}${String(++seq).padStart(8, '0')}`;

/** Date parts of `ms` in the zone `offsetHours` east of UTC (how a unit set to local time writes them). */
function parts(ms: number, offsetHours = 0): [number, number, number, number, number, number] {
  const d = new Date(ms + offsetHours * 3_600_000);
  return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()];
}

describe.each(backends)('GT06 over TCP (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let port: number;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_GT06_PORT: String(await freePort()) });
    admin = await server.admin();
    port = server.rastro.protocolPorts.gt06!.tcp;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A connected unit that logged in (and got the login ack). */
  async function loggedIn(uniqueId: string, zoneBits?: number): Promise<Gt06Unit> {
    const unit = await Gt06Unit.connect(port);
    const serial = unit.nextSerial();
    unit.send(login(uniqueId, serial, zoneBits));
    expect(await unit.next()).toBe(ack(0x01, serial));
    return unit;
  }

  const history = async (deviceId: number) => {
    const from = new Date(Date.now() - 86_400_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const res = await admin.get<Position[]>(`/api/positions?deviceId=${deviceId}&from=${from}&to=${to}`);
    expect(res.status).toBe(200);
    return res.json;
  };

  it('serves the GT06 port; a login puts the unit online, its packets are answered as Traccar does and stored', async () => {
    const device = await createDevice(server, imei());
    const unit = await loggedIn(device.uniqueId);
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'online')).toBe('online');

    const at = Date.now() - 60_000;
    const s1 = unit.nextSerial();
    unit.send(location22({ date: parts(at), latitude: -23.55052, longitude: -46.633308, kmh: 54, course: 180, satellites: 10 }, s1, 1));
    expect(await unit.next()).toBe(ack(0x22, s1));
    const s2 = unit.nextSerial();
    unit.send(alarmPacket(0x16, { date: parts(at + 30_000), latitude: -23.551, longitude: -46.634 }, 0x46, 0x01, s2));
    expect(await unit.next()).toBe(ack(0x16, s2));
    const s3 = unit.nextSerial();
    unit.send(status13(0xc6, s3));
    expect(await unit.next()).toBe(ack(0x13, s3));

    const stored = await positionsOf(server, device.id);
    expect(stored).toHaveLength(3);
    const positions = await history(device.id);
    const first = positions.find((p) => p.attributes.sat === 10)!;
    expect(first).toMatchObject({ protocol: 'gt06', valid: true, course: 180, fixTime: new Date(Math.floor(at / 1000) * 1000).toISOString().replace('Z', '+00:00') });
    expect(first.latitude).toBeCloseTo(-23.55052, 5);
    expect(first.longitude).toBeCloseTo(-46.633308, 5);
    expect(first.speed).toBeCloseTo(knotsFromKmh(54), 5);
    expect(first.attributes.ignition).toBe(true);
    expect(first.network?.cellTowers?.[0]).toMatchObject({ mobileCountryCode: 724, mobileNetworkCode: 5 });
    const alarm = positions.find((p) => p.attributes.alarm !== undefined)!;
    expect(alarm.attributes).toMatchObject({ alarm: 'sos', ignition: true, charge: true, batteryLevel: 83 });
    const events = await server.rastro.ctx.storage.db.selectFrom('events').select(['type', 'attributes']).where('deviceId', '=', device.id).execute();
    expect(events.filter((e) => e.type === 'alarm').map((e) => JSON.parse(e.attributes) as unknown)).toContainEqual({ alarm: 'sos' });
    // The status packet carries no position: stored at the last known one, with the unit's state.
    const status = stored.find((p) => JSON.parse(p.attributes).blocked === true)!;
    expect(Number(status.latitude)).toBeCloseTo(-23.551, 5);
    unit.close();
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'offline')).toBe('offline');
  });

  it('dates a unit set to local time by the zone its login announces (GMT-3)', async () => {
    const device = await createDevice(server, imei());
    const unit = await loggedIn(device.uniqueId, (300 << 4) | 0x08 | 0x02);
    const at = Math.floor((Date.now() - 120_000) / 1000) * 1000;
    const serial = unit.nextSerial();
    unit.send(location22({ date: parts(at, -3), latitude: -8.05, longitude: -34.9 }, serial));
    expect(await unit.next()).toBe(ack(0x22, serial));
    const [position] = await positionsOf(server, device.id);
    expect(Number(position!.fixTime)).toBe(at);
    unit.close();
  });

  it('turns an unknown unit away without an answer, logged with its IMEI; frames before a login are dropped', async () => {
    const warn = vi.spyOn(server.rastro.ctx.log, 'warn');
    try {
      const stranger = imei();
      const unit = await Gt06Unit.connect(port);
      unit.send(location22({ date: parts(Date.now()), latitude: 1, longitude: 2 }, 1));
      await sleep(150);
      expect(unit.received).toEqual([]);
      unit.send(login(stranger, 2));
      expect(await unit.waitClosed()).toBe(true);
      expect(unit.received).toEqual([]);
      expect(warn.mock.calls.some((c) => String(c[1]).startsWith(`unknown device ${stranger} on gt06 from 127.0.0.1:`))).toBe(true);
    } finally {
      warn.mockRestore();
    }
  });

  it('closes a connection that sends garbage or a frame too long, and keeps serving the other units', async () => {
    const device = await createDevice(server, imei());
    const survivor = await loggedIn(device.uniqueId);
    const attacks = [
      Buffer.from('GET / HTTP/1.1\r\n\r\n'),
      Buffer.from([0x79, 0x79, 0xff, 0xff, 0x94]),
      Buffer.from([0x78, 0x78, 0x02, 0x12, 0x00, 0x01, 0x0d, 0x0a]),
    ];
    for (const [i, bytes] of attacks.entries()) {
      const bad = await Gt06Unit.connect(port);
      bad.send(bytes);
      expect(await bad.waitClosed(), `attack ${i}`).toBe(true);
      const serial = survivor.nextSerial();
      survivor.send(status13(0x46, serial));
      expect(await survivor.next()).toBe(ack(0x13, serial));
    }
    survivor.close();
  });

  it('writes an engine stop to a connected unit (200), stores its reply; queues one for an offline unit, written after its login (202)', async () => {
    const device = await createDevice(server, imei());
    const unit = await loggedIn(device.uniqueId);
    const s1 = unit.nextSerial();
    unit.send(location22({ date: parts(Date.now() - 5_000), latitude: -23.5, longitude: -46.6, kmh: 0 }, s1));
    expect(await unit.next()).toBe(ack(0x22, s1));

    const types = await admin.get<Array<{ type: string }>>(`/api/commands/types?deviceId=${device.id}`);
    expect(types.json.map((t) => t.type).sort()).toEqual(['custom', 'engineResume', 'engineStop', 'getDeviceStatus', 'getVersion', 'positionSingle', 'rebootDevice']);

    const sent = await admin.post('/api/commands/send', { deviceId: device.id, type: 'engineStop', attributes: {} });
    expect(sent.status).toBe(200);
    expect(await unit.next()).toBe('787812800c0000000052656c61792c312300009dee0d0a'); // Relay,1#
    // The unit answers with a 0x15 text reply: stored as the result, answered.
    const reply = Buffer.from('Relay,1 Success!');
    const s2 = unit.nextSerial();
    unit.send(buildFrame(0x15, Buffer.concat([Buffer.from([4 + reply.length, 0, 0, 0, 0]), reply, Buffer.from([0, 2])]), s2));
    expect(await unit.next()).toBe(ack(0x15, s2));
    const withResult = async () => (await positionsOf(server, device.id)).some((p) => JSON.parse(p.attributes).result === 'Relay,1 Success!');
    expect(await eventually(withResult, true)).toBe(true);
    const results = async () => (await server.rastro.ctx.storage.db.selectFrom('events').select('type').where('deviceId', '=', device.id).where('type', '=', 'commandResult').execute()).length;
    expect(await eventually(results, 1)).toBe(1);

    unit.close();
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'offline')).toBe('offline');
    const queued = await admin.post('/api/commands/send', { deviceId: device.id, type: 'engineResume', attributes: {} });
    expect(queued.status).toBe(202);
    const back = await loggedIn(device.uniqueId);
    expect(await back.next()).toBe('787812800c0000000052656c61792c3023000081550d0a'); // Relay,0#
    const left = async () => (await server.rastro.ctx.storage.db.selectFrom('commandsQueue').select('id').where('deviceId', '=', device.id).execute()).length;
    expect(await eventually(left, 0)).toBe(0);
    back.close();
  });

  it('uses DYD/HFYD with the device password for units set to gt06.alternative', async () => {
    const device = await createDevice(server, imei(), { attributes: { 'gt06.alternative': true, devicePassword: '000000' } });
    const unit = await loggedIn(device.uniqueId);
    const sent = await admin.post('/api/commands/send', { deviceId: device.id, type: 'engineStop', attributes: {} });
    expect(sent.status).toBe(200);
    const frame = Buffer.from(await unit.next(), 'hex');
    expect(frame.subarray(9, -6).toString('latin1')).toBe('DYD,000000#');
    unit.close();
  });
});
