// The processing pipeline and the storage writer against a real database: strict per-device
// order even with slow asynchronous steps, events stored with their position, one
// transaction and one live batch per flush, each transaction within the size limit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, startTestServer, type TestServer } from './harness.ts';
import { createDevice, positionsOf, recordLive, sleep } from './ingest-helpers.ts';
import { DeviceCache } from '../src/processing/device-cache.ts';
import { PositionWriter } from '../src/processing/position-writer.ts';
import { KyselyWriteStore, type WriteStore } from '../src/processing/write-store.ts';
import { POSITION_WIDTH } from '../src/processing/writer-protocol.ts';
import { Pipeline } from '../src/processing/pipeline.ts';
import { defaultSteps } from '../src/processing/steps/index.ts';
import type { Step } from '../src/processing/work.ts';
import { emptyFix, type DecodedMessage } from '../src/ingest/decoded.ts';

function message(uniqueId: string, seq: number, fixTime: number, extra: Partial<ReturnType<typeof emptyFix>> = {}): DecodedMessage {
  return { uniqueId, fix: { ...emptyFix('test', fixTime), latitude: 1, longitude: 2, attributes: { seq }, ...extra } };
}

describe.each(backends)('processing pipeline and writer (%s)', (backend) => {
  let server: TestServer;
  let devices: DeviceCache;

  beforeAll(async () => {
    server = await startTestServer(backend);
    devices = new DeviceCache(server.rastro.ctx);
    await devices.start();
  });
  afterAll(async () => {
    devices?.stop();
    await server?.close();
  });

  // The server's store (on SQLite its writer thread) and the main connection through Kysely.
  it.each(['server store', 'main connection'])('keeps per-device order through slow asynchronous steps and stores their events with the position (%s)', async (via) => {
    const main = via === 'main connection';
    const a = await createDevice(server, main ? 'pipe-a-main' : 'pipe-a');
    const b = await createDevice(server, main ? 'pipe-b-main' : 'pipe-b');
    const store = main ? new KyselyWriteStore(server.rastro.ctx) : undefined;
    const writer = new PositionWriter(server.rastro.ctx, store ? { store } : {});
    // A step that sometimes waits a random while, and raises an event on every 5th message of each device.
    const jitter: Step = {
      name: 'jitter',
      run(work) {
        const seq = work.position.attributes.seq as number;
        if (Math.floor(seq / 2) % 5 === 0) work.events.push({ type: 'alarm', eventTime: work.position.fixTime, geofenceId: 0, maintenanceId: 0, attributes: { alarm: 'sos' }, id: null });
        if (seq % 3 === 0) return sleep(Math.floor(Math.random() * 4));
      },
    };
    const pipeline = new Pipeline(server.rastro.ctx, devices, writer, [...defaultSteps(), jitter]);
    const t0 = 1_700_000_000_000;
    const results = await Promise.all(
      Array.from({ length: 120 }, (_, i) => pipeline.submit(message(i % 2 ? b.uniqueId : a.uniqueId, i, t0 + i * 1000))),
    );
    expect(results.every((r) => r.kind === 'stored')).toBe(true);
    for (const [device, parity] of [[a, 0], [b, 1]] as const) {
      const rows = await positionsOf(server, device.id);
      const seqs = rows.map((r) => (JSON.parse(r.attributes) as { seq: number }).seq);
      expect(seqs).toEqual(Array.from({ length: 60 }, (_, k) => k * 2 + parity));
      const events = await server.rastro.ctx.storage.db.selectFrom('events').selectAll().where('deviceId', '=', device.id).orderBy('id').execute();
      const expected = rows.filter((r) => Math.floor((JSON.parse(r.attributes) as { seq: number }).seq / 2) % 5 === 0);
      expect(expected.length).toBe(12);
      expect(events.map((e) => e.positionId)).toEqual(expected.map((r) => r.id));
      expect(events.map((e) => e.eventTime)).toEqual(expected.map((r) => r.fixTime));
      expect(events[0]!.type).toBe('alarm');
    }
    await writer.drain();
  });

  it('writes one transaction and publishes one live batch per flush', async () => {
    const uids = Array.from({ length: 40 }, (_, i) => `batch-${i}`);
    const created = [];
    for (const uid of uids) created.push(await createDevice(server, uid));
    const writer = new PositionWriter(server.rastro.ctx);
    const pipeline = new Pipeline(server.rastro.ctx, devices, writer, defaultSteps());
    const live = recordLive(server);
    const now = Date.now();
    await Promise.all(uids.map((uid, i) => pipeline.submit(message(uid, i, now))));
    live.stop();
    expect(writer.stats.positions).toBe(40);
    expect(writer.stats.flushes).toBeLessThanOrEqual(3);
    expect(live.batches.length).toBe(writer.stats.flushes);
    expect(live.positions().map((p) => p.deviceId).sort()).toEqual(created.map((d) => d.id).sort());
    const pushed = live.batches.flatMap((b) => b.devices ?? []);
    expect(pushed.length).toBe(40);
    for (const d of pushed) {
      expect(d.status).toBe('online');
      expect(d.positionId).toBe(live.positions().find((p) => p.deviceId === d.id)!.id);
    }
  });

  it('keeps each transaction within its size limit, however many positions arrive at once', async () => {
    const d = await createDevice(server, 'size-1');
    const store = server.rastro.ctx.processing!.store;
    const sizes: number[] = [];
    const counting: WriteStore = {
      commit: (request) => {
        sizes.push(request.positions.length / POSITION_WIDTH);
        return store.commit(request);
      },
      close: async () => undefined,
    };
    const writer = new PositionWriter(server.rastro.ctx, { maxItems: 10, store: counting });
    const pipeline = new Pipeline(server.rastro.ctx, devices, writer, defaultSteps());
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 25 }, (_, i) => pipeline.submit(message('size-1', i, t0 + i))));
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(25);
    expect((await positionsOf(server, d.id)).length).toBe(25);
  });

  it('drops positions of impossible coordinates, stores a fix dated ahead without making it the latest, and counts the sign of life', async () => {
    const d = await createDevice(server, 'filter-1');
    const writer = new PositionWriter(server.rastro.ctx);
    const pipeline = new Pipeline(server.rastro.ctx, devices, writer, defaultSteps());
    const future = await pipeline.submit(message('filter-1', 1, Date.now() + 2 * 86_400_000));
    const nan = await pipeline.submit(message('filter-1', 2, Date.now(), { latitude: Number.NaN }));
    expect([future.kind, nan.kind]).toEqual(['stored', 'dropped']);
    expect((await positionsOf(server, d.id)).map((p) => p.latitude)).toEqual([1]);
    const row = await server.rastro.ctx.storage.db.selectFrom('devices').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('online');
    expect(row.positionId).toBeNull();
  });

  it('an outdated first message gets the GPS epoch and no coordinates, marked invalid', async () => {
    const d = await createDevice(server, 'outdated-1');
    const writer = new PositionWriter(server.rastro.ctx);
    const pipeline = new Pipeline(server.rastro.ctx, devices, writer, defaultSteps());
    const result = await pipeline.submit(message('outdated-1', 1, Date.now(), { outdated: true, latitude: 0, longitude: 0 }));
    expect(result.kind).toBe('stored');
    const [row] = await positionsOf(server, d.id);
    expect(row).toMatchObject({ fixTime: Date.UTC(1980, 0, 6), valid: 0, latitude: 0, longitude: 0 });
  });
});
