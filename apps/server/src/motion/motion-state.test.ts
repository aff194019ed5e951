import { describe, expect, it } from 'vitest';
import { createMotionMachine, MOTION_DEFAULTS, resolveMotionConfig, type MotionConfig, type MotionPoint } from './motion-state.ts';

const M_PER_DEG = (Math.PI / 180) * 6_378_137;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);

interface P extends MotionPoint {
  id: number;
}

/** A track builder: positions every `step` s along a north-south line (x = metres north). */
class Track {
  readonly points: P[] = [];
  t = 0;
  x = 0;
  total = 0;
  private id = 0;
  add(attrs: Record<string, unknown> = {}, speed?: number): this {
    const prev = this.points[this.points.length - 1];
    const d = prev ? Math.abs(this.x - (prev.latitude * M_PER_DEG)) : 0;
    this.total += d;
    this.points.push({
      id: ++this.id,
      fixTime: T0 + this.t * 1000,
      latitude: this.x / M_PER_DEG,
      longitude: 0,
      speed: speed ?? 0,
      attributes: { distance: d, totalDistance: this.total, motion: (speed ?? 0) > 0.01, ...attrs },
    });
    return this;
  }
  park(seconds: number, step = 10, jitter = 0): this {
    const base = this.x;
    for (let s = 0; s < seconds; s += step) {
      this.t += step;
      this.x = base + (jitter ? (((this.id * 7919) % 13) / 12 - 0.5) * 2 * jitter : 0);
      this.add({}, 0);
    }
    this.x = base;
    return this;
  }
  drive(seconds: number, mps: number, step = 10): this {
    for (let s = 0; s < seconds; s += step) {
      this.t += step;
      this.x += mps * step;
      this.add({}, mps / 0.514444);
    }
    return this;
  }
  gap(seconds: number, metres: number): this {
    this.t += seconds;
    this.x += metres;
    this.add({}, 0);
    return this;
  }
  at(t: number): P {
    return this.points.find((p) => p.fixTime === T0 + t * 1000)!;
  }
}

interface Change {
  moving: boolean;
  at: number;
  by: number;
  closedMax: number;
}

function run(config: MotionConfig, points: readonly P[]): Change[] {
  const out: Change[] = [];
  const m = createMotionMachine<P>(config, (moving, at, by, closedMax) => out.push({ moving, at: at.id, by: by.id, closedMax }));
  for (const p of points) m.push(p);
  return out;
}

function runMachine(config: MotionConfig, points: readonly P[]) {
  const m = createMotionMachine<P>(config, () => undefined);
  for (const p of points) m.push(p);
  return m;
}

const sec = (track: Track, id: number) => (track.points[id - 1]!.fixTime - T0) / 1000;

describe('resolveMotionConfig', () => {
  it('takes the first source holding the key, parses strings, keeps defaults, converts seconds', () => {
    const c = resolveMotionConfig([
      { 'report.trip.minDistance': '300' },
      { 'report.trip.minDistance': 100, 'report.trip.newLogic': 'false', 'report.trip.minDuration': 60 },
      null,
      { 'report.trip.useIgnition': true, 'report.trip.stopGap': 'bad' },
    ]);
    expect(c).toEqual({
      ...MOTION_DEFAULTS, minDistance: 300, newLogic: false, minDuration: 60_000, useIgnition: true,
    });
    expect(resolveMotionConfig([])).toEqual(MOTION_DEFAULTS);
  });
});

