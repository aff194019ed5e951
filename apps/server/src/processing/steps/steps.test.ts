import { describe, expect, it } from 'vitest';
import { emptyFix } from '../../ingest/decoded.ts';
import { draftFromFix, type PositionDraft } from '../position-draft.ts';
import type { DeviceEntry } from '../device-cache.ts';
import type { Work } from '../work.ts';
import { haversineMeters } from '../haversine.ts';
import { filterInvalid } from './filter-invalid.ts';
import { fillOutdated, GPS_EPOCH_MS } from './fill-outdated.ts';
import { order, orderStep } from './order.ts';
import { engineHours } from './engine-hours.ts';
import { deviceClockStep } from './device-clock.ts';
import { DEFAULT_CLOCK_SETTINGS, DEFAULT_FUTURE_MS, clockSettings, type ClockSettings } from './clock-settings.ts';
import { AttributeLookup } from '../../events/attribute-lookup.ts';
import { Changes } from '../../realtime/changes.ts';
import { parseTimeZone } from '../../device-clock/time-zone.ts';
import { distance } from './distance.ts';
import { motion } from './motion.ts';

const NOW = 1_700_000_000_000;

function pos(over: Partial<PositionDraft> = {}): PositionDraft {
  return { ...draftFromFix(emptyFix('test', NOW), 1, NOW), ...over, attributes: { ...(over.attributes ?? {}) } };
}

function work(position: PositionDraft, previous: PositionDraft | null = null): Work {
  return { entry: {} as DeviceEntry, position, previous, latest: false, events: [], dropped: null, now: NOW };
}

function run(w: Work, ...steps: Array<{ run(w: Work): unknown }>): Work {
  for (const s of steps) if (!w.dropped) s.run(w);
  return w;
}

describe('haversine', () => {
  it('uses the 6,378,137 m radius', () => {
    expect(haversineMeters(0, 0, 0, 1)).toBeCloseTo((Math.PI / 180) * 6_378_137, 6);
    expect(haversineMeters(10, 10, 10, 10)).toBe(0);
  });
});

