// The trips state machine (reference A.4 / A.5): one per device, fed positions in order, it
// decides when the device starts and stops moving. The same code runs live (deviceMoving /
// deviceStopped events and the stored trip/stop segments) and in report replays, so both
// always agree.
//
// API
//   resolveMotionConfig(sources)        -> MotionConfig. `sources` = attribute objects in lookup
//                                          order (device, group, parent group, grandparent, server);
//                                          the first one holding a key wins, else the default
//                                          (MOTION_DEFAULTS). Keys: report.trip.newLogic (true),
//                                          report.trip.minDistance (200 m), .minDuration (180 s),
//                                          .stopGap (3600 s), .minimalTripDistance (500 m),
//                                          .minimalTripDuration (300 s), .minimalParkingDuration
//                                          (300 s), .minimalNoDataDuration (3600 s), .useIgnition
//                                          (false), report.ignoreOdometer (false). Durations are
//                                          returned in ms.
//   createMotionMachine(config, onChange) -> MotionMachine<P> for any P extends MotionPoint
//                                          (PositionDraft fits; so does a parsed report row).
//   machine.push(p)                        feed the next position (fixTime order, never older
//                                          than the previous one: callers skip late positions).
//   onChange(moving, at, by, closedMax)    called synchronously from push:
//        moving     the new state (true = deviceMoving / a trip opens, false = deviceStopped /
//                   a stop opens);
//        at         the position the change is dated at (the event's position; may be an
//                   earlier position of the window — new logic back-dates starts, old logic
//                   dates at the candidate);
//        by         the position being processed when the change was decided;
//        closedMax  max speed (knots) of the segment this change closes, from its first to its
//                   last position (`at`), both included; -1 on the machine's very first position,
//                   which opens the first segment without closing one.
//   machine.moving / openStart / openBy    the state and the open segment (start position and
//                                          the position that decided it).
//   machine.openMaxSpeed()                 max speed of the open segment so far (knots).
//   machine.settled                        true once the state no longer depends on where the
//                                          machine started: after a real change, with a window
//                                          that covers minDuration (new logic). Two machines fed
//                                          the same positions that report the same change (same
//                                          at/by) while settled are identical from then on —
//                                          report fast paths rely on this to join stored segments.
//   machine.prime(moving, start, by, maxSpeed, window)
//                                          sets the state right after `by` decided a change at
//                                          `start` (restoring the live state, continuing after a
//                                          stored segment). `window`: positions up to `by`
//                                          (included, fixTime order) covering minDuration before
//                                          it (the newest older one included); `maxSpeed` = max
//                                          speed from `start` to `by`.
//
// Allocation: push() allocates nothing in the steady state (the window is a ring of numbers
// with the caller's objects beside them, motion-window.ts; only a change dated at a packed
// entry makes an object).
import { haversineMeters } from '../processing/haversine.ts';
import { MotionWindow, type WindowFix } from './motion-window.ts';

/** What the machine reads from a position. */
export interface MotionPoint {
  id: number | null;
  fixTime: number;
  latitude: number;
  longitude: number;
  /** Knots. */
  speed: number;
  /** `motion` (old logic input and initial state), `ignition`, `distance`, `totalDistance`. */
  attributes: Record<string, unknown>;
}

export interface MotionConfig {
  newLogic: boolean;
  /** New logic, metres. */
  minDistance: number;
  /** New logic, ms. */
  minDuration: number;
  /** New logic, ms. */
  stopGap: number;
  /** Old logic, metres. */
  minimalTripDistance: number;
  /** Old logic, ms. */
  minimalTripDuration: number;
  /** Old logic, ms. */
  minimalParkingDuration: number;
  /** Old logic, ms. */
  minimalNoDataDuration: number;
  useIgnition: boolean;
  /** Distances from `totalDistance` even when the device reports `odometer`. */
  ignoreOdometer: boolean;
}

export const MOTION_DEFAULTS: Readonly<MotionConfig> = Object.freeze({
  newLogic: true,
  minDistance: 200,
  minDuration: 180_000,
  stopGap: 3_600_000,
  minimalTripDistance: 500,
  minimalTripDuration: 300_000,
  minimalParkingDuration: 300_000,
  minimalNoDataDuration: 3_600_000,
  useIgnition: false,
  ignoreOdometer: false,
});

type AttributeSource = Readonly<Record<string, unknown>> | null | undefined;

function lookup(sources: readonly AttributeSource[], key: string): unknown {
  for (const s of sources) if (s && Object.prototype.hasOwnProperty.call(s, key) && s[key] !== null && s[key] !== '') return s[key];
  return undefined;
}

