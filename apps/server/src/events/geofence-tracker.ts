// The geofences step (issue 14 item 3): which geofences a position is inside, with the
// hysteresis that makes crossings trustworthy, and the zones crossed between two fixes.
//  - candidates come from the spatial index and are intersected with the device's linked set;
//  - a geofence the previous position was inside stays in `geofenceIds` while the fix is
//    within its exit buffer (attribute `exitBuffer`, default 10 m); a new one counts once
//    fixes have been inside for its dwell time (`dwellTime`, default 0 s) — so a vehicle
//    parked on a fence line fires at most one enter and no exit storm;
//  - between the previous valid fix and this one, a zone the straight segment cuts that
//    neither fix is in is "crossed": the events step raises geofenceEnter then geofenceExit
//    (only for zones without a dwell time: a pass-through does not dwell);
//  - a fix flagged invalid (or outdated, a repeat of the last known place) keeps the
//    previous geofenceIds, so it fires nothing; an out-of-order fix gets the plain
//    containment Traccar stores and changes no state (the events step ignores it).
// The state kept per device is the last valid fix and the dwell runs in progress (memory only:
// after a restart a dwell in progress starts again; membership itself is the stored
// geofenceIds of the latest position).
import { distanceOutside, nextMembership, segmentCrossesArea } from '@rastro/domain/geofence-crossing';
import type { LatLon } from '@rastro/domain/geofence-area';
import type { PositionDraft } from '../processing/position-draft.ts';
import type { Work } from '../processing/work.ts';
import { geofenceContains, type CachedGeofence, type GeofenceCache } from './geofence-cache.ts';

interface DeviceTrack {
  /** The last valid, in-order fix. */
  last: LatLon | null;
  /** geofenceId -> fixTime the current run inside began, while its dwell is not over. */
  pending: Map<number, number>;
}

const NONE: readonly number[] = [];

function usable(p: PositionDraft): boolean {
  return p.valid && !p.outdated;
}

function altitudeOk(g: CachedGeofence, altitude: number): boolean {
  return (g.floor === 0 || altitude >= g.floor) && (g.ceiling === 0 || altitude <= g.ceiling);
}

export class GeofenceTracker {
  private readonly devices = new Map<number, DeviceTrack>();
  /** Zones crossed between the previous valid fix and this position (read by the events step). */
  private readonly crossings = new WeakMap<PositionDraft, number[]>();

  constructor(private readonly cache: GeofenceCache) {}

  /** The geofences crossed on the way to this position (ascending id), none when not tracked. */
  crossed(position: PositionDraft): readonly number[] {
    return this.crossings.get(position) ?? NONE;
  }

  track(work: Work): void {
    const { position: p, previous, entry } = work;
    if (!work.latest) {
      p.geofenceIds = this.cache.containing(entry.id, entry, p);
      return;
    }
    if (!usable(p)) {
      p.geofenceIds = previous?.geofenceIds ? [...previous.geofenceIds] : null;
      return;
    }
    let state = this.devices.get(entry.id);
    if (!state) {
      state = { last: previous && usable(previous) ? [previous.latitude, previous.longitude] : null, pending: new Map() };
      this.devices.set(entry.id, state);
    }
    const from = state.last;
    const to: LatLon = [p.latitude, p.longitude];
    state.last = to;

    const { ids: linked } = this.cache.linked(entry.id, entry);
    const before = previous?.geofenceIds ?? NONE;
    if (linked.size === 0) {
      p.geofenceIds = null;
      state.pending.clear();
      return;
    }
    const index = this.cache.index;
    const raw = new Set<number>();
    for (const id of index.candidates(p.latitude, p.longitude)) {
      if (linked.has(id) && geofenceContains(this.cache.byId(id)!, p.latitude, p.longitude, p.altitude)) raw.add(id);
    }
    const inside: number[] = [];
    for (const id of before) {
      const g = this.cache.byId(id);
      if (!g || !linked.has(id)) continue; // deleted or unlinked: no longer inside
      const outsideBy = () => (altitudeOk(g, p.altitude) ? distanceOutside(g.area, p.latitude, p.longitude, g.polylineDistance) : Infinity);
      if (nextMembership({ inside: true, pendingSince: null }, raw.has(id), outsideBy, p.fixTime, g.hysteresis).inside) inside.push(id);
    }
    for (const id of raw) {
      if (before.includes(id)) continue;
      const g = this.cache.byId(id)!;
      const m = nextMembership({ inside: false, pendingSince: state.pending.get(id) ?? null }, true, () => 0, p.fixTime, g.hysteresis);
      if (m.inside) {
        inside.push(id);
        state.pending.delete(id);
      } else state.pending.set(id, m.pendingSince ?? p.fixTime);
    }
    for (const id of state.pending.keys()) if (!raw.has(id)) state.pending.delete(id);
    p.geofenceIds = inside.length > 0 ? inside.sort((a, b) => a - b) : null;

    if (!from || (from[0] === to[0] && from[1] === to[1])) return;
    let crossed: number[] | null = null;
    for (const id of index.candidatesAlong(from, to)) {
      if (!linked.has(id) || raw.has(id) || before.includes(id) || inside.includes(id)) continue;
      const g = this.cache.byId(id)!;
      if (g.hysteresis.dwellMs > 0) continue;
      if (segmentCrossesArea(g.area, from, to, g.polylineDistance)) (crossed ??= []).push(id);
    }
    if (crossed) this.crossings.set(p, crossed.sort((a, b) => a - b));
  }
}
