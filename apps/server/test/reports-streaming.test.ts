// Reports read ranges in chunks: the keyset iterator returns every position exactly once, in
// (fixTime, id) order, in pieces no larger than asked; memory while streaming a long route
// stays at one chunk (heap measured after forced collections); the summary's fast path (edges
// + motion segments + uncovered stretches) equals the full scan on random tracks and segments.
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insertable, Kysely } from 'kysely';
import type { Database, PositionTable } from '../src/storage/schema.ts';
import { backends, startTestServer, type TestServer } from './harness.ts';
import { createDevice } from './ingest-helpers.ts';
import { devicesByIds, positionChunks, type ReportDevice } from '../src/reports/reports-repo.ts';
import { summaryRows } from '../src/reports/summary.ts';
import { routeReport } from '../src/reports/reports-routes.ts';
import type { ReportRequest } from '../src/reports/report-request.ts';

const T0 = Date.parse('2024-03-01T00:00:00Z');

function position(deviceId: number, fixTime: number, speed: number, attributes: Record<string, unknown>): Insertable<PositionTable> {
  return {
    deviceId, protocol: 'osmand', serverTime: fixTime, deviceTime: fixTime, fixTime, valid: 1, latitude: -23.5, longitude: -46.6,
    altitude: 0, speed, course: 0, address: null, accuracy: 0, network: null, geofenceIds: null, attributes: JSON.stringify(attributes),
  };
}

async function insertAll(db: Kysely<Database>, rows: Array<Insertable<PositionTable>>): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const out = await db.insertInto('positions').values(rows.slice(i, i + 500)).returning('id').execute();
    ids.push(...out.map((r) => Number(r.id)));
  }
  return ids;
}

