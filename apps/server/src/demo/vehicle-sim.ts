// One simulated vehicle: drives its route back and forth at speeds that fit the road and the
// vehicle, waits at traffic lights (ignition on), parks now and then (ignition off), and
// rarely raises an alarm. Randomness and time come from outside so tests can pin them down.
//
// Chances are per unit of time (1 - e^(-dt/mean)), so the behaviour is the same whether the
// demo reports every 5 s or, in a test, every 100 ms.
import type { DemoVehicle } from './fleet.ts';
import { Polyline, kmhToKnots, normaliseCourse } from './geo.ts';
import { ROAD_SPEEDS, type DemoRoute } from './sp-routes.ts';

export type Phase = 'driving' | 'traffic' | 'parked';

export interface Report {
  time: number;
  latitude: number;
  longitude: number;
  /** Degrees, direction of travel. */
  course: number;
  speedKmh: number;
  ignition: boolean;
  alarm: 'sos' | 'overspeed' | null;
  /** Supply voltage: charging while the engine runs. */
  power: number;
  satellites: number;
}

/** Mean seconds of driving between two parkings, between two red lights (not on expressways). */
const PARK_EVERY_S = 15 * 60;
const LIGHT_EVERY_S = 2 * 60;
/** Mean seconds between two SOS alarms of one vehicle: rare. */
const SOS_EVERY_S = 6 * 3600;
/** Mean seconds between two changes of the speed the driver aims for. */
const NEW_TARGET_EVERY_S = 30;
/** How fast speed changes, km/h per second (about 1.4 m/s²). */
const ACCEL_KMH_PER_S = 5;
/** Above this a tracker's overspeed alarm may fire. */
export const OVERSPEED_KMH = 85;
/** Longest step simulated at once (after a pause the vehicle does not teleport). */
const MAX_STEP_S = 30;

export class VehicleSim {
  readonly line: Polyline;
  distance: number;
  forward: boolean;
  speedKmh = 0;
  targetKmh: number;
  phase: Phase = 'driving';
  private phaseUntil = 0;
  private course: number;
  private lastTime: number;

  constructor(
    readonly vehicle: DemoVehicle,
    readonly route: DemoRoute,
    now: number,
    private readonly random: () => number = Math.random,
    /** Distance along the route to start from (resume); defaults to the vehicle's start. */
    startDistance?: number,
  ) {
    this.line = new Polyline(route.points);
    this.distance = startDistance ?? vehicle.start * this.line.length;
    this.forward = vehicle.forward;
    this.course = this.travelCourse();
    this.lastTime = now;
    this.targetKmh = this.pickTarget();
    this.speedKmh = this.targetKmh;
  }

  /** Speed band here: the road's, capped by the vehicle's top speed. */
  band(): { min: number; max: number } {
    const road = ROAD_SPEEDS[this.route.road];
    const max = Math.min(road.max, this.vehicle.maxKmh);
    return { min: Math.min(road.min, max), max };
  }

  /** Advances to `now` and says what the tracker reports. */
  step(now: number): Report {
    const dt = Math.min(Math.max((now - this.lastTime) / 1000, 0), MAX_STEP_S);
    this.lastTime = now;
    let alarm: Report['alarm'] = null;

    if (this.phase !== 'driving' && now >= this.phaseUntil) {
      this.phase = 'driving';
      this.targetKmh = this.pickTarget();
    }
    if (this.phase === 'driving') {
      this.drive(dt);
      if (this.chance(dt, PARK_EVERY_S)) this.stop('parked', now, 60 + this.random() * 180);
      else if (this.route.road !== 'expressway' && this.chance(dt, LIGHT_EVERY_S)) this.stop('traffic', now, 15 + this.random() * 45);
      if (this.speedKmh > OVERSPEED_KMH && this.random() < 0.3) alarm = 'overspeed';
    }
    if (alarm === null && this.chance(dt, SOS_EVERY_S)) alarm = 'sos';

    const point = this.line.at(this.distance);
    const ignition = this.phase !== 'parked';
    const volts = this.vehicle.volts;
    return {
      time: now,
      latitude: point.latitude,
      longitude: point.longitude,
      course: this.course,
      speedKmh: this.speedKmh,
      ignition,
      alarm,
      power: round((ignition ? volts * 1.15 : volts * 1.03) + (this.random() - 0.5) * 0.2, 2),
      satellites: 8 + Math.floor(this.random() * 5),
    };
  }

  private drive(dt: number): void {
    if (this.chance(dt, NEW_TARGET_EVERY_S)) this.targetKmh = this.pickTarget();
    const delta = this.targetKmh - this.speedKmh;
    const maxChange = ACCEL_KMH_PER_S * dt;
    this.speedKmh += Math.max(-maxChange, Math.min(maxChange, delta));
    this.speedKmh = Math.max(0, Math.min(this.band().max, this.speedKmh));

    let moved = (this.speedKmh / 3.6) * dt;
    // Drive to the end, turn round, drive back: the route is walked end to end.
    while (moved > 0) {
      const room = this.forward ? this.line.length - this.distance : this.distance;
      if (moved < room) {
        this.distance += this.forward ? moved : -moved;
        moved = 0;
      } else {
        this.distance = this.forward ? this.line.length : 0;
        moved -= room;
        this.forward = !this.forward;
        if (this.line.length === 0) break;
      }
    }
    this.course = this.travelCourse();
  }

  private stop(phase: Phase, now: number, seconds: number): void {
    this.phase = phase;
    this.phaseUntil = now + seconds * 1000;
    this.speedKmh = 0;
  }

  private travelCourse(): number {
    const along = this.line.at(this.distance).course;
    return this.forward ? along : normaliseCourse(along + 180);
  }

  private pickTarget(): number {
    const { min, max } = this.band();
    return min + this.random() * (max - min);
  }

  private chance(dt: number, meanSeconds: number): boolean {
    return dt > 0 && this.random() < 1 - Math.exp(-dt / meanSeconds);
  }
}

const round = (v: number, digits: number) => Number(v.toFixed(digits));

/** The OsmAnd (Traccar Client) query form of a report: speed in knots, epoch-ms timestamp. */
export function osmandQuery(uniqueId: string, report: Report): URLSearchParams {
  const q = new URLSearchParams({
    id: uniqueId,
    timestamp: String(report.time),
    lat: report.latitude.toFixed(6),
    lon: report.longitude.toFixed(6),
    speed: kmhToKnots(report.speedKmh).toFixed(2),
    bearing: report.course.toFixed(1),
    altitude: '760',
    accuracy: '5',
    hdop: '0.9',
    sat: String(report.satellites),
    ignition: String(report.ignition),
    power: report.power.toFixed(2),
  });
  if (report.alarm) q.set('alarm', report.alarm);
  return q;
}
