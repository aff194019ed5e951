// The device simulator against the real server, on SQLite and PostgreSQL: `--create` adds the
// devices through the REST API, a fleet of every protocol connects to the real listeners,
// reports and gets its acks; an engine stop sent through the API reaches each protocol's
// tracker, which answers it and reports the cut (the command log follows it to the end); and
// Teltonika and H02 trackers report over UDP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, Position } from '@rastro/domain/entities';
import type { CommandLogEntry } from '@rastro/domain/command-log';
import { createDevices } from '../src/sim/create-devices.ts';
import type { SimProtocol } from '../src/sim/encoders/encoder.ts';
import { SIM_PROTOCOLS } from '../src/sim/encoders/encoders.ts';
import { Simulator, fleetDevice } from '../src/sim/simulator.ts';
import type { Transport } from '../src/ingest/protocol.ts';
import { ADMIN_PASSWORD, backends, freePort, startTestServer, type TestClient, type TestServer } from './harness.ts';

const DEVICES = 8; // two per protocol

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(backends)('device simulator (%s)', (backend) => {
  let server: TestServer;
  let admin: TestClient;
  const sims: Simulator[] = [];

  beforeAll(async () => {
    const env: Record<string, string> = { RASTRO_ENGINE_STOP_MAX_SPEED: '1000' }; // the simulated vehicles drive: no speed guard here
    for (const p of SIM_PROTOCOLS) env[`RASTRO_${p.toUpperCase()}_PORT`] = String(await freePort());
    server = await startTestServer(backend, env);
    admin = await server.admin();
  });
  afterAll(async () => {
    for (const s of sims) s.stop();
    await server?.close();
  });

  const simulate = (transport: Transport, protocols: readonly SimProtocol[] = SIM_PROTOCOLS, devices = DEVICES, firstDevice = 0) => {
    const ports = Object.fromEntries(protocols.map((p) => [p, server.rastro.protocolPorts[p]![transport]]));
    const sim = new Simulator({ protocols, devices, firstDevice, host: '127.0.0.1', ports, transport, intervalMs: 300, heartbeatMs: 1000 });
    sims.push(sim);
    sim.start();
    return sim;
  };
  const devices = async () => (await admin.get<Device[]>('/api/devices')).json;
  const latest = async (deviceId: number) => (await admin.get<Position[]>(`/api/positions?deviceId=${deviceId}`)).json[0];
  /** The device's positions of the last minute. */
  const history = async (deviceId: number) => {
    const range = new URLSearchParams({ deviceId: String(deviceId), from: new Date(Date.now() - 60_000).toISOString(), to: new Date(Date.now() + 60_000).toISOString() });
    return (await admin.get<Position[]>(`/api/positions?${range}`)).json;
  };

  it('--create adds the devices through the REST API, once', async () => {
    const list = Array.from({ length: DEVICES }, (_, i) => ({ uniqueId: fleetDevice(SIM_PROTOCOLS, i).uniqueId, name: `Sim ${i}` }));
    const credentials = { user: 'admin', password: ADMIN_PASSWORD };
    expect(await createDevices(server.url, credentials, list)).toEqual({ created: DEVICES, existing: 0 });
    expect(await createDevices(server.url, credentials, list)).toEqual({ created: 0, existing: DEVICES });
    expect((await devices()).map((d) => d.uniqueId).sort()).toEqual(list.map((d) => d.uniqueId).sort());
    await expect(createDevices(server.url, { user: 'admin', password: 'wrong' }, list)).rejects.toThrow(/login as admin/);
  });

  it('a fleet of every protocol connects, reports, gets its acks, and its devices go online with positions', async () => {
    const sim = simulate('tcp');
    await until(async () => (await devices()).every((d) => d.status === 'online' && d.positionId), 'every device online with a position');
    await until(() => sim.stats.connected === DEVICES && sim.stats.acked > DEVICES * 2, 'acks on every connection');
    expect(sim.stats.errors).toBe(0);
    for (const d of await devices()) {
      const p = await latest(d.id);
      expect(p!.protocol).toBe(fleetDevice(SIM_PROTOCOLS, Number(d.name.slice(4))).protocol);
      // São Paulo, where the demo routes are.
      expect(p!.latitude).toBeGreaterThan(-24);
      expect(p!.latitude).toBeLessThan(-23);
    }
  });

  it.each(SIM_PROTOCOLS)('an engine stop reaches a %s tracker, which answers and reports the cut', async (protocol) => {
    const sim = sims[0]!;
    const device = (await devices()).find((d) => d.uniqueId === fleetDevice(SIM_PROTOCOLS, SIM_PROTOCOLS.indexOf(protocol)).uniqueId)!;
    const commands = sim.stats.commands;
    const sent = await admin.post<{ commandLog?: CommandLogEntry }>('/api/commands/send', { deviceId: device.id, type: 'engineStop' });
    expect(sent.status, sent.text).toBe(200); // written at once to the live connection
    await until(() => sim.stats.commands === commands + 1, 'the tracker to receive it');
    const log = async () => (await admin.get<CommandLogEntry[]>(`/api/commands/log?deviceId=${device.id}`)).json[0]!;
    await until(async () => ['acknowledged', 'confirmed'].includes((await log()).status), 'the reply');
    expect((await log()).result).toMatch(/\S/);
    // Every protocol reports the cut as `blocked` (Teltonika: digital output 1, which setdigout switches).
    await until(async () => (await history(device.id)).some((p) => p.attributes.blocked === true), 'a position with blocked');
    await until(async () => (await log()).status === 'confirmed', 'the confirmation');
  });

  it('Teltonika and H02 trackers report over UDP', async () => {
    const udp: SimProtocol[] = ['teltonika', 'h02'];
    const first = 200; // ids apart from the TCP fleet's
    const list = [first, first + 1].map((i) => fleetDevice(udp, i).uniqueId);
    await createDevices(server.url, { user: 'admin', password: ADMIN_PASSWORD }, list.map((uniqueId) => ({ uniqueId, name: uniqueId })));
    const sim = simulate('udp', udp, 2, first);
    expect(sim.trackers.map((t) => t.transport)).toEqual(['udp', 'udp']);
    await until(async () => (await devices()).filter((d) => list.includes(d.uniqueId) && d.positionId).length === 2, 'positions over UDP');
    await until(() => sim.stats.acked >= 2, 'their acks');
    expect(sim.stats.errors).toBe(0);
  });
});
