// The one update path from the live store to the devices source. A Map of markers by device id
// is kept here; store changes only mark it dirty, and once per animation frame the changes are
// worked out (by object identity: the store replaces what changed) and sent with
// GeoJSONSource.updateData: only the features that moved or changed, never the whole set.
// While the map's worker is still busy with the previous update, further changes are merged
// (the latest position wins) and sent as one update when it is done, so a large fleet cannot
// build a backlog. Marker moves are animated over 500 ms (spec §9) when few markers are in view;
// otherwise they jump. Follow mode keeps the selected device centred and its last positions are
// drawn as a live trail.
import type { GeoJSONSource, GeoJSONSourceDiff, LngLatBounds, Map as MapLibre } from 'maplibre-gl';
import type { Device, Position } from '@rastro/domain/entities';
import { DEVICES_SOURCE, TRAIL_SOURCE } from './base-style.ts';
import { changedProperties, markerOf, moved, toFeature, type Marker, type MarkerFeature } from './device-features.ts';
import { getMapFocus, stopFollowing, subscribeMapFocus, type MapFocus } from './map-api.ts';

export const MOVE_ANIMATION_MS = 500;
/** Animate only while at most this many markers are in view ... */
export const ANIMATE_MAX_IN_VIEW = 2_000;
/** ... and the whole set is small enough for the worker to re-index every frame. */
export const ANIMATE_MAX_TOTAL = 5_000;
export const TRAIL_LENGTH = 100;
export const SELECT_ZOOM = 16;

export interface LiveFeed {
  devices(): Record<number, Device>;
  positions(): Record<number, Position>;
  /** Calls back with what changed; returns the unsubscribe. */
  subscribe(listener: (devicesChanged: boolean, positionsChanged: boolean) => void): () => void;
}

/** Devices allowed on the map (list filters), or null for all. */
export interface VisibilityFeed {
  get(): Set<number> | null;
  subscribe(listener: () => void): () => void;
}

/** Optional probe for tests and the benchmark: hears which positions reached the screen. */
export interface DrawProbe {
  /** Position ids applied in one source update, and when that update was drawn (performance.now()). */
  drawn(positionIds: number[], appliedAt: number, drawnAt: number): void;
}

interface Entry {
  marker: Marker;
  device: Device;
  position: Position;
  /** Where the feature is drawn now (differs from the marker while animating). */
  shown: [number, number];
  anim: { from: [number, number]; to: [number, number]; start: number } | null;
}

interface PendingUpdate {
  geometry?: [number, number];
  props?: Map<string, unknown>;
}

interface Flight {
  positionIds: number[];
  appliedAt: number;
  tileLoadsAtSend: number;
  done: boolean;
}

export class DeviceLayer {
  private readonly entries = new Map<number, Entry>();
  private readonly pendingAdd = new Map<number, MarkerFeature>();
  private readonly pendingRemove = new Set<number>();
  private readonly pendingUpdate = new Map<number, PendingUpdate>();
  private pendingPositionIds: number[] = [];
  private devicesDirty = true;
  private positionsDirty = true;
  private frame: number | null = null;
  private inFlight = false;
  private animating = new Set<number>();
  private flights: Flight[] = [];
  private deviceTileLoads = 0;
  private inViewCount = 0;
  private inViewCheckedAt = -Infinity;
  private focus: MapFocus = getMapFocus();
  private trail: Array<[number, number]> = [];
  private readonly unsubscribe: Array<() => void> = [];
  probe: DrawProbe | null = null;

