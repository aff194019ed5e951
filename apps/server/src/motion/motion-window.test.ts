import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PositionDraft } from '../processing/position-draft.ts';
import { createMotionMachine, MOTION_DEFAULTS } from './motion-state.ts';
import { MotionWindow, PACKED_NUMBERS, type WindowFix } from './motion-window.ts';
import { segmentRecord, type Segment, type SegmentPoint } from './segments.ts';

type Live = PositionDraft | WindowFix;

const draft = (id: number | null, fixTime = 8, attributes: Record<string, unknown> = {}): PositionDraft => ({
  id, deviceId: 3, protocol: 'gt06', serverTime: 10, deviceTime: 9, fixTime, outdated: false, valid: true,
  latitude: -23.5, longitude: -46.6, altitude: 700, speed: 12, course: 90, accuracy: 5,
  network: { radioType: 'gsm', cellTowers: [{ cellId: 1, locationAreaCode: 2, mobileCountryCode: 724, mobileNetworkCode: 5 }] } as PositionDraft['network'],
  attributes: { totalDistance: 1234.5, odometer: 99, hours: 3_600_000, ignition: true, motion: true, sat: 9, rssi: 4, io200: 'x'.repeat(200), ...attributes },
  address: 'Rua A, 1', geofenceIds: [4],
});