/** A seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe.each(backends)('report streaming (%s)', (backend) => {
  let server: TestServer;
  let db: Kysely<Database>;

  beforeAll(async () => {
    server = await startTestServer(backend);
    db = server.rastro.ctx.storage.db;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('the chunk iterator returns every position once, by (fixTime, id), chunks ≤ chunkSize, honouring the bounds and the limit', async () => {
    const device = await createDevice(server, 'stream-chunks');
    // Many positions share a fixTime (ties resolved by id), inserted out of time order.
    const rows = Array.from({ length: 1_037 }, (_, i) => position(device.id, T0 + ((i * 7) % 300) * 1000, i % 50, { i }));
    await insertAll(db, rows);
    const all = await db.selectFrom('positions').select(['id', 'fixTime']).where('deviceId', '=', device.id).execute();
    const expected = all
      .filter((p) => p.fixTime >= T0 + 10_000 && p.fixTime <= T0 + 290_000)
      .sort((a, b) => a.fixTime - b.fixTime || a.id - b.id)
      .map((p) => p.id);
    const seen: number[] = [];
    let chunks = 0;
    for await (const chunk of positionChunks(db, device.id, T0 + 10_000, T0 + 290_000, { chunkSize: 64 })) {
      expect(chunk.length).toBeGreaterThan(0);
      expect(chunk.length).toBeLessThanOrEqual(64);
      chunks++;
      seen.push(...chunk.map((p) => p.id));
    }
    expect(seen).toEqual(expected);
    expect(chunks).toBe(Math.ceil(expected.length / 64));
    const limited: number[] = [];
    for await (const chunk of positionChunks(db, device.id, T0, T0 + 300_000, { chunkSize: 100, limit: 250 })) limited.push(...chunk.map((p) => p.id));
    expect(limited).toHaveLength(250);
    let none = 0;
    for await (const chunk of positionChunks(db, device.id, T0 + 400_000, T0 + 500_000)) none += chunk.length;
    expect(none).toBe(0);
  });

  it('streaming a long route keeps the heap at about one chunk, while the whole range would not fit that bound', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const device = await createDevice(server, 'stream-heap');
    const padding = 'x'.repeat(2_600);
    const count = 12_000;
    const rows = Array.from({ length: count }, (_, i) => position(device.id, T0 + i * 1000, i % 80, { padding, i }));
    await insertAll(db, rows);
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };

    const [dev] = await devicesByIds(db, [device.id]);
    /** Streams the route of [T0, T0 + rows s) and returns the highest heap growth seen (after collections) and the JSON size. */
    const stream = async (rows: number) => {
      const produce = await routeReport.open({ ctx: server.rastro.ctx, from: T0, to: T0 + rows * 1000 - 1 } as Partial<ReportRequest> as ReportRequest);
      const base = heap();
      let peak = 0;
      let n = 0;
      let bytes = 0;
      for await (const p of produce(dev!)) {
        bytes += JSON.stringify(routeReport.toJson(p)).length;
        if (++n % 500 === 250) peak = Math.max(peak, heap() - base);
      }
      expect(n).toBe(rows);
      return { peak, bytes };
    };
    // A third of the range already spans two chunks (of 2,000 rows); the whole spans six.
    const third = await stream(count / 3);
    const whole = await stream(count);
    expect(whole.bytes).toBeGreaterThan(30_000_000);
    // Three times the range, not three times the heap: bounded by a chunk or two, not the range.
    expect(whole.peak).toBeLessThan(third.peak * 2 + 4_000_000);

    // The same range held at once: what streaming avoids.
    const base = heap();
    const held: unknown[] = [];
    for await (const chunk of positionChunks(db, device.id, T0, T0 + count * 1000)) held.push(...chunk);
    const heldBytes = heap() - base;
    expect(held).toHaveLength(count);
    expect(heldBytes).toBeGreaterThan(2 * whole.peak);
    expect(heldBytes).toBeGreaterThan(25_000_000);
  });

  it('summary fast path (edges + segments + uncovered stretches) equals the streaming scan on random tracks', async () => {
    const rnd = random(20240301);
    const devices: ReportDevice[] = [];
    for (let d = 0; d < 4; d++) {
      const device = await createDevice(server, `stream-fast-${d}`);
      const n = 300 + Math.floor(rnd() * 300);
      let t = T0 + Math.floor(rnd() * 3_600_000);
      let odometer = 1_000;
      let hours = 0;
      const rows: Array<Insertable<PositionTable>> = [];
      for (let i = 0; i < n; i++) {
        t += Math.floor(rnd() * 1_800_000); // up to 30 min apart: tracks span days and local midnights
        if (rnd() < 0.05) t -= 1; // an occasional tie
        odometer += Math.floor(rnd() * 2_000);
        hours += Math.floor(rnd() * 600_000);
        const attrs: Record<string, unknown> = { totalDistance: odometer / 2, hours };
        if (d % 2 === 0) attrs.odometer = odometer;
        rows.push(position(device.id, t, Math.round(rnd() * 9_000) / 100, attrs));
      }
      await insertAll(db, rows);
      // Segments as the motion machine stores them: consecutive, sharing boundary positions,
      // maxSpeed over their positions; some left out (gaps), the last one open (not stored).
      const stored = await db.selectFrom('positions').select(['id', 'fixTime', 'speed']).where('deviceId', '=', device.id).orderBy('fixTime').orderBy('id').execute();
      let i = 0;
      let trip = true;
      while (i < stored.length - 1) {
        const j = Math.min(stored.length - 1, i + 1 + Math.floor(rnd() * 40));
        if (j === stored.length - 1) break;
        const slice = stored.slice(i, j + 1);
        if (rnd() > 0.15) {
          await db.insertInto('motionSegments').values({
            deviceId: device.id, kind: trip ? 'trip' : 'stop', startTime: slice[0]!.fixTime, endTime: slice.at(-1)!.fixTime,
            closedTime: stored[Math.min(stored.length - 1, j + 2)]!.fixTime, startPositionId: slice[0]!.id, endPositionId: slice.at(-1)!.id,
            openedById: slice[0]!.id, closedById: slice.at(-1)!.id, startLat: 0, startLon: 0, endLat: 0, endLon: 0, startAddress: null,
            endAddress: null, distance: 0, maxSpeed: Math.max(...slice.map((p) => p.speed)), startOdometer: 0, endOdometer: 0, spentFuel: 0,
            startHours: null, endHours: null, driverUniqueId: null,
          }).execute();
        }
        trip = !trip;
        i = j;
      }
      devices.push(...(await devicesByIds(db, [device.id])));
    }
    const span = 30 * 86_400_000;
    for (let k = 0; k < 25; k++) {
      const from = T0 + Math.floor(rnd() * span * 0.5);
      const to = from + Math.floor(rnd() * span * 0.6);
      const daily = k % 3 === 0 ? { timeZone: 'America/Sao_Paulo' } : k % 3 === 1 ? { timeZone: 'Asia/Kolkata' } : null;
      const fast = [];
      for await (const s of summaryRows(db, devices, from, to, {}, daily, 'fast')) fast.push(s);
      const scan = [];
      for await (const s of summaryRows(db, devices, from, to, {}, daily, 'scan')) scan.push(s);
      expect(fast).toEqual(scan);
    }
  });
});
