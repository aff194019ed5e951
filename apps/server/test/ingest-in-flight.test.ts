// The cap on positions in flight over all device connections (RASTRO_INGEST_IN_FLIGHT): many
// connections sending fast against a database whose commits are held. At the cap every
// connection stops being read (the bytes wait in the kernel); once commits go on, reading
// resumes, every connection is served to the end, and every acknowledged position is stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestServer } from './harness.ts';
import { sleep } from './ingest-helpers.ts';
import { eventually, holdCommits, LineClient, lineProtocol } from './device-listener-helpers.ts';
import { startProtocolListener, type ProtocolListener } from '../src/ingest/tcp/protocol-listeners.ts';
import { listenerHub } from '../src/ingest/tcp/listener-hub.ts';

const CAP = 100;
const CONNECTIONS = 200;
const FRAMES = 10;

describe.each(backends)('positions in flight (%s)', (backend) => {
  let server: TestServer;
  let listener: ProtocolListener;

  beforeAll(async () => {
    server = await startTestServer(backend, { RASTRO_INGEST_IN_FLIGHT: String(CAP) });
    listener = await startProtocolListener(server.rastro.ctx, lineProtocol(), 0, '127.0.0.1');
  });
  afterAll(async () => {
    await server?.close();
  });

  /** `n` devices, straight into the database (and the device cache). */
  async function devices(n: number): Promise<Array<{ id: number; uniqueId: string }>> {
    const ctx = server.rastro.ctx;
    const rows = Array.from({ length: n }, (_, i) => {
      const uniqueId = `inflight-${process.pid}-${i}`;
      return {
        name: `Device ${uniqueId}`, uniqueId, status: null, disabled: 0, lastUpdate: null, positionId: null, groupId: null,
        calendarId: null, phone: null, model: null, contact: null, category: null, expirationTime: null, attributes: '{}',
        motionState: 0, motionStreak: 0, motionPositionId: null, motionTime: null, motionDistance: 0, motionLatitude: 0,
        motionLongitude: 0, overspeedState: 0, overspeedTime: null, overspeedGeofenceId: 0,
      };
    });
    const ids = await ctx.storage.db.insertInto('devices').values(rows).returning('id').execute();
    for (const { id } of ids) ctx.changes.publish({ kind: 'device', id: Number(id) });
    const cache = ctx.processing!.devices;
    await eventually(() => rows.every((r) => cache.get(r.uniqueId) !== undefined), true);
    return ids.map(({ id }, i) => ({ id: Number(id), uniqueId: rows[i]!.uniqueId }));
  }

  it('stops reading every connection at the cap, resumes as commits go on, and serves them all', async () => {
    const ctx = server.rastro.ctx;
    const hub = listenerHub(ctx);
    const writer = ctx.processing!.writer;
    const fleet = await devices(CONNECTIONS);
    const clients = await Promise.all(
      fleet.map(async (device) => {
        const client = await LineClient.connect(listener.ports.tcp);
        client.send(`ID,${device.uniqueId}\n`);
        expect(await client.next()).toBe('OK');
        return client;
      }),
    );
    const hold = holdCommits(server);
    let writerMax = 0;
    const sampler = setInterval(() => (writerMax = Math.max(writerMax, writer.buffered)), 1);
    const framesBefore = hub.stats.frames;
    clients.forEach((client, c) => {
      let burst = '';
      for (let i = 1; i <= FRAMES; i++) burst += `P,${i},${(-23 - c / 1e3).toFixed(3)},${(-46 - i / 1e3).toFixed(3)}\n`;
      client.send(burst);
    });

    // The cap is reached and every other connection waits for its turn, unread.
    await eventually(() => hub.inFlight.count, CAP);
    await eventually(() => hub.inFlight.waiting >= CONNECTIONS - CAP, true);
    await sleep(300);
    expect(hub.stats.frames - framesBefore).toBe(CAP);
    expect(hub.inFlight.count).toBe(CAP);
    expect(clients.every((client) => client.received.length === 1)).toBe(true);

    hold.release();
    // Every connection is read to the end and gets all its acks, in order.
    const acks = await Promise.all(
      clients.map(async (client) => {
        const got: string[] = [];
        for (let i = 1; i <= FRAMES; i++) got.push(await client.next(20_000));
        return got;
      }),
    );
    clearInterval(sampler);
    const expected = Array.from({ length: FRAMES }, (_, i) => `OK,${i + 1}`);
    for (const got of acks) expect(got).toEqual(expected);
    expect(hub.inFlight.peak).toBeLessThanOrEqual(CAP);
    expect(writerMax).toBeLessThanOrEqual(CAP);
    expect(hub.inFlight.count).toBe(0);
    expect(hub.inFlight.waiting).toBe(0);

    // Every acknowledged position is stored, each device's in order.
    const stored = await ctx.storage.db
      .selectFrom('positions')
      .select(['deviceId', 'longitude'])
      .where('deviceId', 'in', fleet.map((d) => d.id))
      .orderBy('id')
      .execute();
    expect(stored).toHaveLength(CONNECTIONS * FRAMES);
    for (const device of fleet) {
      const mine = stored.filter((p) => Number(p.deviceId) === device.id).map((p) => Number(p.longitude));
      expect(mine).toEqual(Array.from({ length: FRAMES }, (_, i) => Number((-46 - (i + 1) / 1e3).toFixed(3))));
    }
    await Promise.all(clients.map((client) => client.close()));
  });
});