describe('processing steps', () => {
  it('filter-invalid drops impossible coordinates, not outdated positions nor future fixes', () => {
    expect(run(work(pos({ latitude: 95 })), filterInvalid).dropped).toMatch(/latitude/);
    expect(run(work(pos({ longitude: Number.NaN })), filterInvalid).dropped).toMatch(/longitude/);
    expect(run(work(pos({ fixTime: NOW + 2 * 86_400_000 })), filterInvalid).dropped).toBeNull();
    expect(run(work(pos({ outdated: true, latitude: Number.NaN })), filterInvalid).dropped).toBeNull();
  });

  it('fill-outdated copies the last fix, or uses the GPS epoch without one', () => {
    const last = pos({ fixTime: NOW - 5000, latitude: 5, longitude: 6, altitude: 7, speed: 8, course: 9, accuracy: 10, valid: false });
    const w = run(work(pos({ outdated: true, deviceTime: NOW }), last), fillOutdated);
    expect(w.position).toMatchObject({ fixTime: NOW - 5000, deviceTime: NOW, latitude: 5, longitude: 6, altitude: 7, speed: 8, course: 9, accuracy: 10, valid: false });
    const none = run(work(pos({ outdated: true })), fillOutdated);
    expect(none.position).toMatchObject({ fixTime: GPS_EPOCH_MS, valid: false, latitude: 0, longitude: 0 });
    const fresh = run(work(pos({ latitude: 1 }), last), fillOutdated);
    expect(fresh.position.latitude).toBe(1);
  });

  it('order: latest unless the fix is older than the previous one (equal counts as latest)', () => {
    const prev = pos({ fixTime: NOW });
    expect(run(work(pos({ fixTime: NOW - 1 }), prev), order).latest).toBe(false);
    expect(run(work(pos({ fixTime: NOW }), prev), order).latest).toBe(true);
    expect(run(work(pos({ fixTime: 0 })), order).latest).toBe(true);
  });

  it('order: a fix dated beyond filter.future (default 10 min) ahead of the server is never the latest', () => {
    expect(DEFAULT_FUTURE_MS).toBe(600_000);
    const prev = pos({ fixTime: NOW - 60_000 });
    expect(run(work(pos({ fixTime: NOW + 600_000 }), prev), order).latest).toBe(true);
    expect(run(work(pos({ fixTime: NOW + 600_001 }), prev), order).latest).toBe(false);
    expect(run(work(pos({ fixTime: NOW + 8 * 3_600_000 })), order).latest).toBe(false);
    const strict = orderStep(() => ({ ...DEFAULT_CLOCK_SETTINGS, futureMs: 1000 }));
    expect(run(work(pos({ fixTime: NOW + 1001 }), prev), strict).latest).toBe(false);
    const off = orderStep(() => ({ ...DEFAULT_CLOCK_SETTINGS, futureMs: Number.POSITIVE_INFINITY }));
    expect(run(work(pos({ fixTime: NOW + 86_400_000 }), prev), off).latest).toBe(true);
  });

  it('distance accumulates totalDistance, keeps a device distance, and leaves out-of-order fixes at 0', () => {
    const prev = pos({ latitude: 0, longitude: 0, attributes: { totalDistance: 100 } });
    const w = run(work(pos({ latitude: 0, longitude: 0.001 }), prev), order, distance);
    // Full precision, as Traccar (no rounding: totals would drift from Traccar's).
    const d = haversineMeters(0, 0, 0, 0.001);
    expect(w.position.attributes).toMatchObject({ distance: d, totalDistance: 100 + d });
    const reported = run(work(pos({ attributes: { distance: 12.345 } }), prev), order, distance);
    expect(reported.position.attributes).toMatchObject({ distance: 12.345, totalDistance: 112.345 });
    const old = run(work(pos({ fixTime: NOW - 10, latitude: 1 }), pos({ attributes: { totalDistance: 50 } })), order, distance);
    expect(old.position.attributes).toMatchObject({ distance: 0, totalDistance: 50 });
    const first = run(work(pos()), order, distance);
    expect(first.position.attributes).toMatchObject({ distance: 0, totalDistance: 0 });
  });

  it('motion from speed above 0.01 kn unless the device said so', () => {
    expect(run(work(pos({ speed: 0.011 })), motion).position.attributes.motion).toBe(true);
    expect(run(work(pos({ speed: 0.01 })), motion).position.attributes.motion).toBe(false);
    expect(run(work(pos({ speed: 30, attributes: { motion: false } })), motion).position.attributes.motion).toBe(false);
  });
});

describe('engine-hours', () => {
  const H = 3_600_000;
  // Two hours ago onwards: none of these fixes is in the future.
  const at = (ms: number, attributes: Record<string, unknown>) => pos({ deviceTime: NOW - 2 * H + ms, fixTime: NOW - 2 * H + ms, attributes });
  const hoursOf = (w: Work) => w.position.attributes.hours;

  it('adds the deviceTime elapsed while ignition is on at both ends, from the previous hours', () => {
    expect(hoursOf(run(work(at(H, { ignition: true }), at(0, { ignition: true, hours: 5000 })), order, engineHours))).toBe(5000 + H);
    // Ignition off at either end: the counter is carried, not increased.
    expect(hoursOf(run(work(at(H, { ignition: false }), at(0, { ignition: true, hours: 5000 })), order, engineHours))).toBe(5000);
    expect(hoursOf(run(work(at(H, { ignition: true }), at(0, { ignition: false, hours: 5000 })), order, engineHours))).toBe(5000);
    // No hours before: counting starts at 0.
    expect(hoursOf(run(work(at(H, { ignition: true }), at(0, { ignition: true })), order, engineHours))).toBe(H);
  });

  it('starts devices that report ignition at 0, leaves devices without ignition alone', () => {
    expect(hoursOf(run(work(at(0, { ignition: false })), order, engineHours))).toBe(0);
    expect(hoursOf(run(work(at(0, { ignition: true })), order, engineHours))).toBe(0);
    expect(run(work(at(0, {})), order, engineHours).position.attributes).not.toHaveProperty('hours');
    expect(run(work(at(H, {}), at(0, {})), order, engineHours).position.attributes).not.toHaveProperty('hours');
  });

  it('keeps the hours a device reports itself', () => {
    expect(hoursOf(run(work(at(H, { ignition: true, hours: 42 }), at(0, { ignition: true, hours: 5000 })), order, engineHours))).toBe(42);
  });

  it('out-of-order positions carry the latest counter without adding', () => {
    const w = run(work(at(-H, { ignition: true }), at(0, { ignition: true, hours: 5000 })), order, engineHours);
    expect(w.latest).toBe(false);
    expect(hoursOf(w)).toBe(5000);
  });

  it('an hour of reports with ignition on adds up to an hour', () => {
    let previous: PositionDraft | null = null;
    for (let s = 0; s <= 3600; s += 60) {
      const w = run(work(at(s * 1000, { ignition: true }), previous), order, engineHours);
      previous = w.position;
    }
    expect(previous!.attributes.hours).toBe(H);
  });
});