describe('new logic', () => {
  const cfg = MOTION_DEFAULTS;

  it('opens with the first position, back-dates a start, confirms a stop minDuration after stillness', () => {
    const t = new Track().add().park(600).drive(600, 10).park(900);
    const changes = run(cfg, t.points);
    expect(changes[0]).toMatchObject({ moving: false, at: 1, by: 1, closedMax: -1 });
    expect(changes.slice(1).map((c) => [c.moving, sec(t, c.at), sec(t, c.by)])).toEqual([
      [true, 600, 620], // left the parking spot: 200 m from it at 620 s, dated at the last still position
      // The last point 200 m away is at 1180 s. Each position is judged against the window as it
      // stood after the previous one (Traccar), so 1180 s leaves it only at 1380 s.
      [false, 1380, 1380],
    ]);
    expect(changes[1]!.closedMax).toBe(0);
    expect(changes[2]!.closedMax).toBeCloseTo(10 / 0.514444, 6);
  });

  // The two cases a Traccar server answered differently before (reference answers world-1):
  // reports every 2 minutes, as many trackers send.
  it('a drive reported every 2 min ends when Traccar ends it: 6 min after the last move, not 4', () => {
    const t = new Track().add().park(960, 120).drive(1440, 222 / 120, 120).park(1080, 120);
    const changes = run(cfg, t.points).slice(1);
    expect(changes.map((c) => [c.moving, sec(t, c.at) / 60, sec(t, c.by) / 60])).toEqual([
      [true, 16, 18], // 222 m at 18 min: dated at the last still position
      [false, 46, 46], // last move at 40 min: at 44 the position of 38 min is still in the window
    ]);
  });

  function creep(): Track {
    // A vehicle reporting 12 kn that covers only 94 m every 2 minutes (a crawl in traffic).
    const t = new Track();
    t.add({}, 12);
    for (let i = 0; i < 29; i++) {
      t.t += 120;
      t.x += 94;
      t.add({}, 12);
    }
    return t;
  }

  it('a slow crawl keeps moving: 281 m in 6 min stays a trip (no stop every 4 minutes)', () => {
    const t = creep();
    // Live: first heard while moving, it starts stopped and moves once it has gone 200 m.
    const live: Change[] = [];
    const m = createMotionMachine<P>(cfg, (moving, at, by, closedMax) => live.push({ moving, at: at.id, by: by.id, closedMax }), { initialMoving: false });
    for (const p of t.points) m.push(p);
    expect(live.map((c) => [c.moving, sec(t, c.at) / 60, sec(t, c.by) / 60])).toEqual([[false, 0, 0], [true, 4, 6]]);
    // Report replay (initial state from the first position's motion): one short stop, then one trip.
    const replay = run(cfg, t.points);
    expect(replay.map((c) => [c.moving, sec(t, c.at) / 60, sec(t, c.by) / 60])).toEqual([[true, 0, 0], [false, 4, 4], [true, 8, 10]]);
  });

  it('a window that packs its stored positions decides exactly as one keeping the positions', () => {
    const tracks = [
      new Track().add().park(600).drive(600, 10).park(900),
      new Track().add().park(300).drive(300, 10).park(120).drive(300, 10).park(600),
      new Track().add().park(600).gap(7200, 50_000).park(600),
      creep(),
    ];
    let packedAt = 0;
    for (const t of tracks) {
      const given = new Set<P>(t.points);
      const out: Change[] = [];
      const m = createMotionMachine<P>(cfg, (moving, at, by, closedMax) => {
        if (!given.has(at)) packedAt++;
        out.push({ moving, at: at.id, by: by.id, closedMax });
      }, { compactStored: true });
      for (const p of t.points) m.push(p);
      expect(out).toEqual(run(cfg, t.points));
      expect(m.openMaxSpeed()).toBe(runMachine(cfg, t.points).openMaxSpeed());
    }
    // Changes were dated at packed entries (back-dated starts).
    expect(packedAt).toBeGreaterThan(0);
  });

  it('ignores GPS jitter while parked', () => {
    const t = new Track().add().park(3600, 10, 60);
    expect(run(cfg, t.points)).toHaveLength(1);
  });

  it('a short stop (< minDuration) stays inside one trip; a long one splits it', () => {
    const short = new Track().add().park(300).drive(300, 10).park(120).drive(300, 10).park(600);
    expect(run(cfg, short.points).slice(1).map((c) => c.moving)).toEqual([true, false]);
    const long = new Track().add().park(300).drive(300, 10).park(600).drive(300, 10).park(600);
    expect(run(cfg, long.points).slice(1).map((c) => c.moving)).toEqual([true, false, true, false]);
  });

  it('a long gap with a jump is a trip: moving at the position before it, stopped at the one after', () => {
    const t = new Track().add().park(600).gap(7200, 50_000).park(600);
    const changes = run(cfg, t.points).slice(1);
    expect(changes.map((c) => [c.moving, sec(t, c.at), sec(t, c.by)])).toEqual([
      [true, 600, 7800],
      [false, 7800, 7800],
    ]);
    // While moving: a stop at the position before the gap first.
    const m = new Track().add().park(300).drive(600, 10).gap(7200, 50_000).park(600);
    const moving = run(cfg, m.points).slice(1);
    expect(moving.map((c) => c.moving)).toEqual([true, false, true, false]);
    expect(moving[1]!.at).toBe(moving[2]!.at);
    // A gap without a jump (parked, switched off) changes nothing.
    expect(run(cfg, new Track().add().park(600).gap(7200, 0).park(600).points)).toHaveLength(1);
  });

  it('a machine started mid-track joins the full one once settled', () => {
    const t = new Track().add().park(600).drive(600, 10).park(900).drive(300, 5).park(400).drive(900, 20).park(600);
    const full = run(cfg, t.points);
    let joinedAny = 0;
    for (const from of [5, 70, 100, 130, 200]) {
      const out: Change[] = [];
      const m = createMotionMachine<P>(cfg, (moving, at, by, closedMax) => {
        out.push({ moving, at: at.id, by: by.id, closedMax });
        if (m.settled) (out[out.length - 1] as Change & { settled?: boolean }).settled = true;
      });
      for (const p of t.points.slice(from)) m.push(p);
      const joined = out.findIndex((c) => (c as { settled?: boolean }).settled && full.some((f) => f.at === c.at && f.by === c.by && f.moving === c.moving));
      if (joined < 0) continue;
      const k = full.findIndex((f) => f.at === out[joined]!.at && f.by === out[joined]!.by && f.moving === out[joined]!.moving);
      expect(out.slice(joined + 1).map(({ moving, at, by, closedMax }) => ({ moving, at, by, closedMax }))).toEqual(full.slice(k + 1));
      joinedAny++;
    }
    expect(joinedAny).toBeGreaterThan(2);
  });

  it('prime() continues exactly like the machine that decided the change', () => {
    const t = new Track().add().park(600).drive(600, 10).park(900).drive(300, 5).park(400).drive(900, 20).park(600);
    const full = run(cfg, t.points);
    for (const c of full.slice(1)) {
      const by = t.points[c.by - 1]!;
      const start = t.points[c.at - 1]!;
      const window = t.points.slice(0, c.by).filter((p) => p.fixTime >= by.fixTime - cfg.minDuration - 10_000);
      const maxSpeed = Math.max(...t.points.slice(c.at - 1, c.by).map((p) => p.speed));
      const out: Change[] = [];
      const m = createMotionMachine<P>(cfg, (moving, at, b, closedMax) => out.push({ moving, at: at.id, by: b.id, closedMax }));
      m.prime(c.moving, start, by, maxSpeed, window);
      expect(m.openMaxSpeed()).toBe(maxSpeed);
      for (const p of t.points.slice(c.by)) m.push(p);
      const k = full.lastIndexOf(c);
      expect(out).toEqual(full.slice(k + 1).filter((f) => f.by > c.by));
    }
  });
});

