// The summary report (reference A.4): per device (and per day with daily=true) the first and
// last position of the period give times, distance, odometers, engine hours and fuel; the
// highest speed needs every position in between.
//
// Two ways to get that highest speed:
//  - `summaryByScan`: streams every position of the period in chunks (the oracle; slow, exact);
//  - `summaryFast`: the edges by two indexed lookups, and the highest speed from the motion
//    segments fully inside the period plus a scan of the uncovered edges only (see
//    `MaxSpeedSource`). Tests compare both.
import type { ReportSummary } from '@rastro/domain/reports';
import type { Kysely } from 'kysely';
import { knotsFromMps } from '@rastro/domain/units';
import { splitByDay, type DayPeriod } from '@rastro/domain/report-days';
import type { Database } from '../storage/schema.ts';
import type { PositionRow } from '../positions/position-json.ts';
import { parseAttributes, toIso } from '../http/json.ts';
import { maxSpeedBySegments as segmentsMaxSpeed } from '../motion/motion-report.ts';
import { distanceBetween, spentFuel } from '../motion/segments.ts';
import { edgePosition, maxSpeedIn, positionChunks, speedChunks, type ReportDevice } from './reports-repo.ts';

type Db = Kysely<Database>;

export interface SummaryItem {
  deviceId: number;
  deviceName: string;
  /** fixTime of the first and last position (epoch ms). */
  startTime: number;
  endTime: number;
  /** Metres. */
  distance: number;
  /** Knots: distance / engine hours (0 without engine hours), as Traccar. */
  averageSpeed: number;
  /** Knots. */
  maxSpeed: number;
  /** Litres. */
  spentFuel: number;
  startOdometer: number;
  endOdometer: number;
  /** Engine hours counters (ms) at both ends, and their difference. */
  startHours: number;
  endHours: number;
  engineHours: number;
}

export interface SummaryOptions {
  /** `report.ignoreOdometer`: distance from totalDistance even when the device reports an odometer. */
  ignoreOdometer: boolean;
  /** Device `fuelCapacity` (litres), to turn a fuel level percentage into litres. */
  fuelCapacity: number | null;
}

