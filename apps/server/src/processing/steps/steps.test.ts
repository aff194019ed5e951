import { describe, expect, it } from 'vitest';
import { emptyFix } from '../../ingest/decoded.ts';
import { draftFromFix, type PositionDraft } from '../position-draft.ts';
import type { DeviceEntry } from '../device-cache.ts';
import type { Work } from '../work.ts';
import { haversineMeters } from '../haversine.ts';
import { filterInvalid } from './filter-invalid.ts';
import { fillOutdated, GPS_EPOCH_MS } from './fill-outdated.ts';
import { order } from './order.ts';
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
  it('filter-invalid drops impossible coordinates and far-future fixes, not outdated ones', () => {
    expect(run(work(pos({ latitude: 95 })), filterInvalid).dropped).toMatch(/latitude/);
    expect(run(work(pos({ longitude: Number.NaN })), filterInvalid).dropped).toMatch(/longitude/);
    expect(run(work(pos({ fixTime: NOW + 86_400_001 })), filterInvalid).dropped).toMatch(/future/);
    expect(run(work(pos({ fixTime: NOW + 86_400_000 })), filterInvalid).dropped).toBeNull();
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

  it('distance accumulates totalDistance, keeps a device distance, and leaves out-of-order fixes at 0', () => {
    const prev = pos({ latitude: 0, longitude: 0, attributes: { totalDistance: 100 } });
    const w = run(work(pos({ latitude: 0, longitude: 0.001 }), prev), order, distance);
    const d = Math.round(haversineMeters(0, 0, 0, 0.001) * 100) / 100;
    expect(w.position.attributes).toMatchObject({ distance: d, totalDistance: Math.round((100 + d) * 100) / 100 });
    const reported = run(work(pos({ attributes: { distance: 12.345 } }), prev), order, distance);
    expect(reported.position.attributes).toMatchObject({ distance: 12.35, totalDistance: 112.35 });
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