describe('old logic', () => {
  const cfg: MotionConfig = { ...MOTION_DEFAULTS, newLogic: false };

  it('confirms a start after minimalTripDuration, dated at the candidate; a short flip is discarded', () => {
    const t = new Track().add().park(600).drive(60, 10).park(120).drive(600, 10).park(600);
    const changes = run(cfg, t.points).slice(1);
    // 60 s at 10 m/s = 600 m ≥ minimalTripDistance: confirmed by distance.
    expect(changes[0]).toMatchObject({ moving: true });
    expect(sec(t, changes[0]!.at)).toBe(610);
    const short = new Track().add().park(600).drive(30, 5).park(600);
    expect(run(cfg, short.points)).toHaveLength(1);
  });

  it('confirms a stop after minimalParkingDuration, or at once with useIgnition and ignition off', () => {
    const t = new Track().add().park(300).drive(900, 10).park(600);
    const changes = run(cfg, t.points).slice(1);
    expect(changes.map((c) => [c.moving, sec(t, c.at), sec(t, c.by)])).toEqual([
      [true, 310, 360],
      [false, 1210, 1510],
    ]);
    expect(changes[1]!.closedMax).toBeCloseTo(10 / 0.514444, 6);
    const ign = new Track().add().park(300).drive(900, 10);
    ign.t += 10;
    ign.add({ ignition: false }, 0);
    ign.park(600);
    const withIgnition = run({ ...cfg, useIgnition: true }, ign.points).slice(1);
    expect(withIgnition.map((c) => [c.moving, sec(ign, c.at), sec(ign, c.by)])).toEqual([
      [true, 310, 360],
      [false, 1210, 1210],
    ]);
  });

  it('a data gap during a trip stops it at the last position before the gap', () => {
    const t = new Track().add().park(300).drive(600, 10);
    const last = t.t;
    t.t += 4000;
    t.add({}, 20);
    t.drive(300, 10).park(600);
    const changes = run(cfg, t.points).slice(1);
    expect(changes[1]).toMatchObject({ moving: false });
    expect(sec(t, changes[1]!.at)).toBe(last);
    expect(changes[2]).toMatchObject({ moving: true });
  });
});
