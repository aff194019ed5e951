// Trip and stop segments: what the motion state machine's changes add up to. A segment runs
// from the position one change is dated at to the position the next change is dated at (both
// included, so consecutive segments share their boundary position). The same code turns the
// live machine's changes into stored rows (motionSegments, written with the position that
// closes them) and a report replay's changes into report items, so both give equal values.
import type { Selectable } from 'kysely';
import type { MotionSegmentTable } from '../storage/schema.ts';
import {
  createMotionMachine, type MotionConfig, type MotionMachineOptions, type MotionMachine, type MotionPoint,
} from './motion-state.ts';

/** A position as segments need it (PositionDraft fits; so does a parsed report row). */
export interface SegmentPoint extends MotionPoint {
  address: string | null;
}

/** Per-device values that shape a segment's figures but not its boundaries. */
export interface SegmentOptions {
  /** `report.ignoreOdometer`: distance from totalDistance even when the device reports `odometer`. */
  ignoreOdometer: boolean;
  /** Device attribute `fuelCapacity` (litres), for fuel given as a level percentage. */
  fuelCapacity: number | null;
}

export interface Segment<P extends SegmentPoint = SegmentPoint> {
  trip: boolean;
  start: P;
  end: P;
  /** The positions whose processing opened and closed it (the change's `by`). */
  openedBy: P;
  closedBy: P;
  /** Knots, over every position from start to end. */
  maxSpeed: number;
}

/** A segment's stored / reported figures: the motionSegments row without id and deviceId. */
export type SegmentRecord = Omit<Selectable<MotionSegmentTable>, 'id' | 'deviceId' | 'kind'> & { kind: 'trip' | 'stop' };

const num = (attrs: Record<string, unknown>, key: string): number | null => {
  const v = attrs[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};

/** Distance between two positions of one device (full precision, as Traccar), and the odometer readings used (reference A.4 common formulas). */
export function distanceBetween(first: Record<string, unknown>, last: Record<string, unknown>, ignoreOdometer: boolean) {
  const o1 = num(first, 'odometer');
  const o2 = num(last, 'odometer');
  if (!ignoreOdometer && o1 !== null && o2 !== null && o1 !== 0 && o2 !== 0) {
    return { distance: o2 - o1, startOdometer: o1, endOdometer: o2 };
  }
  const t1 = num(first, 'totalDistance') ?? 0;
  const t2 = num(last, 'totalDistance') ?? 0;
  return { distance: t2 - t1, startOdometer: t1, endOdometer: t2 };
}

/**
 * Fuel spent: fuelUsed delta, else fuel drop, else level % drop × capacity, else 0 (reference
 * A.4). Full precision, as Traccar (the summary uses it too).
 */
export function spentFuel(a: Record<string, unknown>, b: Record<string, unknown>, fuelCapacity: number | null): number {
  const u1 = num(a, 'fuelUsed');
  const u2 = num(b, 'fuelUsed');
  if (u1 !== null && u2 !== null) return u2 - u1;
  const f1 = num(a, 'fuel');
  const f2 = num(b, 'fuel');
  if (f1 !== null && f2 !== null) return f1 - f2;
  const l1 = num(a, 'fuelLevel');
  const l2 = num(b, 'fuelLevel');
  if (l1 !== null && l2 !== null && fuelCapacity !== null) return ((l1 - l2) / 100) * fuelCapacity;
  return 0;
}

export function segmentRecord(s: Segment, options: SegmentOptions): SegmentRecord {
  const a = s.start.attributes;
  const b = s.end.attributes;
  const { distance, startOdometer, endOdometer } = distanceBetween(a, b, options.ignoreOdometer);
  const d1 = a.driverUniqueId;
  const d2 = b.driverUniqueId;
  return {
    kind: s.trip ? 'trip' : 'stop',
    startTime: s.start.fixTime,
    endTime: s.end.fixTime,
    closedTime: s.closedBy.fixTime,
    startPositionId: s.start.id,
    endPositionId: s.end.id,
    openedById: s.openedBy.id,
    closedById: s.closedBy.id,
    startLat: s.start.latitude,
    startLon: s.start.longitude,
    endLat: s.end.latitude,
    endLon: s.end.longitude,
    startAddress: s.start.address,
    endAddress: s.end.address,
    distance,
    maxSpeed: s.maxSpeed,
    startOdometer,
    endOdometer,
    spentFuel: spentFuel(a, b, options.fuelCapacity),
    startHours: num(a, 'hours'),
    endHours: num(b, 'hours'),
    driverUniqueId: typeof d1 === 'string' && d1 !== '' ? d1 : typeof d2 === 'string' && d2 !== '' ? d2 : null,
  };
}

/**
 * The motion machine plus the open segment: `onSegment` gets every segment a change closes;
 * `onChange` (optional) sees the changes themselves (events). `closeOpen()` ends the open
 * segment at the last position (a report period's end).
 */
export class SegmentMachine<P extends SegmentPoint> {
  readonly machine: MotionMachine<P>;
  private openStart: P | null = null;
  private openBy: P | null = null;
  private openTrip = false;

  constructor(
    config: MotionConfig,
    private readonly onSegment: (segment: Segment<P>) => void,
    private readonly onChange?: (moving: boolean, at: P, by: P, closed: boolean) => void,
    machineOptions: MotionMachineOptions<P> = {},
  ) {
    this.machine = createMotionMachine<P>(config, (moving, at, by, closedMax) => {
      const start = this.openStart;
      if (closedMax >= 0 && start !== null) {
        this.onSegment({ trip: this.openTrip, start, end: at, openedBy: this.openBy!, closedBy: by, maxSpeed: closedMax });
      }
      this.openStart = at;
      this.openBy = by;
      this.openTrip = moving;
      this.onChange?.(moving, at, by, closedMax >= 0);
    }, machineOptions);
  }

  push(p: P): void {
    this.machine.push(p);
  }

  /** Sets the state right after `by` decided a change at `start` (see MotionMachine.prime). */
  prime(moving: boolean, start: P, by: P, maxSpeed: number, window: readonly P[]): void {
    this.machine.prime(moving, start, by, maxSpeed, window);
    this.openStart = start;
    this.openBy = by;
    this.openTrip = moving;
  }

  /** The open segment ended at the last position pushed (null when nothing was pushed). */
  openSegment(): Segment<P> | null {
    const last = this.machine.last;
    if (!this.openStart || !last) return null;
    return {
      trip: this.openTrip, start: this.openStart, end: last, openedBy: this.openBy!, closedBy: last,
      maxSpeed: this.machine.openMaxSpeed(),
    };
  }
}
