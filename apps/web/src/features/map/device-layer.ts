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
/** Animate only at street-level zooms (further out a move is a few pixels, and most markers sit in clusters) ... */
export const ANIMATE_MIN_ZOOM = 12;
/** ... while at most this many markers are in view ... */
export const ANIMATE_MAX_IN_VIEW = 2_000;
/** ... and the whole set is small enough for the worker to re-index every frame. */
export const ANIMATE_MAX_TOTAL = 5_000;
export const TRAIL_LENGTH = 100;
/**
 * Least time between two source updates. Each update makes the map rebuild its tiles and
 * repaint; batching positions for a moment costs a little latency and saves most of the
 * repaints (on weak or software-rendered GPUs a repaint is the expensive part).
 */
export const MIN_FLUSH_INTERVAL_MS = 500;
/**
 * The interval also adapts to the machine: the main thread's long animation frames are summed
 * over the last seconds, and while they exceed BUSY_TARGET of the time the interval grows (up to
 * MAX_FLUSH_INTERVAL_MS); when there is room again it shrinks back. On a real GPU a repaint is a
 * few ms and updates go out every 500 ms; with software rendering (~100 ms per repaint on two
 * cores) they are spaced so that the page stays responsive.
 */
export const MAX_FLUSH_INTERVAL_MS = 1_800;
export const BUSY_TARGET = 0.35;
const BUSY_WINDOW_MS = 3_000;
/** An update that never shows as drawn (e.g. the map is hidden) stops blocking the next after this. */
const FLIGHT_TIMEOUT_MS = 4_000;
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
  anim: { from: [number, number]; to: [number, number]; start: number; positionId: number } | null;
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
  private lastFlushAt = -Infinity;
  private flightTimer: ReturnType<typeof setTimeout> | null = null;
  /** Current least interval between updates (adapted to the main thread's load). */
  private intervalMs: number;
  private frameLoad: Array<{ end: number; duration: number }> = [];
  private loadObserver: PerformanceObserver | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
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
    private readonly minFlushIntervalMs = MIN_FLUSH_INTERVAL_MS,
  ) {
    this.intervalMs = minFlushIntervalMs;
    this.observeLoad();
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
    if (this.flushTimer !== null) clearTimeout(this.flushTimer);
    this.loadObserver?.disconnect();
    if (this.flightTimer !== null) clearTimeout(this.flightTimer);
  }

  /** Where a device's marker is now (for tests and the follow camera). */
  markerOf(id: number): Marker | undefined {
    return this.entries.get(id)?.marker;
  }

  private schedule(): void {
    if (this.frame === null) this.frame = requestAnimationFrame((now) => this.tick(now));
  }

  /**
   * Works out and sends the changes, at most once per frame and only when the previous update
   * is on screen and the least interval has passed: until then changes just pile up as dirty
   * flags (store objects are compared by identity, so intermediate positions cost nothing).
   */
  private tick(now: number): void {
    this.frame = null;
    if (this.inFlight) return; // landed() schedules the next tick
    const wait = this.animating.size > 0 ? 0 : this.lastFlushAt + this.adaptInterval() - performance.now();
    if (wait > 0) {
      this.flushTimer ??= setTimeout(() => {
        this.flushTimer = null;
        this.schedule();
      }, wait);
      return;
    }
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
      this.note(position!.id);
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
          entry.anim = { from: entry.shown, to, start: now, positionId: position!.id };
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
    // An animated move counts as drawn when the marker arrives (see stepAnimations).
    if (positionChanged && !entry.anim) this.note(position!.id);
    if (isMove) this.onSelectedMoved(id, marker);
  }

  /** Positions of the next update, kept only while a probe listens. */
  private note(positionId: number): void {
    if (this.probe) this.pendingPositionIds.push(positionId);
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
    if (this.entries.size > ANIMATE_MAX_TOTAL || this.map.getZoom() < ANIMATE_MIN_ZOOM) return false;
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
        this.note(anim.positionId);
        entry.anim = null;
        this.animating.delete(id);
      }
    }
  }

  /** Sends what is pending as one diff, unless the previous one is still being processed. */
  private flush(): void {
    if (this.inFlight) return;
    if (this.pendingAdd.size === 0 && this.pendingRemove.size === 0 && this.pendingUpdate.size === 0) return;
    this.lastFlushAt = performance.now();
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
    // The next update waits until this one is on screen (worker done, tiles rebuilt, frame
    // drawn): sending earlier would restart the tile rebuild and nothing would ever be drawn.
    const finish = () => {
      flight.done = true;
      this.flights.push(flight);
      this.map.triggerRepaint();
      this.flightTimer = setTimeout(() => this.landed(), FLIGHT_TIMEOUT_MS);
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
    if (this.flights.length === 0) return;
    if (!this.map.isSourceLoaded(DEVICES_SOURCE)) return;
    const drawnAt = performance.now();
    const keep: Flight[] = [];
    for (const f of this.flights) {
      if (f.done && this.deviceTileLoads > f.tileLoadsAtSend) this.drawn(f, drawnAt);
      else keep.push(f);
    }
    this.flights = keep;
  };

  /** Updates that touched no visible tile are drawn (they were never going to change a pixel). */
  private readonly onIdle = () => {
    if (this.flights.length === 0) return;
    const now = performance.now();
    for (const f of this.flights) if (f.done) this.drawn(f, now);
    this.flights = this.flights.filter((f) => !f.done);
  };

  private drawn(flight: Flight, at: number): void {
    this.probe?.drawn(flight.positionIds, flight.appliedAt, at);
    this.landed();
  }

  private landed(): void {
    if (this.flightTimer !== null) clearTimeout(this.flightTimer);
    this.flightTimer = null;
    this.inFlight = false;
    this.schedule();
  }

  /** Long animation frames (Chromium) or long tasks elsewhere: how busy the main thread is. */
  private observeLoad(): void {
    if (typeof PerformanceObserver === 'undefined') return;
    const types = PerformanceObserver.supportedEntryTypes ?? [];
    const type = types.includes('long-animation-frame') ? 'long-animation-frame' : types.includes('longtask') ? 'longtask' : null;
    if (!type) return;
    this.loadObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) this.frameLoad.push({ end: e.startTime + e.duration, duration: e.duration });
    });
    this.loadObserver.observe({ type, buffered: false });
  }

  /** The least interval to use now: longer while the main thread is over its budget. */
  private adaptInterval(): number {
    const now = performance.now();
    const from = now - BUSY_WINDOW_MS;
    while (this.frameLoad.length > 0 && this.frameLoad[0]!.end < from) this.frameLoad.shift();
    let busy = 0;
    for (const f of this.frameLoad) busy += Math.min(f.duration, f.end - from);
    const load = busy / BUSY_WINDOW_MS;
    if (load > BUSY_TARGET) this.intervalMs = Math.min(MAX_FLUSH_INTERVAL_MS, this.intervalMs * 1.3);
    else if (load < BUSY_TARGET * 0.6) this.intervalMs = Math.max(this.minFlushIntervalMs, this.intervalMs / 1.3);
    return this.intervalMs;
  }

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
