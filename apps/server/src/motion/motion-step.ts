// The live motion step: runs the trips state machine (motion-state.ts) per device over the
// positions as they arrive, raises deviceMoving / deviceStopped (dated at the position the
// change is dated at, Traccar's rule) and hands the writer the trip/stop segments each change
// closes and the machine's new state — stored in the position's transaction (motion-write.ts).
//
// Late positions (work.latest false) neither change the state nor raise events.
// State per device lives in memory; the first message of a device after a start restores it
// from motionStates (one read per device: the open segment's start, the position that decided
// it, the window before it, then the positions after it replayed). Settings come from the
// attribute lookup (device -> groups -> server -> config -> default) and are re-read when the
// device row, a group or the server changes.
import type { AppContext } from '../context.ts';
import { attributeLookup, type AttributeLookup, type DeviceSettingsSource } from '../events/attribute-lookup.ts';
import type { DeviceEntry } from '../processing/device-cache.ts';
import { draftFromRow, type PositionDraft } from '../processing/position-draft.ts';
import type { Step, Work } from '../processing/work.ts';
import type { PositionRow } from '../positions/position-json.ts';
import { resolveMotionConfig, sameMotionRules, type MotionConfig } from './motion-state.ts';
import { SegmentMachine, type SegmentOptions } from './segments.ts';
import { loadPrimeData } from './motion-repo.ts';
import type { MotionPosition, MotionWrite } from './motion-write.ts';

/** The keys of the trips state machine and of segment figures. */
export const MOTION_KEYS = [
  'report.trip.newLogic', 'report.trip.minDistance', 'report.trip.minDuration', 'report.trip.stopGap',
  'report.trip.minimalTripDistance', 'report.trip.minimalTripDuration', 'report.trip.minimalParkingDuration',
  'report.trip.minimalNoDataDuration', 'report.trip.useIgnition', 'report.ignoreOdometer',
] as const;

/** Settings of one device: device attributes, its groups, the server, config (lookup order). */
export function deviceMotionConfig(lookup: AttributeLookup, entry: DeviceSettingsSource): MotionConfig {
  const source: Record<string, unknown> = {};
  for (const key of MOTION_KEYS) {
    const v = lookup.get(entry, key, { server: true });
    if (v !== undefined) source[key] = v;
  }
  return resolveMotionConfig([source]);
}

export function segmentOptions(config: MotionConfig, deviceAttributes: Record<string, unknown>): SegmentOptions {
  const capacity = Number(deviceAttributes.fuelCapacity);
  return { ignoreOdometer: config.ignoreOdometer, fuelCapacity: Number.isFinite(capacity) && capacity > 0 ? capacity : null };
}

const LATE_OPTIONS: SegmentOptions = { ignoreOdometer: false, fuelCapacity: null };

class DeviceMotion {
  sm: SegmentMachine<MotionPosition>;
  /** The work whose position is being pushed (outputs go there). */
  private work: Work | null = null;

  constructor(
    public config: MotionConfig,
    public options: SegmentOptions,
    public row: DeviceEntry['row'],
    public generation: number,
  ) {
    this.sm = this.machine(config);
  }

  machine(config: MotionConfig): SegmentMachine<MotionPosition> {
    return new SegmentMachine<MotionPosition>(
      config,
      (segment) => this.output().segments.push(segment),
      (moving, at, by, closed) => {
        const out = this.output();
        out.state = { moving, start: at, by };
        if (!closed) return;
        const work = this.work!;
        work.events.push({
          type: moving ? 'deviceMoving' : 'deviceStopped',
          eventTime: at.fixTime,
          geofenceId: 0,
          maintenanceId: 0,
          attributes: {},
          id: null,
          ...(at !== work.position ? { position: at } : {}),
        });
      },
      // A device heard for the first time starts stopped at that position (Traccar's device state).
      // The window packs the positions once stored: memory per device stays small however often it reports.
      { initialMoving: false, compactStored: true },
    );
  }

  private output(): MotionWrite {
    const work = this.work!;
    return (work.motion ??= { segments: [], options: this.options, state: null });
  }