describe('MotionWindow (the live motion window)', () => {
  it('keeps a position not stored yet as the caller\'s object: a change dated at it finds it in its flush by identity', () => {
    const w = new MotionWindow<Live>();
    const stored = draft(1, 1);
    const pending = draft(null, 2);
    const after = draft(3, 3);
    w.append(stored);
    w.append(pending);
    w.append(after);
    w.pack(3);
    // Packing stops at the first position not stored: positions are stored in order.
    expect(w.point(0)).not.toBe(stored);
    expect(w.point(1)).toBe(pending);
    expect(w.point(2)).toBe(after);
    expect(w.holds(1, pending)).toBe(true);
    expect(w.holds(0, stored)).toBe(false);
    pending.id = 2;
    w.pack(3);
    expect(w.point(1)).not.toBe(pending);
    expect(w.point(2)).not.toBe(after);
  });

  it('keeps what a change dated at a packed position needs and drops the rest', () => {
    const w = new MotionWindow<Live>();
    w.append(draft(42, 8, { driverUniqueId: 'D-7', fuel: 'n/a', fuelUsed: Number.NaN }));
    w.pack(1);
    expect(w.point(0)).toEqual({
      id: 42, fixTime: 8, latitude: -23.5, longitude: -46.6, speed: 12, address: 'Rua A, 1',
      attributes: { totalDistance: 1234.5, odometer: 99, hours: 3_600_000, driverUniqueId: 'D-7' },
    });
    const bare = new MotionWindow<Live>();
    bare.append({ ...draft(5), address: null, attributes: { driverUniqueId: '' } });
    bare.pack(1);
    expect(bare.point(0)).toMatchObject({ id: 5, address: null, attributes: {} });
  });

  it('a segment dated at packed positions has the figures of one dated at the positions themselves', () => {
    const value = fc.oneof(
      fc.double({ noNaN: false }), fc.integer(), fc.constant(undefined), fc.constant(null), fc.string({ maxLength: 3 }), fc.boolean(),
    );
    const attrs = fc.record(Object.fromEntries([...PACKED_NUMBERS, 'driverUniqueId', 'motion'].map((k) => [k, value])) as Record<string, typeof value>);
    const point = fc.record({
      lat: fc.double({ min: -90, max: 90, noNaN: true }), lon: fc.double({ min: -180, max: 180, noNaN: true }),
      speed: fc.double({ min: 0, max: 300, noNaN: true }), address: fc.option(fc.string({ maxLength: 5 })), attrs,
    });
    fc.assert(fc.property(fc.array(point, { minLength: 2, maxLength: 40 }), fc.boolean(), fc.double({ min: 0, max: 500, noNaN: true }), (points, ignoreOdometer, capacity) => {
      const w = new MotionWindow<Live>();
      const given = points.map((p, i) => {
        const attributes: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(p.attrs)) if (v !== undefined) attributes[k] = v;
        const d: PositionDraft = { ...draft(i + 1, 1000 * i), latitude: p.lat, longitude: p.lon, speed: p.speed, address: p.address, attributes };
        w.append(d);
        // Packed a few at a time: keys appear in the device's life, and get their column then.
        if (i % 3 === 0) w.pack(w.size);
        return d;
      });
      w.pack(points.length);
      for (let i = 0; i < points.length; i++) {
        const packed = w.point(i);
        const original = given[i]!;
        expect([packed.id, packed.fixTime, packed.latitude, packed.longitude, packed.speed, packed.address])
          .toEqual([original.id, original.fixTime, original.latitude, original.longitude, original.speed, original.address]);
        expect([w.fixTime(i), w.latitude(i), w.longitude(i), w.speed(i)]).toEqual([original.fixTime, original.latitude, original.longitude, original.speed]);
        const j = (i * 7) % points.length;
        const segment = <Q extends SegmentPoint>(a: Q, b: Q): Segment<Q> => ({ trip: true, start: a, end: b, openedBy: a, closedBy: b, maxSpeed: 1 });
        const options = { ignoreOdometer, fuelCapacity: capacity > 0 ? capacity : null };
        expect(segmentRecord(segment<SegmentPoint>(packed, w.point(j)), options)).toEqual(segmentRecord(segment<SegmentPoint>(original, given[j]!), options));
      }
    }), { numRuns: 200 });
  });

  it('grows with a burst and gives the memory back once trimmed, keeping order and numbering', () => {
    const w = new MotionWindow<Live>();
    for (let i = 1; i <= 2000; i++) {
      w.append(draft(i, i * 1000));
      w.pack(w.size - 1);
    }
    expect(w.slots).toBeGreaterThanOrEqual(2000);
    expect(w.slots).toBeLessThan(3000);
    expect(w.seqAt(0)).toBe(1);
    while (w.size > 10) w.dropOldest();
    w.shrink();
    expect(w.slots).toBeLessThanOrEqual(15);
    expect(w.seqAt(0)).toBe(1991);
    expect(Array.from({ length: 10 }, (_, i) => w.point(i).id)).toEqual(Array.from({ length: 10 }, (_, i) => 1991 + i));
    expect(w.point(9)).toMatchObject({ fixTime: 2_000_000 });
    w.clear();
    expect([w.size, w.slots, w.lastSeq]).toEqual([0, 8, 2000]);
    expect(w.append(draft(null))).toBe(2001);
  });

  it('a live machine whose positions are stored a few pushes late dates changes at the positions themselves while they wait', () => {
    // Positions along a line: parked, then driving away at 10 m/s, reported every 10 s.
    const points: PositionDraft[] = [];
    for (let t = 0; t <= 900; t += 10) {
      const x = t <= 600 ? 0 : (t - 600) * 10;
      points.push({ ...draft(null, t * 1000), latitude: x / 111_319.49, longitude: 0, speed: t <= 600 ? 0 : 19.4, attributes: { totalDistance: x } });
    }
    for (const lag of [0, 1, 3]) {
      const dated: Array<{ moving: boolean; at: Live; stored: boolean }> = [];
      const m = createMotionMachine<Live>(MOTION_DEFAULTS, (moving, at) => dated.push({ moving, at, stored: at.id !== null }), { initialMoving: false, compactStored: true });
      points.forEach((p, i) => {
        p.id = null;
        m.push(p);
        // The writer stores positions in order, `lag` pushes behind.
        for (let k = 0; k <= i - lag; k++) points[k]!.id ??= k + 1;
      });
      const start = dated.find((d) => d.moving)!;
      expect(start.at.fixTime).toBe(600_000);
      // Not stored when the change was dated at it: the very object, for the writer's flush.
      if (!start.stored) expect(points).toContain(start.at);
      else expect(start.at).toMatchObject({ id: 61, attributes: { totalDistance: 0 } });
    }
  });
});