function num(sources: readonly AttributeSource[], key: string, fallback: number): number {
  const v = lookup(sources, key);
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

function bool(sources: readonly AttributeSource[], key: string, fallback: boolean): boolean {
  const v = lookup(sources, key);
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return fallback;
}

/** Trip parameters for one device: `sources` in lookup order (device, groups up the chain, server). */
export function resolveMotionConfig(sources: readonly AttributeSource[]): MotionConfig {
  const d = MOTION_DEFAULTS;
  return {
    newLogic: bool(sources, 'report.trip.newLogic', d.newLogic),
    minDistance: num(sources, 'report.trip.minDistance', d.minDistance),
    minDuration: num(sources, 'report.trip.minDuration', d.minDuration / 1000) * 1000,
    stopGap: num(sources, 'report.trip.stopGap', d.stopGap / 1000) * 1000,
    minimalTripDistance: num(sources, 'report.trip.minimalTripDistance', d.minimalTripDistance),
    minimalTripDuration: num(sources, 'report.trip.minimalTripDuration', d.minimalTripDuration / 1000) * 1000,
    minimalParkingDuration: num(sources, 'report.trip.minimalParkingDuration', d.minimalParkingDuration / 1000) * 1000,
    minimalNoDataDuration: num(sources, 'report.trip.minimalNoDataDuration', d.minimalNoDataDuration / 1000) * 1000,
    useIgnition: bool(sources, 'report.trip.useIgnition', d.useIgnition),
    ignoreOdometer: bool(sources, 'report.ignoreOdometer', d.ignoreOdometer),
  };
}

/** True when both configs make the machine behave the same (ignoreOdometer does not). */
export function sameMotionRules(a: MotionConfig, b: MotionConfig): boolean {
  return a.newLogic === b.newLogic && a.minDistance === b.minDistance && a.minDuration === b.minDuration &&
    a.stopGap === b.stopGap && a.minimalTripDistance === b.minimalTripDistance &&
    a.minimalTripDuration === b.minimalTripDuration && a.minimalParkingDuration === b.minimalParkingDuration &&
    a.minimalNoDataDuration === b.minimalNoDataDuration && a.useIgnition === b.useIgnition;
}

export type MotionChange<P> = (moving: boolean, at: P, by: P, closedMax: number) => void;

export interface MotionMachine<P extends MotionPoint> {
  readonly config: MotionConfig;
  readonly moving: boolean;
  /** First position of the open segment (null before the first push). */
  readonly openStart: P | null;
  /** The position that decided the open segment. */
  readonly openBy: P | null;
  /** The last position pushed. */
  readonly last: P | null;
  readonly settled: boolean;
  push(p: P): void;
  openMaxSpeed(): number;
  prime(moving: boolean, start: P, by: P, maxSpeed: number, window: readonly P[]): void;
}

export interface MotionMachineOptions<P extends MotionPoint = MotionPoint> {
  /**
   * The state the first position starts in. Unset: that position's own `motion` (a report
   * replay, Traccar's slow report). The live machine of a device never seen before starts
   * stopped at its first position, as Traccar's device state does: a vehicle first heard while
   * moving raises deviceMoving once it has really gone somewhere, instead of being assumed moving.
   */
  initialMoving?: boolean;
  /**
   * New logic: pack the window entries the writer has stored (motion-window.ts). The window
   * holds every position of the last minDuration (180 s: 36 per device at one report every 5 s,
   * 180 at one a second, thousands from a tracker emptying its buffer), so the live machine keeps
   * numbers instead of the positions once they are stored; a change dated at a packed entry gets
   * a WindowFix (what a segment or event dated at it reads), hence only where P admits one.
   */
  compactStored?: [WindowFix] extends [P] ? boolean : never;
}

export function createMotionMachine<P extends MotionPoint>(
  config: MotionConfig, onChange: MotionChange<P>, options: MotionMachineOptions<P> = {},
): MotionMachine<P> {
  const initial = options.initialMoving ?? null;
  return config.newLogic
    ? new NewLogic<P>(config, onChange, initial, options.compactStored === true)
    : new OldLogic<P>(config, onChange, initial);
}

const distanceOf = (a: MotionPoint, b: MotionPoint) => haversineMeters(a.latitude, a.longitude, b.latitude, b.longitude);

/** The position's own `motion` flag (set by the motion step from speed unless the device did). */
export const motionOf = (p: MotionPoint): boolean => p.attributes.motion === true;

const totalDistanceOf = (p: MotionPoint): number => {
  const v = p.attributes.totalDistance;
  return typeof v === 'number' ? v : 0;
};

/**
 * New logic: a window of recent positions; a stop is confirmed when nothing in the window is
 * `minDistance` away for `minDuration`; a start when the device left the anchor by
 * `minDistance`, back-dated through the window; long gaps with a jump count as a trip.
 */
class NewLogic<P extends MotionPoint> implements MotionMachine<P> {
  moving = false;
  openStart: P | null = null;
  openBy: P | null = null;
  last: P | null = null;
  settled = false;
  private changed = false;
  private readonly window = new MotionWindow<P>();
  /** Sequence number of openStart. */
  private startSeq = 0;
  /** Max speed of open-segment positions that already left the window. */
  private maxBefore = 0;
  private readonly minAverageSpeed: number;

  constructor(
    readonly config: MotionConfig,
    private readonly onChange: MotionChange<P>,
    private readonly initialMoving: boolean | null,
    private readonly compactStored: boolean,
  ) {
    // metres per ms
    this.minAverageSpeed = config.minDuration > 0 ? config.minDistance / config.minDuration : 0;
  }

  /** Window entry `i` as a position (a packed one is a WindowFix, which P admits when compactStored is set). */
  private at(i: number): P {
    return this.window.point(i) as P;
  }

  /** Metres from window entry `i` to `p`. */
  private distanceTo(i: number, p: MotionPoint): number {
    const w = this.window;
    return haversineMeters(w.latitude(i), w.longitude(i), p.latitude, p.longitude);
  }

  /**
   * Keeps, besides the positions of the last minDuration before `p`, the newest one older than
   * that (Traccar's window). Done after `p` was judged, so `p` is compared with the window as it
   * stood after the previous position: a stop needs one more quiet position than trimming first
   * would (a drive ends when Traccar says it does, and a slow crawl keeps moving).
   */
  private trim(p: P): void {
    const w = this.window;
    const threshold = p.fixTime - this.config.minDuration;
    if (w.size < 2 || w.fixTime(1) > threshold) return;
    do {
      if (w.seqAt(0) >= this.startSeq) {
        const s = w.speed(0);
        if (s > this.maxBefore) this.maxBefore = s;
      }
      w.dropOldest();
    } while (w.size >= 2 && w.fixTime(1) <= threshold);
    w.shrink();
  }

  private add(p: P): void {
    this.window.append(p);
    this.trim(p);
  }

  openMaxSpeed(): number {
    const w = this.window;
    let max = this.maxBefore;
    for (let i = Math.max(0, this.startSeq - w.seqAt(0)); i < w.size; i++) {
      const s = w.speed(i);
      if (s > max) max = s;
    }
    return max;
  }

  /** Switches state at window index `i`. */
  private change(moving: boolean, i: number, by: P): void {
    const w = this.window;
    let closed = this.maxBefore;
    for (let j = Math.max(0, this.startSeq - w.seqAt(0)); j <= i; j++) {
      const v = w.speed(j);
      if (v > closed) closed = v;
    }
    const at = this.at(i);
    this.moving = moving;
    this.openStart = at;
    this.openBy = by;
    this.startSeq = w.seqAt(i);
    this.maxBefore = 0;
    this.changed = true;
    this.updateSettled(by);
    this.onChange(moving, at, by, closed);
  }

  push(p: P): void {
    const prev = this.last;
    this.last = p;
    const w = this.window;
    if (prev === null) {
      this.add(p);
      this.moving = this.initialMoving ?? motionOf(p);
      this.openStart = p;
      this.openBy = p;
      this.startSeq = w.lastSeq;
      this.maxBefore = 0;
      this.onChange(this.moving, p, p, -1);
      return;
    }
    w.append(p);
    this.decide(p, prev);
    this.trim(p);
    this.updateSettled(p);
    // All but the newest (the next push reads it as `prev`): positions stored since the last push.
    if (this.compactStored) w.pack(w.size - 1);
  }

  /** The state change `p` makes, judged against the window before it (p is its newest entry). */
  private decide(p: P, prev: P): void {
    const c = this.config;
    const w = this.window;
    const newest = w.size - 1;
    const gap = p.fixTime - prev.fixTime;
    if (gap > c.stopGap) {
      const reported = p.attributes.distance;
      const jump = typeof reported === 'number' && Number.isFinite(reported) ? reported : distanceOf(prev, p);
      if (jump >= c.minDistance && jump / gap > this.minAverageSpeed) {
        if (this.moving) this.change(false, newest - 1, p);
        this.change(true, newest - 1, p);
        this.change(false, newest, p);
        return;
      }
    }
    if (this.moving) {
      let still = false;
      for (let i = 0; i < newest; i++) {
        if (this.distanceTo(i, p) >= c.minDistance) {
          still = true;
          break;
        }
      }
      if (!still && p.fixTime - w.fixTime(0) >= c.minDuration) this.change(false, newest, p);
    } else {
      const anchor = this.openStart!;
      if (distanceOf(anchor, p) >= c.minDistance) {
        let start = newest;
        for (let i = newest - 1; i >= 0; i--) {
          const t = w.fixTime(i);
          if (t <= anchor.fixTime || w.seqAt(i) <= this.startSeq) break;
          if (i < newest - 1) {
            const next = i + 1;
            const d = haversineMeters(w.latitude(i), w.longitude(i), w.latitude(next), w.longitude(next));
            const dt = w.fixTime(next) - t;
            const fast = dt <= 0 ? d > 0 : d / dt > this.minAverageSpeed;
            if (!fast) break;
          }
          start = i;
        }
        this.change(true, start, p);
      }
    }
  }

  private updateSettled(p: P): void {
    const w = this.window;
    this.settled = this.changed && w.size > 0 && w.fixTime(0) <= p.fixTime - this.config.minDuration;
  }

  prime(moving: boolean, start: P, by: P, maxSpeed: number, window: readonly P[]): void {
    const w = this.window;
    w.clear();
    this.startSeq = Number.POSITIVE_INFINITY;
    for (const p of window) this.add(p);
    if (w.size === 0 || !w.holds(w.size - 1, by)) this.add(by);
    // The start is in the window (new logic dates changes inside it); else it is older.
    this.startSeq = 0;
    for (let i = 0; i < w.size; i++) if (w.holds(i, start)) this.startSeq = w.seqAt(i);
    this.maxBefore = this.startSeq === 0 ? maxSpeed : 0;
    this.moving = moving;
    this.openStart = start;
    this.openBy = by;
    this.last = by;
    this.changed = true;
    this.updateSettled(by);
  }
}

/**
 * Old logic: the per-position `motion` flag, debounced. A flip becomes a candidate; it is
 * confirmed (dated at the candidate) after minimalTripDuration or minimalTripDistance for a
 * start, minimalParkingDuration (or ignition off with useIgnition) for a stop; a flip back
 * discards it. A gap of minimalNoDataDuration during a trip stops it at the last position.
 */
class OldLogic<P extends MotionPoint> implements MotionMachine<P> {
  moving = false;
  openStart: P | null = null;
  openBy: P | null = null;
  last: P | null = null;
  settled = false;
  /** Max speed of the open segment before the candidate. */
  private runMax = 0;
  private candidate: P | null = null;
  /** Max speed from the candidate on. */
  private candMax = 0;

  constructor(
    readonly config: MotionConfig,
    private readonly onChange: MotionChange<P>,
    private readonly initialMoving: boolean | null,
  ) {}

  openMaxSpeed(): number {
    return this.candidate ? Math.max(this.runMax, this.candMax) : this.runMax;
  }

  private change(moving: boolean, at: P, by: P, closed: number, openMax: number): void {
    this.moving = moving;
    this.openStart = at;
    this.openBy = by;
    this.runMax = openMax;
    this.candidate = null;
    this.candMax = 0;
    this.settled = true;
    this.onChange(moving, at, by, closed);
  }

  push(p: P): void {
    const prev = this.last;
    this.last = p;
    if (prev === null) {
      this.moving = this.initialMoving ?? motionOf(p);
      this.openStart = p;
      this.openBy = p;
      this.runMax = p.speed;
      this.onChange(this.moving, p, p, -1);
      return;
    }
    const c = this.config;
    if (this.moving && c.minimalNoDataDuration > 0 && p.fixTime - prev.fixTime >= c.minimalNoDataDuration) {
      // prev's speed is in runMax or candMax already.
      this.change(false, prev, p, this.openMaxSpeed(), prev.speed);
    }
    const m = motionOf(p);
    if (m === this.moving) {
      if (this.candidate) {
        if (this.candMax > this.runMax) this.runMax = this.candMax;
        this.candidate = null;
      }
      if (p.speed > this.runMax) this.runMax = p.speed;
      return;
    }
    const cand = this.candidate ?? p;
    if (this.candidate === null) {
      this.candidate = p;
      this.candMax = p.speed;
    } else if (p.speed > this.candMax) this.candMax = p.speed;
    const elapsed = p.fixTime - cand.fixTime;
    const confirmed = this.moving
      ? elapsed >= c.minimalParkingDuration || (c.useIgnition && p.attributes.ignition === false)
      : elapsed >= c.minimalTripDuration || totalDistanceOf(p) - totalDistanceOf(cand) >= c.minimalTripDistance;
    if (confirmed) this.change(!this.moving, cand, p, Math.max(this.runMax, cand.speed), this.candMax);
  }

  prime(moving: boolean, start: P, by: P, maxSpeed: number): void {
    this.moving = moving;
    this.openStart = start;
    this.openBy = by;
    this.last = by;
    this.runMax = maxSpeed;
    this.candidate = null;
    this.candMax = 0;
    this.settled = true;
  }
}