  constructor(
    private readonly map: MapLibre,
    private readonly feed: LiveFeed,
    private readonly visibility: VisibilityFeed | null = null,
    private readonly selectZoom = SELECT_ZOOM,
  ) {
    this.unsubscribe.push(
      feed.subscribe((devicesChanged, positionsChanged) => {
        this.devicesDirty ||= devicesChanged;
        this.positionsDirty ||= positionsChanged;
        this.schedule();
      }),
    );
    if (visibility) {
      this.unsubscribe.push(
        visibility.subscribe(() => {
          this.devicesDirty = true;
          this.schedule();
        }),
      );
    }
    this.unsubscribe.push(subscribeMapFocus((focus) => this.onFocus(focus)));
    map.on('sourcedata', this.onSourceData);
    map.on('render', this.onRender);
    map.on('idle', this.onIdle);
    map.on('moveend', this.onMoveEnd);
    map.on('dragstart', this.onDragStart);
    this.onFocus(this.focus, true);
    this.schedule();
  }

  get size(): number {
    return this.entries.size;
  }

  destroy(): void {
    for (const u of this.unsubscribe) u();
    this.map.off('sourcedata', this.onSourceData);
    this.map.off('render', this.onRender);
    this.map.off('idle', this.onIdle);
    this.map.off('moveend', this.onMoveEnd);
    this.map.off('dragstart', this.onDragStart);
    if (this.frame !== null) cancelAnimationFrame(this.frame);
  }

  /** Where a device's marker is now (for tests and the follow camera). */
  markerOf(id: number): Marker | undefined {
    return this.entries.get(id)?.marker;
  }

  private schedule(): void {
    if (this.frame === null) this.frame = requestAnimationFrame((now) => this.tick(now));
  }

  private tick(now: number): void {
    this.frame = null;
    if (this.devicesDirty) this.reconcileAll(now);
    else if (this.positionsDirty) this.reconcilePositions(now);
    this.devicesDirty = false;
    this.positionsDirty = false;
    if (this.animating.size > 0) this.stepAnimations(now);
    this.flush();
    if (this.animating.size > 0) this.schedule();
  }

  /** Every device: adds, removals and property changes (device messages, filters, first load). */
  private reconcileAll(now: number): void {
    const devices = this.feed.devices();
    const positions = this.feed.positions();
    const allowed = this.visibility?.get() ?? null;
    for (const id of this.entries.keys()) {
      const device = devices[id];
      if (!device || (allowed && !allowed.has(id))) this.remove(id);
    }
    for (const key in devices) {
      const id = Number(key);
      if (allowed && !allowed.has(id)) continue;
      this.upsert(id, devices[id]!, positions[id], now);
    }
  }

  /** Only positions changed: compare each device's position object with the one shown. */
  private reconcilePositions(now: number): void {
    const devices = this.feed.devices();
    const positions = this.feed.positions();
    const allowed = this.visibility?.get() ?? null;
    for (const key in positions) {
      const id = Number(key);
      const position = positions[id]!;
      const entry = this.entries.get(id);
      if (entry) {
        if (entry.position !== position) this.upsert(id, entry.device, position, now);
      } else if (devices[id] && (!allowed || allowed.has(id))) {
        this.upsert(id, devices[id], position, now);
      }
    }
  }

  private upsert(id: number, device: Device, position: Position | undefined, now: number): void {
    const entry = this.entries.get(id);
    if (entry && entry.device === device && entry.position === position) return;
    const marker = markerOf(device, position);
    if (!marker) {
      if (entry) this.remove(id);
      return;
    }
    if (!entry) {
      const shown: [number, number] = [marker.longitude, marker.latitude];
      this.entries.set(id, { marker, device, position: position!, shown, anim: null });
      this.pendingRemove.delete(id);
      this.pendingUpdate.delete(id);
      this.pendingAdd.set(id, toFeature(marker));
      this.pendingPositionIds.push(position!.id);
      this.onSelectedMoved(id, marker);
      return;
    }
    const before = entry.marker;
    entry.marker = marker;
    entry.device = device;
    const positionChanged = entry.position !== position;
    entry.position = position!;
    const props = changedProperties(before, marker);
    const to: [number, number] = [marker.longitude, marker.latitude];
    const isMove = moved(before, marker);
    const added = this.pendingAdd.get(id);
    if (added) {
      // Not sent yet: send the newest state instead.
      this.pendingAdd.set(id, toFeature(marker));
      entry.shown = to;
    } else {
      if (isMove) {
        if (this.shouldAnimate(entry.shown, to)) {
          entry.anim = { from: entry.shown, to, start: now };
          this.animating.add(id);
        } else {
          entry.anim = null;
          this.animating.delete(id);
          entry.shown = to;
          this.update(id).geometry = to;
        }
      }
      if (props.length > 0) {
        const update = this.update(id);
        update.props ??= new Map();
        for (const { key, value } of props) update.props.set(key, value);
      }
    }
    if (positionChanged) this.pendingPositionIds.push(position!.id);
    if (isMove) this.onSelectedMoved(id, marker);
  }

