// The TCP/UDP listener every tracker protocol runs on (ingest/tcp/), over real sockets with a
// tiny line protocol (device-listener-helpers.ts): identification through the device cache,
// acks only after commit and in frame order, unknown devices turned away, garbage and oversized
// frames closing only their connection, status online/offline with their events, commands
// written live (200) or delivered from the queue (202), raw frames for the device log, UDP.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backends, freePort, startTestServer, type TestClient, type TestServer } from './harness.ts';
import { createDevice, deviceRow, positionsOf, recordLive, sleep } from './ingest-helpers.ts';
import { eventually, holdCommits, LineClient, lineProtocol, UdpLineClient } from './device-listener-helpers.ts';
import { startProtocolListener, startProtocolListeners, type ProtocolListener } from '../src/ingest/tcp/protocol-listeners.ts';
import { HIGH_WATER, listenerHub } from '../src/ingest/tcp/listener-hub.ts';
import { PROTOCOLS } from '../src/ingest/protocols.ts';
import type { RawFrame } from '../src/realtime/live.ts';
import { commandDelivery } from '../src/commands/command-delivery.ts';

let seq = 0;
const uid = (name: string) => `${name}-${process.pid}-${++seq}`;

describe.each(backends)('device listener (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  let listener: ProtocolListener;
  const port = () => listener.ports.tcp;
  const db = () => server.rastro.ctx.storage.db;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_EVENT_STATUS_ENABLE: '1' });
    admin = await server.admin();
    listener = await startProtocolListener(server.rastro.ctx, lineProtocol(), 0, '127.0.0.1');
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A connected device that logged in. */
  async function login(uniqueId: string): Promise<LineClient> {
    const client = await LineClient.connect(port());
    client.send(`ID,${uniqueId}\n`);
    expect(await client.next()).toBe('OK');
    return client;
  }

  it('acknowledges a position only once it is committed to the database', async () => {
    const device = await createDevice(server, uid('ack'));
    const client = await login(device.uniqueId);
    const hold = holdCommits(server);
    client.send('P,1,-23.5,-46.6\n');
    await eventually(() => hold.held() > 0, true);
    await sleep(200);
    // Held commit: nothing stored, nothing acknowledged.
    expect(client.received).toEqual(['OK']);
    expect(await positionsOf(server, device.id)).toHaveLength(0);
    hold.release();
    expect(await client.next()).toBe('OK,1');
    const stored = await positionsOf(server, device.id);
    expect(stored.map((p) => [p.protocol, p.latitude, p.longitude])).toEqual([['line', -23.5, -46.6]]);
    await client.close();
  });

  it('answers the frames of one connection in order, heartbeats and multi-position frames included', async () => {
    const device = await createDevice(server, uid('order'));
    const client = await login(device.uniqueId);
    const frames = ['P,1,-23.5,-46.6', 'H', 'M,2,3', 'P,3,-23.6,-46.6', 'N', 'H', 'P,4,-23.7,-46.6'];
    client.send(frames.map((f) => `${f}\n`).join(''));
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await client.next());
    expect(answers).toEqual(['OK,1', 'HB', 'OK,2', 'OK,3', 'HB', 'OK,4']);
    expect(await positionsOf(server, device.id)).toHaveLength(6);
    await client.close();
  });

  it('drops frames before identification and turns an unknown device away, logged once per id', async () => {
    const warn = vi.spyOn(server.rastro.ctx.log, 'warn');
    try {
      const stranger = uid('stranger');
      const before = await LineClient.connect(port());
      // Not identified yet: the position is dropped, unanswered.
      before.send('P,1,-23.5,-46.6\nH\n');
      await sleep(150);
      expect(before.received).toEqual([]);
      before.send(`ID,${stranger}\n`);
      expect(await before.next()).toBe('NO');
      expect(await before.waitClosed()).toBe(true);

      const again = await LineClient.connect(port());
      again.send(`ID,${stranger}\n`);
      expect(await again.next()).toBe('NO');
      expect(await again.waitClosed()).toBe(true);
      const said = warn.mock.calls.filter((c) => String(c[1]).startsWith(`unknown device ${stranger}`));
      expect(said).toHaveLength(1);
      expect(said[0]![1]).toMatch(new RegExp(`^unknown device ${stranger} on line from 127\\.0\\.0\\.1:\\d+$`));
      expect(said[0]![0]).toMatchObject({ uniqueId: stranger, protocol: 'line' });
    } finally {
      warn.mockRestore();
    }
    // A disabled device is refused the same way.
    const disabled = await createDevice(server, uid('disabled'), { disabled: true });
    const client = await LineClient.connect(port());
    client.send(`ID,${disabled.uniqueId}\n`);
    expect(await client.next()).toBe('NO');
    expect(await client.waitClosed()).toBe(true);
  });

  it('closes a connection on garbage, an oversized frame or a failing decoder, and keeps serving the others', async () => {
    const device = await createDevice(server, uid('survivor'));
    const survivor = await login(device.uniqueId);
    const garbageBefore = listenerHub(server.rastro.ctx).stats.garbage;
    const log = server.rastro.ctx.log;
    const info = vi.spyOn(log, 'info');
    const debug = vi.spyOn(log, 'debug');
    const attacks = [
      Buffer.from([0x00, 0x01, 0x02, 0xff]),
      Buffer.from('A'.repeat(100)), // no end of line within maxFrameBytes (64)
      Buffer.from('WHAT,is,this\n'), // DecodeError
      Buffer.from('THROW\n'), // a decoder bug
    ];
    for (const [i, bytes] of attacks.entries()) {
      const bad = await LineClient.connect(port());
      bad.send(bytes);
      expect(await bad.waitClosed(), `attack ${i}`).toBe(true);
      survivor.send(`P,${i + 1},-23.5,-46.6\n`);
      expect(await survivor.next()).toBe(`OK,${i + 1}`);
    }
    // An oversized line split over several writes is caught too.
    const slow = await LineClient.connect(port());
    for (let i = 0; i < 5; i++) slow.send('B'.repeat(20));
    expect(await slow.waitClosed()).toBe(true);
    // Garbage after identification closes that device's connection as well.
    const other = await login((await createDevice(server, uid('garbage-known'))).uniqueId);
    other.send('\x07\n');
    expect(await other.waitClosed()).toBe(true);
    expect(listenerHub(server.rastro.ctx).stats.garbage - garbageBefore).toBe(6);
    // Unidentified garbage (a tracker on the wrong port, or a scanner): said at info once per address.
    const said = (spy: typeof info) => spy.mock.calls.filter((c) => / are no line frame /.test(String(c[1]))).length;
    expect(said(info)).toBe(1);
    expect(said(info) + said(debug)).toBe(4);
    info.mockRestore();
    debug.mockRestore();
    survivor.send('H\n');
    expect(await survivor.next()).toBe('HB');
    await survivor.close();
  });

  it('survives random bytes on many connections while a device keeps being served', async () => {
    const device = await createDevice(server, uid('fuzz-survivor'));
    const survivor = await login(device.uniqueId);
    let state = 0x2f6b1d;
    const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const clients = [];
    for (let i = 0; i < 40; i++) {
      const client = await LineClient.connect(port());
      // Random lengths and bytes, printable-heavy so some look like frames.
      for (let k = 0; k < 3; k++) {
        const bytes = Buffer.from(Array.from({ length: 1 + Math.floor(random() * 90) }, () => (random() < 0.8 ? 0x20 + Math.floor(random() * 95) : Math.floor(random() * 256))));
        if (random() < 0.3) bytes[bytes.length - 1] = 0x0a;
        client.send(bytes);
      }
      clients.push(client);
      survivor.send(`P,${i + 1},-23.5,-46.6\n`);
      expect(await survivor.next()).toBe(`OK,${i + 1}`);
    }
    // Whatever was not closed as garbage is still an ordinary, unidentified connection.
    await Promise.all(clients.map((c) => c.close()));
    survivor.send('H\n');
    expect(await survivor.next()).toBe('HB');
    await survivor.close();
  });

  it('puts a device online on login and offline when its last connection closes, with the events', async () => {
    const device = await createDevice(server, uid('status'));
    const live = recordLive(server);
    const first = await login(device.uniqueId);
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'online')).toBe('online');
    // A reconnection before the old connection went: still online when the old one closes.
    const second = await login(device.uniqueId);
    await first.close();
    await sleep(150);
    expect((await deviceRow(server, device.id)).status).toBe('online');
    await second.close();
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'offline')).toBe('offline');
    const pushed = () => live.batches.flatMap((b) => b.devices ?? []).filter((d) => d.id === device.id).map((d) => d.status).join();
    expect(await eventually(pushed, 'online,offline')).toBe('online,offline');
    live.stop();
    const events = await db().selectFrom('events').select(['type', 'positionId']).where('deviceId', '=', device.id).orderBy('id').execute();
    expect(events.map((e) => [e.type, Number(e.positionId)])).toEqual([['deviceOnline', 0], ['deviceOffline', 0]]);
  });

  it('moves a connection to the device a later frame names; the first device leaves', async () => {
    const first = await createDevice(server, uid('rebind-a'));
    const second = await createDevice(server, uid('rebind-b'));
    const client = await login(first.uniqueId);
    expect(await eventually(async () => (await deviceRow(server, first.id)).status, 'online')).toBe('online');
    client.send(`ID,${second.uniqueId}\nP,1,-23.5,-46.6\n`);
    expect(await client.next()).toBe('OK');
    expect(await client.next()).toBe('OK,1');
    expect(await positionsOf(server, second.id)).toHaveLength(1);
    expect(await positionsOf(server, first.id)).toHaveLength(0);
    expect(await eventually(async () => (await deviceRow(server, first.id)).status, 'offline')).toBe('offline');
    expect((await deviceRow(server, second.id)).status).toBe('online');
    await client.close();
  });

  it('closes the connection of a device deleted after it identified', async () => {
    const device = await createDevice(server, uid('removed'));
    const client = await login(device.uniqueId);
    expect((await admin.delete(`/api/devices/${device.id}`)).status).toBe(204);
    await eventually(() => server.rastro.ctx.processing!.devices.byId(device.id) === undefined, true);
    client.send('H\nP,1,-23.5,-46.6\n');
    expect(await client.waitClosed()).toBe(true);
    expect(client.received).toEqual(['OK']);
  });

  it('writes a command to a connected device (200) and queues one for an offline device, delivered when it connects (202)', async () => {
    const device = await createDevice(server, uid('cmd'));
    const client = await login(device.uniqueId);
    const live = await admin.post('/api/commands/send', { deviceId: device.id, type: 'custom', attributes: { data: 'NOW' } });
    expect(live.status).toBe(200);
    expect(await client.next()).toBe('CMD,NOW');
    await client.close();
    await eventually(async () => (await deviceRow(server, device.id)).status, 'offline');

    const queued = await admin.post<{ id: number }>('/api/commands/send', { deviceId: device.id, type: 'custom', attributes: { data: 'LATER' } });
    expect(queued.status).toBe(202);
    // A type the protocol cannot encode is queued too, then dropped (logged) when the device connects.
    expect((await admin.post('/api/commands/send', { deviceId: device.id, type: 'rebootDevice' })).status).toBe(202);
    const back = await login(device.uniqueId);
    expect(await back.next()).toBe('CMD,LATER');
    const left = async () => (await db().selectFrom('commandsQueue').select('id').where('deviceId', '=', device.id).execute()).length;
    expect(await eventually(left, 0)).toBe(0);
    await sleep(100);
    expect(back.received).toEqual(['OK', 'CMD,LATER']);
    const sent = await db().selectFrom('events').select('attributes').where('deviceId', '=', device.id).where('type', '=', 'queuedCommandSent').execute();
    expect(sent.map((e) => JSON.parse(e.attributes) as unknown)).toContainEqual({ id: queued.json.id });
    // The lifecycle says what happened: both written ones sent, the one the protocol cannot carry failed.
    const lifecycle = async () =>
      (await db().selectFrom('commandLog').select(['type', 'status', 'reason']).where('deviceId', '=', device.id).orderBy('id').execute())
        .map((r) => `${r.type}:${r.status}:${r.reason ?? ''}`)
        .join();
    expect(await eventually(lifecycle, 'custom:sent:,custom:sent:,rebootDevice:failed:unsupported')).toBe(
      'custom:sent:,custom:sent:,rebootDevice:failed:unsupported',
    );
    await back.close();
  });

  it('puts a queued command back when its connection closes while it is being taken', async () => {
    const device = await createDevice(server, uid('cmd-back'));
    expect((await admin.post('/api/commands/send', { deviceId: device.id, type: 'custom', attributes: { data: 'AGAIN' } })).status).toBe(202);
    const queue = commandDelivery(server.rastro.ctx).queue;
    const take = queue.take.bind(queue);
    let client: LineClient | null = null;
    queue.take = async (...args) => {
      const row = await take(...args);
      // The device goes away while its command is being handed over.
      client?.socket.destroy();
      await sleep(100);
      return row;
    };
    try {
      client = await LineClient.connect(port());
      client.send(`ID,${device.uniqueId}\n`);
      await client.waitClosed();
      const queued = async () => (await db().selectFrom('commandsQueue').select('id').where('deviceId', '=', device.id).execute()).length;
      expect(await eventually(queued, 1)).toBe(1);
    } finally {
      queue.take = take;
    }
    const status = await db().selectFrom('commandLog').select(['status']).where('deviceId', '=', device.id).execute();
    expect(status.map((r) => r.status)).toEqual(['queued']);
    // The next connection gets it.
    const again = await login(device.uniqueId);
    expect(await again.next()).toBe('CMD,AGAIN');
    await again.close();
  });

  it('writes a command queued while the device is connected at once (the commandQueued change)', async () => {
    // Queued straight through the queue, as another instance does: only the change reaches this one.
    const device = await createDevice(server, uid('cmd-change'));
    const client = await login(device.uniqueId);
    await commandDelivery(server.rastro.ctx).queue.enqueue({ deviceId: device.id, type: 'custom', textChannel: false, attributes: { data: 'PUSHED' } });
    expect(await client.next()).toBe('CMD,PUSHED');
    await client.close();
  });

  it('stops reading a connection while its frames wait for a slow database, and catches up in order', async () => {
    const device = await createDevice(server, uid('pressure'));
    const client = await login(device.uniqueId);
    const hub = listenerHub(server.rastro.ctx);
    const writer = server.rastro.ctx.processing!.writer;
    const hold = holdCommits(server);
    const throttledBefore = hub.stats.throttled;
    const framesBefore = hub.stats.frames;
    const total = 2_000;
    let burst = '';
    for (let i = 1; i <= total; i++) burst += `P,${i},${(-23.5 - i / 1e5).toFixed(5)},-46.6\n`;
    client.send(burst);
    await eventually(() => hub.stats.throttled > throttledBefore, true);
    await sleep(300);
    // Reading stopped: only a window of frames was taken, and the writer holds no more than that.
    expect(hub.stats.frames - framesBefore).toBeLessThanOrEqual(HIGH_WATER + 1);
    expect(writer.buffered).toBeLessThanOrEqual(HIGH_WATER + 1);
    expect(client.received).toEqual(['OK']);
    hold.release();
    const acks = [];
    for (let i = 1; i <= total; i++) acks.push(await client.next(15_000));
    expect(acks).toEqual(Array.from({ length: total }, (_, i) => `OK,${i + 1}`));
    expect(await positionsOf(server, device.id)).toHaveLength(total);
    await client.close();
  });

  it('publishes raw frames for the device log only while logs are wanted', async () => {
    const device = await createDevice(server, uid('raw'));
    const live = recordLive(server);
    const logs = (): RawFrame[] => live.batches.flatMap((b) => b.logs ?? []);
    const client = await login(device.uniqueId);
    client.send('H\n');
    expect(await client.next()).toBe('HB');
    await sleep(200);
    expect(logs()).toEqual([]);

    server.rastro.ctx.live.logsWanted = true;
    try {
      client.send('P,1,-23.5,-46.6\r\n');
      expect(await client.next()).toBe('OK,1');
      const stranger = await LineClient.connect(port());
      stranger.send(Buffer.from([0x01, 0xab, 0x0a]));
      await stranger.waitClosed();
      // An unknown tracker's frame carries the id it claims (no device: administrators only), so it can be added.
      const unknownId = uid('raw-unknown');
      const unknown = await LineClient.connect(port());
      unknown.send(`ID,${unknownId}\n`);
      await unknown.waitClosed();
      await eventually(() => logs().length >= 3, true);
      expect(logs()[2]).toMatchObject({ protocol: 'line', uniqueId: unknownId, deviceId: null, data: `ID,${unknownId}\\n` });
    } finally {
      server.rastro.ctx.live.logsWanted = false;
    }
    const [position, garbage] = logs();
    expect(position).toMatchObject({ protocol: 'line', uniqueId: device.uniqueId, deviceId: device.id, data: 'P,1,-23.5,-46.6\\r\\n' });
    expect(position!.host).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(garbage).toMatchObject({ protocol: 'line', uniqueId: null, deviceId: null, data: '01ab0a' });
    live.stop();
    await client.close();
  });

  it('serves UDP: acks go back to the sender, an unknown id is refused, commands reach the last address', async () => {
    const device = await createDevice(server, uid('udp'));
    const udp = await UdpLineClient.open(listener.ports.udp);
    udp.send(`IP,${device.uniqueId},1,-23.5,-46.6\n`);
    expect(await udp.waitFor(1)).toEqual(['OK,1']);
    expect(await positionsOf(server, device.id)).toHaveLength(1);
    expect((await deviceRow(server, device.id)).status).toBe('online');
    udp.send(`IP,${device.uniqueId},2,-23.6,-46.6\nH\n`);
    expect(await udp.waitFor(3)).toEqual(['OK,1', 'OK,2', 'HB']);
    const sent = await admin.post('/api/commands/send', { deviceId: device.id, type: 'custom', attributes: { data: 'UDP' } });
    expect(sent.status).toBe(200);
    expect(await udp.waitFor(4)).toEqual(['OK,1', 'OK,2', 'HB', 'CMD,UDP']);

    const stranger = await UdpLineClient.open(listener.ports.udp);
    stranger.send(`IP,${uid('udp-stranger')},1,-23.5,-46.6\n`);
    expect(await stranger.waitFor(1)).toEqual(['NO']);
    await udp.close();
    await stranger.close();
  });

  it('starts the protocols that have a port, skips those at 0 or without a setting', async () => {
    const ctx = server.rastro.ctx;
    const alphaPort = await freePort();
    const started = await startProtocolListeners(
      { ...ctx, config: { ...ctx.config, host: '127.0.0.1', protocolPorts: { alpha: alphaPort, beta: 0 } } },
      [lineProtocol('alpha'), lineProtocol('beta'), lineProtocol('gamma')],
    );
    expect(started).toEqual({ alpha: { tcp: alphaPort, udp: alphaPort } });
    const client = await LineClient.connect(alphaPort);
    client.send('H\n');
    // Not identified: no answer, but served.
    await sleep(100);
    expect(client.isClosed).toBe(false);
    await client.close();
  });
});