const num = (attrs: Record<string, unknown>, key: string): number | null => {
  const v = attrs[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

const truthy = (v: unknown) => v === true || v === 'true' || v === 1;

/** Per-device options: device attributes first, then the server's. */
export function summaryOptions(device: ReportDevice, serverAttributes: Record<string, unknown>): SummaryOptions {
  const attrs = parseAttributes(device.attributes);
  const ignore = attrs['report.ignoreOdometer'] ?? serverAttributes['report.ignoreOdometer'];
  const capacity = Number(attrs.fuelCapacity);
  return { ignoreOdometer: truthy(ignore), fuelCapacity: Number.isFinite(capacity) && capacity > 0 ? capacity : null };
}

/** One summary row from the period's first and last positions and its highest speed. */
export function summaryItem(device: ReportDevice, first: PositionRow, last: PositionRow, maxSpeed: number, options: SummaryOptions): SummaryItem {
  const a = parseAttributes(first.attributes);
  const b = parseAttributes(last.attributes);
  const { distance, startOdometer, endOdometer } = distanceBetween(a, b, options.ignoreOdometer);
  const h1 = num(a, 'hours');
  const h2 = num(b, 'hours');
  const hasHours = h1 !== null && h2 !== null;
  const engineHours = hasHours ? Math.round(h2 - h1) : 0;
  return {
    deviceId: device.id,
    deviceName: device.name,
    startTime: first.fixTime,
    endTime: last.fixTime,
    distance,
    averageSpeed: engineHours > 0 ? knotsFromMps(distance / (engineHours / 1000)) : 0,
    maxSpeed,
    spentFuel: spentFuel(a, b, options.fuelCapacity),
    startOdometer,
    endOdometer,
    startHours: h1 ?? 0,
    endHours: h2 ?? 0,
    engineHours,
  };
}

/** JSON of a summary row (ReportSummary, plus Traccar's extra fields). */
export function summaryToJson(item: SummaryItem): ReportSummary {
  return { ...item, startTime: toIso(item.startTime), endTime: toIso(item.endTime) };
}

/** Slow path (oracle): every position of the period streamed in chunks; memory = one chunk. */
export async function summaryByScan(db: Db, device: ReportDevice, from: number, to: number, options: SummaryOptions, chunkSize?: number): Promise<SummaryItem | null> {
  let first: PositionRow | null = null;
  let last: PositionRow | null = null;
  let maxSpeed = 0;
  for await (const chunk of positionChunks(db, device.id, from, to, { chunkSize })) {
    first ??= chunk[0]!;
    last = chunk[chunk.length - 1]!;
    for (const p of chunk) if (p.speed > maxSpeed) maxSpeed = p.speed;
  }
  return first && last ? summaryItem(device, first, last, maxSpeed, options) : null;
}

/** Where the fast path gets the highest speed of [from, to] (knots; 0 without positions). */
export type MaxSpeedSource = (db: Db, deviceId: number, from: number, to: number) => Promise<number>;

export const maxSpeedByQuery: MaxSpeedSource = async (db, deviceId, from, to) => (await maxSpeedIn(db, deviceId, from, to)) ?? 0;

/** Highest speed of a range by streaming speeds only (used for uncovered edges). */
export const maxSpeedByScan: MaxSpeedSource = async (db, deviceId, from, to) => {
  let max = 0;
  for await (const speeds of speedChunks(db, deviceId, from, to)) for (const s of speeds) if (s > max) max = s;
  return max;
};

/**
 * Highest speed from the motion segments (the motion feature's reader): the stored maxSpeed of
 * the closed segments inside [from, to], and MAX(speed) over the positions only where no
 * segment covers them (the edges, and breaks between segments). Segments share their boundary
 * positions, so a tiled stretch needs no position read at all.
 */
export const maxSpeedBySegments: MaxSpeedSource = async (db, deviceId, from, to) => (await segmentsMaxSpeed(db, deviceId, from, to)) ?? 0;

/** Fast path: two indexed edge lookups and the highest speed from `maxSpeed` (segments by default). */
export async function summaryFast(db: Db, device: ReportDevice, from: number, to: number, options: SummaryOptions, maxSpeed: MaxSpeedSource = maxSpeedBySegments): Promise<SummaryItem | null> {
  const first = await edgePosition(db, device.id, from, to, 'first');
  if (!first) return null;
  const last = (await edgePosition(db, device.id, from, to, 'last'))!;
  return summaryItem(device, first, last, await maxSpeed(db, device.id, first.fixTime, last.fixTime), options);
}

export type SummaryMode = 'fast' | 'scan';

/** Days split at once: a long period (the period limit off) gives its first rows at once, not after splitting all of it. */
const DAYS_PER_SPLIT = 40;

/** The local days of [from, to] (splitByDay's pieces), split a few weeks at a time. */
export function* localDays(from: number, to: number, timeZone: string): Generator<DayPeriod> {
  let start = from;
  for (;;) {
    const end = Math.min(to, start + DAYS_PER_SPLIT * 86_400_000);
    const days = splitByDay(start, end, timeZone);
    if (end === to) {
      yield* days;
      return;
    }
    // The window's last day may be cut short: it starts the next window instead.
    const last = days.pop()!;
    yield* days;
    start = last.from;
  }
}

/** Summary rows of the devices: one per device with positions, or one per device per local day. */
export async function* summaryRows(
  db: Db,
  devices: ReportDevice[],
  from: number,
  to: number,
  /** Server attributes (options from device, then server) or a per-device options rule. */
  settings: Record<string, unknown> | ((device: ReportDevice) => SummaryOptions),
  daily: { timeZone: string } | null,
  mode: SummaryMode = 'fast',
): AsyncGenerator<SummaryItem> {
  for (const device of devices) {
    const options = typeof settings === 'function' ? settings(device) : summaryOptions(device, settings);
    for (const p of daily ? localDays(from, to, daily.timeZone) : [{ from, to }]) {
      const item = mode === 'scan' ? await summaryByScan(db, device, p.from, p.to, options) : await summaryFast(db, device, p.from, p.to, options);
      if (item) yield item;
    }
  }
}
