// The events engine (reference A.5): two pipeline steps and the background parts.
//  - `geofencesStep` sets the position's geofenceIds (geofences of the device and its
//    groups containing it), for every position, as Traccar's geofence handler does, with
//    the spatial index, hysteresis and segment crossings of geofence-tracker.ts;
//  - `eventsStep` runs the event handlers in Traccar's order — media, commandResult,
//    overspeed, behavior (hard acceleration / braking alarms), fuel, (motion: motion/),
//    geofence (+ geofenceCrossed with event.geofence.segmentCrossing), alarm, ignition,
//    maintenance, driver — and appends their events to work.events (the writer stores them
//    with the position, in its transaction). Out-of-order positions (work.latest false) raise
//    no event at all.
//  - status events (deviceOnline/Offline/Unknown) are raised by the pipeline and the
//    StatusMonitor through `statusEvent`; deviceInactive by the InactivityMonitor.
// Everything a handler needs per message is in memory: settings through the attribute
// lookup, geofences through the geofence cache; the only per-device run-time state is the
// overspeed episode, restored from the device row and written back (Work.deviceColumns) when
// it changes. Alarm, ignition, fuel, driver and geofence state is the previous position's
// attributes / geofenceIds, as in Traccar (restored with the device's latest position).
import type { AppContext } from '../context.ts';
import type { DeviceEntry } from '../processing/device-cache.ts';
import type { Step, Work } from '../processing/work.ts';
import { alarmEvents } from './alarm.ts';
import { behaviorEvents } from './behavior.ts';
import { attributeLookup, type AttributeLookup } from './attribute-lookup.ts';
import { noCalendars, type CalendarCheck } from './calendars.ts';
import { commandResultEvent } from './command-result.ts';
import { driverEvents } from './driver.ts';
import { fuelEvents } from './fuel.ts';
import { geofenceEvents, geofencePassEvents } from './geofence-events.ts';
import { geofenceCrossedEvents } from './geofence-crossing.ts';
import { GeofenceCache } from './geofence-cache.ts';
import { GeofenceTracker } from './geofence-tracker.ts';
import { ignitionEvents } from './ignition.ts';
import { mediaEvents } from './media.ts';
import { maintenanceEvents, noMaintenances, type MaintenanceSource } from './maintenance.ts';
import { speedLimitFor, updateOverspeed, type OverspeedState } from './overspeed.ts';

/** A device's settings the handlers read on every message, cached per device attributes + lookup version. */
interface DeviceSettings {
  json: DeviceEntry['json'];
  version: number;
  speedLimit: number;
  fuelDropThreshold: number;
  fuelIncreaseThreshold: number;
}

export class EventsEngine {
  readonly geofences: GeofenceCache;
  readonly geofenceTracker: GeofenceTracker;
  /** HOOK: calendars (calendars.ts); every moment is inside until calendars/ provides a check. */
  calendars: CalendarCheck = noCalendars;
  /** HOOK: maintenance entities (maintenance.ts); none until maintenance/ provides a source. */
  maintenances: MaintenanceSource = noMaintenances;
  private readonly overspeed = new WeakMap<DeviceEntry, OverspeedState>();
  private readonly settings = new WeakMap<DeviceEntry, DeviceSettings>();
  private readonly multiplier: number;
  private readonly minimalDurationMs: number;
  private readonly preferLowest: boolean;
  private readonly ignoreDuplicateAlerts: boolean;
  private readonly accelerationThreshold: number;
  private readonly brakingThreshold: number;
  private readonly segmentCrossing: boolean;

  constructor(
    ctx: Pick<AppContext, 'storage' | 'changes' | 'log'>,
    readonly lookup: AttributeLookup,
  ) {
    this.geofences = new GeofenceCache(ctx);
    this.geofenceTracker = new GeofenceTracker(this.geofences);
    this.multiplier = lookup.config('event.overspeed.thresholdMultiplier', 1);
    this.minimalDurationMs = lookup.config('event.overspeed.minimalDuration', 0) * 1000;
    this.preferLowest = lookup.config('event.overspeed.preferLowest', false);
    this.ignoreDuplicateAlerts = lookup.config('event.ignoreDuplicateAlerts', true);
    this.accelerationThreshold = lookup.config('event.behavior.accelerationThreshold', 0);
    this.brakingThreshold = lookup.config('event.behavior.brakingThreshold', 0);
    this.segmentCrossing = lookup.config('event.geofence.segmentCrossing', false);
  }

