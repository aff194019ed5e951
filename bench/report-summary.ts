// Summary report over 1,000,000 positions on SQLite: fast path (edges + motion segments) vs MAX(speed) query vs full scan (target < 1 s).
//
// Builds a temporary SQLite database with one device and N positions (1 s apart, random
// speeds, odometer and engine hours), tiles them with closed motion segments as the live
// machine stores them (consecutive, sharing boundary positions, each with the highest speed
// of its positions), leaves the last stretch open, then times the summary of the whole
// period three ways and checks the answers agree. Daily (30 days in São Paulo) is timed too.
// Options: --positions N (default 1000000), --segment N (positions per segment, default 600).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { openStorage } from '../apps/server/src/storage/db.ts';
import { devicesByIds } from '../apps/server/src/reports/reports-repo.ts';
import { maxSpeedByQuery, summaryByScan, summaryFast, summaryOptions, summaryRows } from '../apps/server/src/reports/summary.ts';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? Number(process.argv[i + 1]) : fallback;
}

const N = arg('positions', 1_000_000);
const PER_SEGMENT = arg('segment', 600);
const TARGET_MS = 1_000;
const T0 = Date.parse('2024-03-01T00:00:00Z');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rastro-bench-summary-'));

async function time<T>(label: string, fn: () => Promise<T>, runs = 3): Promise<{ value: T; ms: number }> {
  let best = Number.POSITIVE_INFINITY;
  let value!: T;
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    value = await fn();
    best = Math.min(best, performance.now() - started);
  }
  console.log(`${label.padEnd(44)} ${best.toFixed(1).padStart(9)} ms (best of ${runs})`);
  return { value, ms: best };
}

async function main() {
  const storage = await openStorage({ databaseUrl: null, dataDir: dir });
  const db = storage.db;
  const device = await db
    .insertInto('devices')
    .values({
      name: 'Bench', uniqueId: 'bench-summary', status: null, disabled: 0, lastUpdate: null, positionId: null, groupId: null,
      calendarId: null, phone: null, model: null, contact: null, category: null, expirationTime: null, attributes: '{}',
      motionState: 0, motionStreak: 0, motionPositionId: null, motionTime: null, motionDistance: 0, motionLatitude: 0,
      motionLongitude: 0, overspeedState: 0, overspeedTime: null, overspeedGeofenceId: 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const deviceId = Number(device.id);

  // Bulk load straight through better-sqlite3 (one transaction): the bench is about reading.
  const started = performance.now();
  const raw = new SQLite(storage.file!);
  const insertPosition = raw.prepare(
    'insert into positions (deviceId, protocol, serverTime, deviceTime, fixTime, valid, latitude, longitude, altitude, speed, course, accuracy, attributes) values (?, ?, ?, ?, ?, 1, ?, ?, 0, ?, 0, 0, ?)',
  );
  const insertSegment = raw.prepare(
    `insert into motionSegments (deviceId, kind, startTime, endTime, closedTime, startPositionId, endPositionId, openedById, closedById,
      startLat, startLon, endLat, endLon, distance, maxSpeed, startOdometer, endOdometer, spentFuel) values (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, 0, 0, ?, 0, 0, 0)`,
  );
  let seed = 42;
  const rnd = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  let segmentStart = { id: 0, t: 0 };
  let segmentMax = 0;
  let segments = 0;
  raw.transaction(() => {
    let odometer = 5_000_000;
    for (let i = 0; i < N; i++) {
      const t = T0 + i * 1000;
      const speed = Math.round(rnd() * 9_000) / 100;
      odometer += speed * 0.514;
      const info = insertPosition.run(deviceId, 'osmand', t, t, t, -23.5 + i * 1e-6, -46.6, speed,
        JSON.stringify({ odometer: Math.round(odometer), totalDistance: Math.round(odometer), hours: i * 1000, motion: speed > 0.01 }));
      const id = Number(info.lastInsertRowid);
      if (i === 0) segmentStart = { id, t };
      segmentMax = Math.max(segmentMax, speed);
      // Close a segment every PER_SEGMENT positions, except the open one at the end.
      if (i > 0 && i % PER_SEGMENT === 0 && i < N - PER_SEGMENT) {
        insertSegment.run(deviceId, segments % 2 ? 'stop' : 'trip', segmentStart.t, t, t + 180_000, segmentStart.id, id, segmentStart.id, id, segmentMax);
        segments++;
        segmentStart = { id, t };
        segmentMax = speed; // the boundary position opens the next segment too
      }
    }
  })();
  raw.pragma('optimize');
  raw.close();
  console.log(`loaded ${N.toLocaleString('en')} positions and ${segments.toLocaleString('en')} segments in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const [dev] = await devicesByIds(db, [deviceId]);
  const options = summaryOptions(dev!, {});
  const from = T0 - 1000;
  const to = T0 + N * 1000;
  console.log(`summary of one device over ${N.toLocaleString('en')} positions (${((to - from) / 86_400_000).toFixed(1)} days):`);
  const fast = await time('fast path (edges + segments)', () => summaryFast(db, dev!, from, to, options));
  const query = await time('edges + MAX(speed) over the range', () => summaryFast(db, dev!, from, to, options, maxSpeedByQuery));
  const scan = await time('streaming scan (oracle)', () => summaryByScan(db, dev!, from, to, options), 1);
  const inner = await time('fast path, period inside (edges mid-segment)', () => summaryFast(db, dev!, from + 123_457, to - 98_765, options));
  const innerScan = await summaryByScan(db, dev!, from + 123_457, to - 98_765, options);
  const daily = await time('daily=true, São Paulo (fast path)', async () => {
    let n = 0;
    for await (const _ of summaryRows(db, [dev!], from, to, {}, { timeZone: 'America/Sao_Paulo' }, 'fast')) n++;
    return n;
  });

  const same = JSON.stringify(fast.value) === JSON.stringify(scan.value) && JSON.stringify(query.value) === JSON.stringify(scan.value)
    && JSON.stringify(inner.value) === JSON.stringify(innerScan);
  console.log(`daily rows: ${daily.value}; maxSpeed ${fast.value?.maxSpeed} kn, distance ${fast.value?.distance} m`);
  console.log(`fast == scan: ${same ? 'yes' : 'NO'}`);
  console.log(`target < ${TARGET_MS} ms: fast path ${fast.ms < TARGET_MS ? 'met' : 'MISSED'} (${fast.ms.toFixed(1)} ms), speed-up over the scan ×${(scan.ms / fast.ms).toFixed(0)}`);
  await storage.close();
  fs.rmSync(dir, { recursive: true, force: true });
  if (!same) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(1);
});