describe.each(backends)('device listener limits (%s)', (backend) => {
  let server: TestServer;
  let listener: ProtocolListener;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_DEVICE_IDLE_TIMEOUT: '2', RASTRO_DEVICE_CONNECTIONS: '3', RASTRO_INGEST_BUFFER: '1' });
    listener = await startProtocolListener(server.rastro.ctx, lineProtocol(), 0, '127.0.0.1');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('closes a silent connection after RASTRO_DEVICE_IDLE_TIMEOUT and marks the device offline', async () => {
    const device = await createDevice(server, uid('idle'));
    const client = await LineClient.connect(listener.ports.tcp);
    client.send(`ID,${device.uniqueId}\n`);
    expect(await client.next()).toBe('OK');
    // Talking keeps it open past the timeout.
    for (let i = 0; i < 4; i++) {
      await sleep(700);
      client.send('H\n');
      expect(await client.next()).toBe('HB');
    }
    const lastTalk = Date.now();
    expect(await client.waitClosed(4_000)).toBe(true);
    expect(Date.now() - lastTalk).toBeGreaterThanOrEqual(1_900);
    expect(await eventually(async () => (await deviceRow(server, device.id)).status, 'offline')).toBe('offline');
  });

  it('refuses connections beyond RASTRO_DEVICE_CONNECTIONS, and takes new ones once some close', async () => {
    const hub = listenerHub(server.rastro.ctx);
    const open = [];
    for (let i = 0; i < 3; i++) open.push(await LineClient.connect(listener.ports.tcp));
    await eventually(() => hub.stats.connections, 3);
    const refusedBefore = hub.stats.refused;
    const refused = await LineClient.connect(listener.ports.tcp);
    // At once (well before the 2 s idle timeout), and counted.
    expect(await refused.waitClosed(400)).toBe(true);
    expect(hub.stats.refused - refusedBefore).toBe(1);
    await open.pop()!.close();
    await eventually(() => hub.stats.connections, 2);
    const device = await createDevice(server, uid('cap'));
    const accepted = await LineClient.connect(listener.ports.tcp);
    accepted.send(`ID,${device.uniqueId}\n`);
    expect(await accepted.next()).toBe('OK');
    await Promise.all([accepted.close(), ...open.map((c) => c.close())]);
  });

  it('leaves a frame unacknowledged when the writer refuses it (RASTRO_INGEST_BUFFER full), and goes on', async () => {
    const device = await createDevice(server, uid('full'));
    const client = await LineClient.connect(listener.ports.tcp);
    client.send(`ID,${device.uniqueId}\n`);
    expect(await client.next()).toBe('OK');
    const writer = server.rastro.ctx.processing!.writer;
    const notStoredBefore = listenerHub(server.rastro.ctx).stats.notStored;
    const hold = holdCommits(server);
    client.send('P,1,-23.5,-46.6\n');
    // The writer holds its one position: the next frame is refused (IngestUnavailable).
    await eventually(() => writer.buffered, 1);
    client.send('P,2,-23.6,-46.6\n');
    await eventually(() => listenerHub(server.rastro.ctx).stats.notStored - notStoredBefore, 1);
    hold.release();
    expect(await client.next()).toBe('OK,1');
    client.send('P,3,-23.7,-46.6\n');
    expect(await client.next()).toBe('OK,3');
    expect(client.received).toEqual(['OK', 'OK,1', 'OK,3']);
    expect((await positionsOf(server, device.id)).map((p) => p.latitude)).toEqual([-23.5, -23.7]);
    await client.close();
  });

  it('closes its listeners and their connections on shutdown', async () => {
    const other = await startTestServer(backend);
    const own = await startProtocolListener(other.rastro.ctx, lineProtocol(), 0, '127.0.0.1');
    const device = await createDevice(other, uid('shutdown'));
    const client = await LineClient.connect(own.ports.tcp);
    client.send(`ID,${device.uniqueId}\n`);
    expect(await client.next()).toBe('OK');
    await other.close();
    expect(await client.waitClosed(1_000)).toBe(true);
    await expect(LineClient.connect(own.ports.tcp)).rejects.toThrow();
  });

  it('starts every protocol of the registry on its RASTRO_<NAME>_PORT (0 turns it off)', async () => {
    const env: Record<string, string> = {};
    const expected: Record<string, number> = {};
    for (const protocol of PROTOCOLS) {
      const p = await freePort();
      env[`RASTRO_${protocol.name.toUpperCase()}_PORT`] = String(p);
      expected[protocol.name] = p;
    }
    const other = await startTestServer(backend, env);
    try {
      expect(Object.keys(other.rastro.protocolPorts).sort()).toEqual(Object.keys(expected).sort());
      for (const protocol of PROTOCOLS) {
        const ports = other.rastro.protocolPorts[protocol.name]!;
        expect(ports.tcp).toBe(expected[protocol.name]);
        expect(ports.udp).toBe(protocol.transports.includes('udp') ? expected[protocol.name] : 0);
        const client = await LineClient.connect(ports.tcp);
        await client.close();
      }
    } finally {
      await other.close();
    }
    // The harness keeps them off.
    expect(server.rastro.protocolPorts).toEqual({});
  });
});
