import { describe, expect, it } from 'vitest';
import { DEMO_FLEET, type DemoVehicle } from './fleet.ts';
import { haversineMeters, normaliseCourse } from './geo.ts';
import { ROAD_SPEEDS, routeByKey, SP_ROUTES } from './sp-routes.ts';
import { OVERSPEED_KMH, VehicleSim, osmandQuery, type Report } from './vehicle-sim.ts';

/** Small deterministic generator (mulberry32) so runs are repeatable. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const vehicle = (uniqueId: string): DemoVehicle => DEMO_FLEET.find((v) => v.uniqueId === uniqueId)!;

function drive(v: DemoVehicle, seconds: number, stepS = 5, seed = 42): { sim: VehicleSim; reports: Report[] } {
  const t0 = 1_700_000_000_000;
  const sim = new VehicleSim(v, routeByKey(v.route), t0, seeded(seed));
  const reports: Report[] = [];
  for (let t = stepS; t <= seconds; t += stepS) reports.push(sim.step(t0 + t * 1000));
  return { sim, reports };
}

describe('demo vehicle simulation', () => {
  it('stays on its route and points along it', () => {
    for (const v of DEMO_FLEET) {
      const { sim, reports } = drive(v, 3600);
      for (const r of reports) {
        const along = sim.line.locate([r.latitude, r.longitude]);
        const onLine = sim.line.at(along);
        expect(haversineMeters([r.latitude, r.longitude], [onLine.latitude, onLine.longitude]), v.uniqueId).toBeLessThan(1);
        // Course is the segment's bearing, or its reverse when driving back.
        const diff = Math.abs(normaliseCourse(r.course - onLine.course));
        expect(Math.min(diff, Math.abs(diff - 180), 360 - diff), v.uniqueId).toBeLessThan(1);
      }
    }
  });

  it('drives at speeds that fit the road and the vehicle', () => {
    const truck = drive(vehicle('demo-003'), 4 * 3600).reports; // truck on the Marginal
    const car = drive(vehicle('demo-004'), 4 * 3600).reports; // pickup on the Marginal
    const bus = drive(vehicle('demo-002'), 4 * 3600).reports; // bus on Paulista
    expect(Math.max(...truck.map((r) => r.speedKmh))).toBeLessThanOrEqual(80);
    expect(Math.max(...car.map((r) => r.speedKmh))).toBeLessThanOrEqual(ROAD_SPEEDS.expressway.max);
    expect(Math.max(...car.map((r) => r.speedKmh))).toBeGreaterThan(75);
    expect(Math.max(...bus.map((r) => r.speedKmh))).toBeLessThanOrEqual(50);
    for (const v of DEMO_FLEET) {
      for (const r of drive(v, 1800).reports) expect(r.speedKmh).toBeGreaterThanOrEqual(0);
    }
  });

  it('moves as far as its speed says between reports', () => {
    const { sim, reports } = drive(vehicle('demo-004'), 600, 1);
    let checked = 0;
    for (let i = 1; i < reports.length; i++) {
      const a = reports[i - 1]!;
      const b = reports[i]!;
      if (a.speedKmh === 0 || b.speedKmh === 0 || a.course !== b.course) continue; // stops, turns
      const moved = Math.abs(sim.line.locate([b.latitude, b.longitude]) - sim.line.locate([a.latitude, a.longitude]));
      expect(moved).toBeCloseTo(b.speedKmh / 3.6, 0);
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('parks with the ignition off, waits at lights with it on, then drives on', () => {
    const { reports } = drive(vehicle('demo-001'), 8 * 3600);
    const parked = reports.filter((r) => !r.ignition);
    expect(parked.length).toBeGreaterThan(0);
    for (const r of parked) expect(r.speedKmh).toBe(0);
    const idling = reports.filter((r) => r.ignition && r.speedKmh === 0);
    expect(idling.length).toBeGreaterThan(0);
    expect(reports.at(-1)!.time).toBeGreaterThan(reports[0]!.time);
    // Stops end: most of the time is spent driving.
    expect(reports.filter((r) => r.speedKmh > 0).length).toBeGreaterThan(reports.length / 2);
    // Engine running shows a charging voltage, parked the battery's.
    expect(Math.min(...reports.filter((r) => r.ignition).map((r) => r.power))).toBeGreaterThan(13);
    expect(Math.max(...parked.map((r) => r.power))).toBeLessThan(12.7);
  });

  it('raises overspeed only when fast, and SOS rarely', () => {
    const all = DEMO_FLEET.flatMap((v) => drive(v, 6 * 3600, 5, 7).reports);
    const overspeed = all.filter((r) => r.alarm === 'overspeed');
    expect(overspeed.length).toBeGreaterThan(0);
    for (const r of overspeed) expect(r.speedKmh).toBeGreaterThan(OVERSPEED_KMH);
    const sos = all.filter((r) => r.alarm === 'sos').length;
    expect(sos).toBeLessThan(all.length / 500);
  });

  it('every route is driven by some vehicle, and the fleet is varied', () => {
    const used = new Set(DEMO_FLEET.map((v) => v.route));
    for (const r of SP_ROUTES) expect(used.has(r.key), r.key).toBe(true);
    expect(DEMO_FLEET).toHaveLength(12);
    expect(new Set(DEMO_FLEET.map((v) => v.category)).size).toBeGreaterThanOrEqual(6);
    expect(new Set(DEMO_FLEET.map((v) => v.name)).size).toBe(12);
    expect(new Set(DEMO_FLEET.map((v) => v.plate)).size).toBe(12);
    for (const v of DEMO_FLEET) {
      expect(v.uniqueId).toMatch(/^demo-\d{3}$/);
      expect(v.plate).toMatch(/^[A-Z]{3}\d[A-Z]\d{2}$/); // Mercosul
    }
  });
});

describe('OsmAnd report', () => {
  const report: Report = {
    time: 1_700_000_000_123, latitude: -23.5614, longitude: -46.6559, course: 47.25, speedKmh: 100,
    ignition: true, alarm: null, power: 13.8, satellites: 10,
  };

  it('is the query form with speed in knots, course as bearing and a millisecond timestamp', () => {
    const q = osmandQuery('demo-001', report);
    expect(q.get('id')).toBe('demo-001');
    expect(q.get('timestamp')).toBe('1700000000123');
    expect(q.get('lat')).toBe('-23.561400');
    expect(q.get('lon')).toBe('-46.655900');
    expect(q.get('speed')).toBe('54.00');
    expect(q.get('bearing')).toBe('47.3');
    expect(q.get('ignition')).toBe('true');
    expect(q.get('power')).toBe('13.80');
    expect(q.has('alarm')).toBe(false);
  });

  it('carries an alarm and ignition off when set', () => {
    const q = osmandQuery('demo-002', { ...report, ignition: false, alarm: 'sos', speedKmh: 0 });
    expect(q.get('alarm')).toBe('sos');
    expect(q.get('ignition')).toBe('false');
    expect(q.get('speed')).toBe('0.00');
  });
});