  async start(): Promise<void> {
    await Promise.all([this.lookup.start(), this.geofences.start()]);
  }

  stop(): void {
    this.geofences.stop();
  }

  readonly geofencesStep: Step = {
    name: 'geofences',
    run: (work) => this.geofenceTracker.track(work),
  };

  readonly eventsStep: Step = {
    name: 'events',
    run: (work) => this.detect(work),
  };

  /** The device's overspeed episode, first read from its row (hidden columns). */
  overspeedState(entry: DeviceEntry): OverspeedState {
    let state = this.overspeed.get(entry);
    if (!state) {
      const row = entry.row;
      state = {
        state: row.overspeedState === 1,
        time: row.overspeedTime === null ? null : Number(row.overspeedTime),
        geofenceId: Number(row.overspeedGeofenceId ?? 0),
      };
      this.overspeed.set(entry, state);
    }
    return state;
  }

  /** speedLimit and fuel thresholds (device -> groups -> server), recomputed when the device or the lookup changed. */
  deviceSettings(entry: DeviceEntry): DeviceSettings {
    let s = this.settings.get(entry);
    if (!s || s.json !== entry.json || s.version !== this.lookup.version) {
      s = {
        json: entry.json,
        version: this.lookup.version,
        speedLimit: this.lookup.number(entry, 'speedLimit'),
        fuelDropThreshold: this.lookup.number(entry, 'fuelDropThreshold'),
        fuelIncreaseThreshold: this.lookup.number(entry, 'fuelIncreaseThreshold'),
      };
      this.settings.set(entry, s);
    }
    return s;
  }

  detect(work: Work): void {
    const { position, previous, entry, events } = work;
    // Out-of-order positions raise nothing at all (our issue's rule, stricter than Traccar,
    // which still reports media and command results from them): a late fix must not show
    // up in the events report as something that just happened.
    if (!work.latest) return;
    mediaEvents(events, position);
    commandResultEvent(events, position);

    const settings = this.deviceSettings(entry);
    const state = this.overspeedState(entry);
    const before = state.state, beforeTime = state.time, beforeGeofence = state.geofenceId;
    const limit = speedLimitFor(position, settings.speedLimit, this.geofenceSpeedLimit, this.preferLowest);
    const overspeed = updateOverspeed(state, position, limit, this.multiplier, this.minimalDurationMs);
    if (overspeed) events.push(overspeed);
    if (state.state !== before || state.time !== beforeTime || state.geofenceId !== beforeGeofence) {
      const columns = (work.deviceColumns ??= {});
      columns.overspeedState = state.state ? 1 : 0;
      columns.overspeedTime = state.time;
      columns.overspeedGeofenceId = state.geofenceId;
    }

    behaviorEvents(events, position, previous, this.accelerationThreshold, this.brakingThreshold);
    fuelEvents(events, position, previous, settings.fuelDropThreshold, settings.fuelIncreaseThreshold);
    geofenceEvents(events, position, previous, this.geofenceInfo, this.calendars);
    geofencePassEvents(events, position, this.geofenceTracker.crossed(position), this.geofenceInfo, this.calendars);
    if (this.segmentCrossing) geofenceCrossedEvents(events, position, previous, this.geofences.forDevice(entry.id, entry), this.calendars);
    alarmEvents(events, position, previous, this.ignoreDuplicateAlerts);
    ignitionEvents(events, position, previous);
    const maintenances = this.maintenances.forDevice(entry);
    if (maintenances.length > 0) maintenanceEvents(events, position, previous, maintenances);
    driverEvents(events, position, previous);
  }

  private readonly geofenceSpeedLimit = (id: number) => this.geofences.byId(id)?.speedLimit ?? 0;
  private readonly geofenceInfo = (id: number) => this.geofences.byId(id);
}

const instances = new WeakMap<AppContext, EventsEngine>();

/** The server's events engine (created on first use; startProcessing starts it). */
export function eventsEngine(ctx: AppContext): EventsEngine {
  let engine = instances.get(ctx);
  if (!engine) instances.set(ctx, (engine = new EventsEngine(ctx, attributeLookup(ctx))));
  return engine;
}
