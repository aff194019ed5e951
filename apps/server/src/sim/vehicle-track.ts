// What one simulated tracker reports: a demo vehicle (demo/vehicle-sim.ts) driving a São Paulo
// route, plus what the tracker itself adds: an odometer, and the engine cut. A cut vehicle
// coasts to a stop where it was and stays there, ignition off, until the engine is resumed.
import { DEMO_FLEET, type DemoVehicle } from '../demo/fleet.ts';
// eslint-disable-next-line no-restricted-imports -- São Paulo street geometry, not HTTP routes
import { SP_ROUTES, routeByKey } from '../demo/sp-routes.ts';
import { VehicleSim } from '../demo/vehicle-sim.ts';
import type { TrackerFix } from './encoders/encoder.ts';

/** The demo's altitude for São Paulo (as its OsmAnd reports say). */
const ALTITUDE_M = 760;

export class VehicleTrack {
  blocked = false;
  private odometer: number;
  private lastTime: number;
  private last: TrackerFix | null = null;

  constructor(
    private readonly sim: VehicleSim,
    now: number,
    odometer = 0,
  ) {
    this.lastTime = now;
    this.odometer = odometer;
  }

  /** The vehicle at `now` (advances it). */
  next(now: number): TrackerFix {
    // A cut engine: the vehicle stays where it stopped (once it has a place at all).
    if (this.blocked && this.last) return this.at(now);
    const r = this.sim.step(now);
    // The vehicle sim never steps more than 30 s at once (no teleport after a pause): nor does the odometer.
    this.odometer += (r.speedKmh / 3.6) * Math.min(30, Math.max(0, (now - this.lastTime) / 1000));
    this.lastTime = now;
    this.last = {
      time: now, latitude: r.latitude, longitude: r.longitude, altitude: ALTITUDE_M, course: r.course, speedKmh: r.speedKmh,
      satellites: r.satellites, ignition: r.ignition, blocked: false, alarm: r.alarm, power: r.power, odometer: this.odometer,
    };
    return this.blocked ? this.at(now) : { ...this.last };
  }

  /** Where the vehicle is at `now` without advancing it (a heartbeat, a command reply). */
  at(now: number): TrackerFix {
    const base = this.last ?? this.next(now);
    return this.blocked
      ? { ...base, time: now, speedKmh: 0, ignition: false, blocked: true, alarm: null }
      : { ...base, time: now, alarm: null };
  }
}

/**
 * Simulated vehicle number `index`: the demo fleet's vehicles and routes taken in turn, each
 * starting at its own point of its route (so a hundred trackers do not drive in a column).
 */
export function vehicleTrack(index: number, uniqueId: string, now: number, random: () => number = Math.random): VehicleTrack {
  const template = DEMO_FLEET[index % DEMO_FLEET.length]!;
  const route = index < DEMO_FLEET.length ? routeByKey(template.route) : SP_ROUTES[index % SP_ROUTES.length]!;
  const vehicle: DemoVehicle = { ...template, uniqueId, route: route.key, start: random(), forward: random() < 0.5 };
  return new VehicleTrack(new VehicleSim(vehicle, route, now, random), now, Math.floor(random() * 80_000_000));
}