  private update(id: number): PendingUpdate {
    let update = this.pendingUpdate.get(id);
    if (!update) this.pendingUpdate.set(id, (update = {}));
    return update;
  }

  private remove(id: number): void {
    if (!this.entries.delete(id)) return;
    this.animating.delete(id);
    this.pendingUpdate.delete(id);
    if (!this.pendingAdd.delete(id)) this.pendingRemove.add(id);
  }

  private shouldAnimate(from: [number, number], to: [number, number]): boolean {
    if (this.entries.size > ANIMATE_MAX_TOTAL) return false;
    const bounds = this.map.getBounds();
    if (!inside(bounds, from) && !inside(bounds, to)) return false;
    const now = performance.now();
    if (now - this.inViewCheckedAt > 500) {
      this.inViewCheckedAt = now;
      let count = 0;
      for (const entry of this.entries.values()) if (inside(bounds, entry.shown)) count++;
      this.inViewCount = count;
    }
    return this.inViewCount <= ANIMATE_MAX_IN_VIEW;
  }

  private stepAnimations(now: number): void {
    for (const id of this.animating) {
      const entry = this.entries.get(id);
      const anim = entry?.anim;
      if (!entry || !anim) {
        this.animating.delete(id);
        continue;
      }
      const t = Math.min(1, (now - anim.start) / MOVE_ANIMATION_MS);
      const k = t < 1 ? 1 - (1 - t) * (1 - t) : 1;
      entry.shown = t >= 1 ? anim.to : [anim.from[0] + (anim.to[0] - anim.from[0]) * k, anim.from[1] + (anim.to[1] - anim.from[1]) * k];
      this.update(id).geometry = entry.shown;
      if (t >= 1) {
        entry.anim = null;
        this.animating.delete(id);
      }
    }
  }

  /** Sends what is pending as one diff, unless the previous one is still being processed. */
  private flush(): void {
    if (this.inFlight) return;
    if (this.pendingAdd.size === 0 && this.pendingRemove.size === 0 && this.pendingUpdate.size === 0) return;
    const source = this.map.getSource<GeoJSONSource>(DEVICES_SOURCE);
    if (!source) return;
    const diff: GeoJSONSourceDiff = {};
    if (this.pendingAdd.size) diff.add = [...this.pendingAdd.values()] as GeoJSONSourceDiff['add'];
    if (this.pendingRemove.size) diff.remove = [...this.pendingRemove];
    if (this.pendingUpdate.size) {
      const update: NonNullable<GeoJSONSourceDiff['update']> = [];
      for (const [id, u] of this.pendingUpdate) {
        update.push({
          id,
          ...(u.geometry ? { newGeometry: { type: 'Point', coordinates: u.geometry } } : {}),
          ...(u.props ? { addOrUpdateProperties: [...u.props].map(([key, value]) => ({ key, value })) } : {}),
        });
      }
      diff.update = update;
    }
    this.pendingAdd.clear();
    this.pendingRemove.clear();
    this.pendingUpdate.clear();
    const flight: Flight = { positionIds: this.pendingPositionIds, appliedAt: performance.now(), tileLoadsAtSend: this.deviceTileLoads, done: false };
    this.pendingPositionIds = [];
    this.inFlight = true;
    const finish = () => {
      this.inFlight = false;
      flight.done = true;
      if (this.probe) this.flights.push(flight);
      this.map.triggerRepaint();
      this.schedule();
    };
    source.updateData(diff).then(finish, (error: unknown) => {
      // A source without ids for its features cannot take a diff: rebuild it once from the markers.
      console.warn('map: incremental update failed, rebuilding the devices source', error);
      void source
        .setData({ type: 'FeatureCollection', features: [...this.entries.values()].map((e) => toFeature(e.marker, e.shown)) })
        .then(finish, finish);
    });
  }

