// A simulated tracker against a small fake server that decodes with the real protocol
// definitions and answers (or not) as each test needs: hello before reports, buffering, ack
// timeouts and resending, reconnection, commands, Teltonika's one packet in flight, refusal.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gt06Protocol } from '../ingest/gt06/gt06.ts';
import type { FrameResult, ProtocolDefinition, ProtocolSession } from '../ingest/protocol.ts';
import { teltonikaProtocol } from '../ingest/teltonika/teltonika.ts';
import type { SimProtocol } from './encoders/encoder.ts';
import { ENCODERS } from './encoders/encoders.ts';
import { Tracker } from './tracker.ts';
import { newTrackerStats } from './tracker-stats.ts';
import { vehicleTrack } from './vehicle-track.ts';

interface Received {
  connection: number;
  result: FrameResult;
}

/** A TCP server decoding with `protocol`; `answer` decides whether (and what) to write back. */
class FakeServer {
  readonly frames: Received[] = [];
  readonly sockets: net.Socket[] = [];
  private readonly server: net.Server;
  port = 0;

  constructor(
    private readonly protocol: ProtocolDefinition,
    private readonly answer: (r: Received, socket: net.Socket, session: ProtocolSession) => void = (r, socket) => {
      if (r.result.ack) socket.write(r.result.ack);
    },
  ) {
    this.server = net.createServer((socket) => {
      const connection = this.sockets.push(socket) - 1;
      const session: ProtocolSession = { transport: 'tcp', remote: 'test', uniqueId: null, deviceAttributes: null, state: {} };
      let buffer = Buffer.alloc(0);
      socket.on('error', () => undefined);
      socket.on('data', (chunk) => {
        buffer = Buffer.concat([buffer, chunk]);
        for (;;) {
          const length = this.protocol.frameLength(buffer, 0, session);
          if (length === 0 || length > buffer.length) break;
          const result = this.protocol.decode(buffer.subarray(0, length), session, Date.now());
          buffer = buffer.subarray(length);
          if (result.uniqueId) Object.assign(session, { uniqueId: result.uniqueId, deviceAttributes: {} });
          const r = { connection, result };
          this.frames.push(r);
          this.answer(r, socket, session);
        }
      });
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  /** Fixes received so far (their fix times). */
  fixTimes(connection?: number): number[] {
    return this.frames.filter((f) => connection === undefined || f.connection === connection).flatMap((f) => f.result.fixes ?? []).map((f) => f.fixTime);
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const servers: FakeServer[] = [];
const trackers: Tracker[] = [];

afterEach(async () => {
  for (const t of trackers.splice(0)) t.stop();
  for (const s of servers.splice(0)) await s.close();
});

async function fake(protocol: ProtocolDefinition, answer?: ConstructorParameters<typeof FakeServer>[1]): Promise<FakeServer> {
  const server = new FakeServer(protocol, answer);
  await server.listen();
  servers.push(server);
  return server;
}

function tracker(protocol: SimProtocol, port: number, options: { ackTimeoutMs?: number; replyDelayMs?: number } = {}) {
  const stats = newTrackerStats();
  let second = 0;
  const t0 = Date.UTC(2025, 6, 1, 12);
  const uniqueId = ENCODERS[protocol].uniqueId(1);
  const t = new Tracker({
    encoder: ENCODERS[protocol], uniqueId, host: '127.0.0.1', port, transport: 'tcp', stats,
    vehicle: vehicleTrack(0, uniqueId, t0, () => 0.5), clock: () => t0 + 1000 * ++second, reconnectMs: 30, ...options,
  });
  trackers.push(t);
  return { t, stats };
}

async function until(check: () => boolean, what: string, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('simulated tracker', () => {
  it('says hello first and reports only once it is answered; what it buffered meanwhile follows', async () => {
    let release: (() => void) | null = null;
    const server = await fake(gt06Protocol, (r, socket) => {
      if (!r.result.ack) return;
      if (r.result.uniqueId) release = () => socket.write(r.result.ack!);
      else socket.write(r.result.ack);
    });
    const { t, stats } = tracker('gt06', server.port);
    t.start();
    await until(() => release !== null, 'the login');
    t.report();
    t.report();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.frames).toHaveLength(1); // the login alone
    expect(t.state).toBe('greeting');
    release!();
    await until(() => server.fixTimes().length === 2, 'both reports');
    await until(() => stats.acked === 3, 'their acks');
    expect(t.state).toBe('ready');
    expect(stats).toMatchObject({ connects: 1, connected: 1, sent: 3, positions: 2, ackable: 3, errors: 0 });
    expect(t.backlog).toBe(0);
    t.stop();
    expect(stats.connected).toBe(0);
    expect(t.state).toBe('stopped');
  });

  it('drops the connection when an ack does not come, reconnects, and sends the unacknowledged report again', async () => {
    // Logins are answered; reports on the first connection are not.
    const server = await fake(gt06Protocol, (r, socket) => {
      if (r.result.ack && (r.result.uniqueId || r.connection > 0)) socket.write(r.result.ack);
    });
    const { t, stats } = tracker('gt06', server.port, { ackTimeoutMs: 100 });
    t.start();
    await until(() => t.state === 'ready', 'the login ack');
    t.report();
    await until(() => server.fixTimes(0).length === 1, 'the report');
    const [time] = server.fixTimes(0);
    await new Promise((resolve) => setTimeout(resolve, 150));
    t.checkAcks();
    expect(stats.errorKinds.get('ack timeout')).toBe(1);
    await until(() => server.fixTimes(1).length === 1, 'the report again on a new connection');
    expect(server.fixTimes(1)).toEqual([time]);
    expect(stats).toMatchObject({ connects: 2, connected: 1, unacked: 1 });
    await until(() => t.awaitingAcks === 0, 'its ack');
  });

  it('reconnects when the server closes the connection', async () => {
    const server = await fake(gt06Protocol, (r, socket) => {
      if (r.connection === 0) socket.destroy();
      else if (r.result.ack) socket.write(r.result.ack);
    });
    const { t, stats } = tracker('gt06', server.port);
    t.start();
    await until(() => stats.connects === 2 && t.state === 'ready', 'the second connection');
    expect(stats.errorKinds.get('closed by the server')).toBe(1);
    t.report();
    await until(() => server.fixTimes(1).length === 1, 'a report on it');
  });

  it('carries out an engine stop: answers the command, then reports the engine cut', async () => {
    const server = await fake(gt06Protocol, (r, socket, session) => {
      if (r.result.ack) socket.write(r.result.ack);
      if (r.result.uniqueId) socket.write(gt06Protocol.encodeCommand({ deviceId: 1, type: 'engineStop', textChannel: false, attributes: {} }, session)!);
    });
    const { t, stats } = tracker('gt06', server.port);
    t.start();
    await until(() => server.frames.some((f) => f.result.fixes?.[0]?.attributes.blocked === true), 'the blocked report');
    const fixes = server.frames.flatMap((f) => f.result.fixes ?? []);
    expect(fixes[0]!.attributes.result).toBe('engineStop OK');
    expect(fixes[1]!.attributes.blocked).toBe(true);
    expect(stats.commands).toBe(1);
    // The vehicle stays where it was, engine off.
    t.report();
    await until(() => server.fixTimes().length === 3, 'the next report');
    const next = server.frames.at(-1)!.result.fixes![0]!;
    expect(next.speed).toBe(0);
    expect(next.latitude).toBeCloseTo(fixes[1]!.latitude, 5);
  });

  it('carries out and answers a command after its reply delay, as a tracker on a cellular link does', async () => {
    const server = await fake(gt06Protocol, (r, socket, session) => {
      if (r.result.ack) socket.write(r.result.ack);
      if (r.result.uniqueId) socket.write(gt06Protocol.encodeCommand({ deviceId: 1, type: 'engineStop', textChannel: false, attributes: {} }, session)!);
    });
    const { t, stats } = tracker('gt06', server.port, { replyDelayMs: 200 });
    const started = Date.now();
    t.start();
    await until(() => stats.commands === 1, 'the command');
    // Not carried out yet: a report now still shows the engine running.
    t.report();
    await until(() => server.fixTimes().length === 1, 'the report');
    expect(server.frames.at(-1)!.result.fixes![0]!.attributes.blocked).toBeUndefined();
    await until(() => server.frames.some((f) => f.result.fixes?.[0]?.attributes.result === 'engineStop OK'), 'the reply');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    await until(() => server.frames.some((f) => f.result.fixes?.[0]?.attributes.blocked === true), 'the cut');
  });

  it('Teltonika: one packet in flight; what it buffered meanwhile goes in the next packet', async () => {
    let held: Array<() => void> = [];
    const server = await fake(teltonikaProtocol, (r, socket) => {
      if (!r.result.ack) return;
      if (r.result.uniqueId) socket.write(r.result.ack);
      else held.push(() => socket.write(r.result.ack!));
    });
    const { t, stats } = tracker('teltonika', server.port);
    t.start();
    await until(() => t.state === 'ready', 'the IMEI accepted');
    for (let i = 0; i < 5; i++) t.report();
    await until(() => server.fixTimes().length === 1, 'the first packet');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.fixTimes()).toHaveLength(1);
    expect(t.backlog).toBe(5);
    held.splice(0).forEach((ack) => ack());
    await until(() => server.fixTimes().length === 5, 'the other four, in one packet');
    expect(server.frames.at(-1)!.result.fixes).toHaveLength(4);
    held.splice(0).forEach((ack) => ack());
    await until(() => stats.acked === 3, 'the acks');
    expect(t.backlog).toBe(0);
    held = [];
  });

  it('Teltonika: a refused IMEI is counted, and the tracker asks again later', async () => {
    const server = await fake(teltonikaProtocol, (r, socket) => {
      if (r.result.reject) socket.write(r.result.reject);
    });
    const { t, stats } = tracker('teltonika', server.port);
    t.start();
    await until(() => stats.rejected === 1, 'the refusal');
    expect(t.state).toBe('idle');
    expect(stats.errorKinds.get('the server does not know this device')).toBe(1);
  });
});