describe('device-clock', () => {
  const settings = (zoneText: string | null): ClockSettings => ({ ...DEFAULT_CLOCK_SETTINGS, zoneText, zone: parseTimeZone(zoneText) });
  const wall = Date.UTC(2024, 4, 1, 9, 30, 0);

  it("corrects device-clock dates with decoder.timezone and leaves UTC dates alone", () => {
    const step = deviceClockStep(() => settings('America/Sao_Paulo'));
    const local = run(work(pos({ clock: 'device', deviceTime: wall, fixTime: wall })), step).position;
    expect(local).toMatchObject({ fixTime: wall + 3 * 3_600_000, deviceTime: wall + 3 * 3_600_000, clock: 'utc' });
    const utc = run(work(pos({ deviceTime: wall, fixTime: wall })), step).position;
    expect(utc.fixTime).toBe(wall);
    const fixed = run(work(pos({ clock: 'device', deviceTime: wall, fixTime: wall })), deviceClockStep(() => settings('GMT+8'))).position;
    expect(fixed.fixTime).toBe(wall - 8 * 3_600_000);
  });

  it('without decoder.timezone (or with a value it does not understand) reads the dates as UTC', () => {
    for (const text of [null, 'Mars/Olympus']) {
      const p = run(work(pos({ clock: 'device', deviceTime: wall, fixTime: wall })), deviceClockStep(() => settings(text))).position;
      expect(p.fixTime).toBe(wall);
    }
  });

  it('reads decoder.timezone and filter.future from the device, then its groups, then the configuration', () => {
    const lookup = new AttributeLookup({ changes: new Changes() } as unknown as ConstructorParameters<typeof AttributeLookup>[0], { 'filter.future': 120 });
    lookup.load([{ id: 7, groupId: null, attributes: { 'decoder.timezone': 'GMT-3', 'filter.future': 30 } }], {});
    const of = clockSettings(lookup);
    const bare = { json: { attributes: {}, groupId: null } } as unknown as DeviceEntry;
    expect(of(bare)).toMatchObject({ futureMs: 120_000, zone: null, zoneText: null });
    const grouped = { json: { attributes: {}, groupId: 7 } } as unknown as DeviceEntry;
    expect(of(grouped)).toMatchObject({ futureMs: 30_000, zoneText: 'GMT-3', zone: { kind: 'fixed', offsetMs: -3 * 3_600_000 } });
    const own = { json: { attributes: { 'decoder.timezone': 'Asia/Shanghai', 'filter.future': 0 }, groupId: 7 } } as unknown as DeviceEntry;
    expect(of(own)).toMatchObject({ futureMs: Number.POSITIVE_INFINITY, zoneText: 'Asia/Shanghai', zone: { kind: 'named', id: 'Asia/Shanghai' } });
  });
});