  /** Pushes positions on behalf of `work` (its own position, or a catch-up after a restore). */
  push(work: Work, p: PositionDraft): void {
    this.work = work;
    try {
      this.sm.push(p);
    } finally {
      this.work = null;
    }
  }

  /** New rules: a new machine continuing the open segment (from the last position). */
  reconfigure(config: MotionConfig): void {
    const m = this.sm.machine;
    const last = m.last;
    const start = m.openStart;
    this.config = config;
    this.sm = this.machine(config);
    if (last && start) this.sm.prime(m.moving, start, last, m.openMaxSpeed(), [last]);
  }
}

export class MotionSteps {
  private readonly states = new Map<number, DeviceMotion>();
  private readonly restoring = new Map<number, Promise<DeviceMotion>>();
  private generation = 0;
  private readonly lookup: AttributeLookup;
  private started: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly ctx: AppContext) {
    this.lookup = attributeLookup(ctx);
  }

  readonly step: Step = {
    name: 'motion-events',
    run: (work) => this.run(work),
  };

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private start(): Promise<void> {
    this.started ??= this.lookup.start().then(() => {
      this.unsubscribe = this.ctx.changes.on((change) => {
        if (change.kind === 'group' || change.kind === 'server') void this.lookup.settled().then(() => this.generation++);
        else if (change.kind === 'deviceRemoved') this.states.delete(change.id);
      });
    });
    return this.started;
  }

  run(work: Work): void | Promise<void> {
    if (!work.latest) {
      // Skipped by the machine; recorded so that report replays skip it as well.
      work.motion = { segments: [], options: LATE_OPTIONS, state: null, late: true };
      return;
    }
    const state = this.states.get(work.entry.id);
    if (state) {
      this.refresh(state, work.entry);
      state.push(work, work.position);
      return;
    }
    return this.restore(work).then((restored) => restored.push(work, work.position));
  }

  private refresh(state: DeviceMotion, entry: DeviceEntry): void {
    if (state.row === entry.row && state.generation === this.generation) return;
    const config = deviceMotionConfig(this.lookup, entry);
    state.row = entry.row;
    state.generation = this.generation;
    state.options = segmentOptions(config, entry.json.attributes);
    if (!sameMotionRules(config, state.config)) state.reconfigure(config);
    else state.config = config;
  }

  private restore(work: Work): Promise<DeviceMotion> {
    const id = work.entry.id;
    let pending = this.restoring.get(id);
    if (!pending) {
      pending = this.load(work).finally(() => this.restoring.delete(id));
      this.restoring.set(id, pending);
    }
    return pending;
  }

  private async load(work: Work): Promise<DeviceMotion> {
    await this.start();
    const entry = work.entry;
    const config = deviceMotionConfig(this.lookup, entry);
    const state = new DeviceMotion(config, segmentOptions(config, entry.json.attributes), entry.row, this.generation);
    const previous = work.previous;
    const prime = await loadPrimeData(this.ctx.storage.db, entry.id, config, previous?.id ?? null);
    if (prime) {
      const toDraft = (row: PositionRow) => (row.id === prime.start.id ? start : row.id === prime.by.id ? by : draftFromRow(row));
      const start = draftFromRow(prime.start);
      const by = prime.by.id === prime.start.id ? start : draftFromRow(prime.by);
      state.sm.prime(prime.moving, start, by, prime.maxSpeed, prime.window.map(toDraft));
      for await (const chunk of prime.after()) for (const row of chunk) state.push(work, row.id === previous?.id ? previous : draftFromRow(row));
    } else if (previous && previous.id !== null) {
      // No stored state (first start with motion, or data from before it): begin at the last position.
      state.push(work, previous);
    }
    this.states.set(entry.id, state);
    return state;
  }
}

const instances = new WeakMap<AppContext, MotionSteps>();

/** The server's motion step (one per context). */
export function motionSteps(ctx: AppContext): MotionSteps {
  let steps = instances.get(ctx);
  if (!steps) instances.set(ctx, (steps = new MotionSteps(ctx)));
  return steps;
}