  private readonly onSourceData = (e: { sourceId?: string; tile?: unknown }) => {
    if (e.sourceId === DEVICES_SOURCE && e.tile) this.deviceTileLoads++;
  };

  /** A flight is drawn in the first frame after its tiles were rebuilt and the source is complete. */
  private readonly onRender = () => {
    if (this.flights.length === 0 || !this.probe) return;
    if (!this.map.isSourceLoaded(DEVICES_SOURCE)) return;
    const drawnAt = performance.now();
    const keep: Flight[] = [];
    for (const f of this.flights) {
      if (f.done && this.deviceTileLoads > f.tileLoadsAtSend) this.probe.drawn(f.positionIds, f.appliedAt, drawnAt);
      else keep.push(f);
    }
    this.flights = keep;
  };

  /** Updates that touched no visible tile are drawn (they were never going to change a pixel). */
  private readonly onIdle = () => {
    if (!this.probe || this.flights.length === 0) return;
    const now = performance.now();
    for (const f of this.flights) if (f.done) this.probe.drawn(f.positionIds, f.appliedAt, now);
    this.flights = this.flights.filter((f) => !f.done);
  };

  private readonly onMoveEnd = () => {
    this.inViewCheckedAt = -Infinity;
  };

  private readonly onDragStart = () => stopFollowing();

  // ---- selection, follow, trail ----

  private onFocus(focus: MapFocus, initial = false): void {
    const previous = this.focus;
    this.focus = focus;
    if (previous.selectedId !== focus.selectedId || initial) {
      this.trail = [];
      const entry = focus.selectedId !== null ? this.entries.get(focus.selectedId) : undefined;
      if (entry) this.trail.push([entry.marker.longitude, entry.marker.latitude]);
      this.drawTrail();
      if (this.map.getLayer('devices-selected')) this.map.setFilter('devices-selected', ['==', ['id'], focus.selectedId ?? -1]);
    }
    if (focus.selectedId === null) return;
    const entry = this.entries.get(focus.selectedId);
    if (!entry) return;
    const center: [number, number] = [entry.marker.longitude, entry.marker.latitude];
    if (focus.flyRequest !== previous.flyRequest && !initial) {
      this.map.flyTo({ center, zoom: Math.max(this.map.getZoom(), this.selectZoom), duration: 1500 });
    } else if (focus.follow && !previous.follow) {
      this.map.easeTo({ center, duration: 500 });
    }
  }

  private onSelectedMoved(id: number, marker: Marker): void {
    if (id !== this.focus.selectedId) return;
    const point: [number, number] = [marker.longitude, marker.latitude];
    const last = this.trail[this.trail.length - 1];
    if (!last || last[0] !== point[0] || last[1] !== point[1]) {
      this.trail.push(point);
      if (this.trail.length > TRAIL_LENGTH) this.trail.splice(0, this.trail.length - TRAIL_LENGTH);
      this.drawTrail();
    }
    if (this.focus.follow) this.map.easeTo({ center: point, duration: MOVE_ANIMATION_MS });
  }

  private drawTrail(): void {
    const source = this.map.getSource<GeoJSONSource>(TRAIL_SOURCE);
    if (!source) return;
    void source.setData({
      type: 'FeatureCollection',
      features: this.trail.length > 1 ? [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: this.trail } }] : [],
    });
  }
}

function inside(bounds: LngLatBounds, [lon, lat]: [number, number]): boolean {
  return lon >= bounds.getWest() && lon <= bounds.getEast() && lat >= bounds.getSouth() && lat <= bounds.getNorth();
}
