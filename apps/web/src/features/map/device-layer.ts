// The vehicles on the live map: one incremental path from the socket to the screen.
//
// Why not a MapLibre source (the older design, DESIGN.md "devices = one GeoJSON source"): with a
// fleet of 50,000 moving once a second, MapLibre's single GeoJSON worker re-clusters and re-tiles
// the whole set on every update and never catches up; a symbol layer breaks past 32,768 icons per
// tile (maplibre/maplibre-gl-js#2891); and every source update costs a full WebGL repaint (100–250
// ms with software GL, see shared/reference/map-perf-probe.md). So the vehicles live here:
//   1. live store → onPositions(accepted): O(message). Each accepted position updates its
//      vehicle's entry in place and is queued as (id, world x, y, flags) typed arrays.
//   2. The queue goes to the vehicle worker (vehicle-worker.ts: VehicleIndex, O(N) grid
//      clustering of the current view only) at most once per animation frame; when nothing was
//      sent in the current frame it goes at once, so a lone message waits for nothing.
//   3. The worker answers with the items in view (clusters, single vehicles) as transferred typed
//      arrays; they are drawn on our own 2D canvas stacked over MapLibre's, in the next animation
//      frame, or inside MapLibre's `render` event while the camera moves (same frame as the map).
//      Single vehicles are drawn at their entry's latest position, so a vehicle in view moves in
//      the next frame even before the worker answered. An answer that would draw the same
//      picture (same items within half a pixel: at fleet zoom a second of driving moves a
//      cluster by less than that) draws nothing; with software rasterisation on a weak machine
//      a full canvas frame is the main thread's largest cost after the socket itself.
//      Cluster bubbles and dots are blitted from cached sprites; icons are ImageBitmaps.
//   4. MapLibre keeps only what is geographic and small: the selected vehicle's live trail.
//      Selection highlight, status ring, accuracy circle, labels and cluster bubbles are drawn
//      on the canvas with the vehicle (they must move with it in the same frame).
// Clicks and hover are hit-tested against what was drawn last (the canvas has pointer-events:
// none): a cluster zooms in, a vehicle is selected (map-api.ts). Moves of up to ANIMATE_MAX_IN_VIEW
// single vehicles in view at street zoom are animated over 500 ms (spec §9), per frame.
//
// Probe: a position counts as drawn in the animation frame after the canvas frame that drew the
// worker pass including it. A pass that changes no pixel (see 3; also a vehicle outside the view)
// is treated as drawn in the next animation frame, so it is reported one frame later, the same
// rule as for a drawn pass.
import type { GeoJSONSource, Map as MapLibre, MapMouseEvent } from 'maplibre-gl';
import type { Device, Position } from '@rastro/domain/entities';
import { STATUS_COLORS, TRAIL_SOURCE } from './base-style.ts';
import { accuracyPx0, markerOf, NO_PLATE, type Marker } from './device-features.ts';
import { ICON_PX, ImageRegistry } from './icon-images.ts';
import { getMapFocus, selectDevice, stopFollowing, subscribeMapFocus, type MapFocus } from './map-api.ts';
import { DEFAULT_MAP_PREFS, type MapPrefs } from './map-prefs.ts';
import { latToY, lonToX, ONLINE, SHOWN, TILE_PX, xToLon, yToLat, type ViewItems } from './vehicle-cluster.ts';
import { openVehicleChannel, type FromWorker, type VehicleChannel } from './vehicle-protocol.ts';

export const MOVE_ANIMATION_MS = 500;
/** Animate only at street-level zooms ... */
export const ANIMATE_MIN_ZOOM = 12;
/** ... while at most this many single vehicles are in view. */
export const ANIMATE_MAX_IN_VIEW = 2_000;
export const TRAIL_LENGTH = 100;
export const SELECT_ZOOM = 16;
/** Clusters up to this zoom (as the older layer's clusterMaxZoom). */
export const CLUSTER_MAX_ZOOM = 14;
/** Without clustering, below this zoom vehicles are dots (tens of thousands of icons say nothing at country scale). */
export const ICON_MIN_ZOOM = 12;
/** Least time between two worker passes while the camera moves (the last one follows moveend). */
const MOVE_PASS_MS = 120;
/** The worker's view reaches this share of the screen beyond each edge, so a pan has vehicles to show. */
const VIEW_MARGIN = 0.5;
/** Longest wait between worker updates (see sendInterval). */
const MAX_SEND_INTERVAL_MS = 400;
/** Most labels drawn in one frame (they are the costly part of a frame). */
const MAX_LABELS = 400;

export interface LiveFeed {
  devices(): Record<number, Device>;
  /** The latest position by device id (may be updated in place). */
  positions(): Record<number, Position>;
  /** Devices changed, or the positions record was replaced: the layer reconciles every vehicle. */
  subscribe(listener: (devicesChanged: boolean, positionsChanged: boolean) => void): () => void;
  /** The positions accepted in each batch (without it, any change reconciles every vehicle). */
  subscribePositions?(listener: (accepted: readonly Position[]) => void): () => void;
}

/** Devices allowed on the map (list filters), or null for all. */
export interface VisibilityFeed {
  get(): Set<number> | null;
  subscribe(listener: () => void): () => void;
}

/** Optional probe for tests and the benchmark: hears which positions reached the screen. */
export interface DrawProbe {
  /** Position ids first shown in one canvas frame, when they were handed to the layer, and when that frame was on screen (performance.now()). */
  drawn(positionIds: number[], appliedAt: number, drawnAt: number): void;
}

/** What the last frame drew (tests). */
export interface DrawnFrame {
  clusters: Array<{ count: number; online: number }>;
  icons: number[];
  dots: number;
  labels: string[];
  rings: number;
  precision: number;
  selected: number | null;
}

interface Entry {
  marker: Marker;
  device: Device;
  position: Position;
  x: number;
  y: number;
  shown: boolean;
  label: string;
  /** A running move animation (world coordinates). */
  anim: { fx: number; fy: number; start: number } | null;
  /** The canvas frame (DeviceLayer.frameNo) that last drew this vehicle as a single. */
  drawnIn: number;
}

/** Position ids handed over together (one store batch), sent to the worker with update `seq`. */
interface PendingProbe {
  seq: number;
  appliedAt: number;
  ids: number[];
}

/** Screen-space hit targets of the last frame. */
interface Hit {
  x: number;
  y: number;
  r: number;
  id: number;
  count: number;
  wx: number;
  wy: number;
}

export class DeviceLayer {
  private readonly entries = new Map<number, Entry>();
  private readonly channel: VehicleChannel;
  readonly images = new ImageRegistry();
  private readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D | null;
  private prefs: MapPrefs;
  private allowed: Set<number> | null = null;
  // Queue of vehicle updates for the worker.
  private qIds: number[] = [];
  private qX: number[] = [];
  private qY: number[] = [];
  private qFlags: number[] = [];
  private qRemove: number[] = [];
  private seq = 0;
  private sentThisFrame = false;
  private lastSendAt = -Infinity;
  private sendTimer: ReturnType<typeof setTimeout> | null = null;
  private sendFrame: number | null = null;
  // Latest worker answer.
  private items: ViewItems | null = null;
  private itemsSeq = 0;
  private itemsViewSeq = -1;
  private viewSeq = 0;
  private passPending = false;
  private lastViewAt = -Infinity;
  private viewTimer: ReturnType<typeof setTimeout> | null = null;
  private lastPassMs = 0;
  // Drawing.
  private drawFrame: number | null = null;
  private dirty = true;
  private animating = new Set<number>();
  private hits: Hit[] = [];
  private lastDrawn: DrawnFrame = { clusters: [], icons: [], dots: 0, labels: [], rings: 0, precision: 0, selected: null };
  private readonly labelWidths = new Map<string, number>();
  /** A vehicle drawn alone in the last frame changed since. */
  private singleMoved = false;
  /** Cluster bubbles and dots, rendered once per look and blitted (cheaper than paths and text every frame). */
  private readonly sprites = new Map<string, HTMLCanvasElement>();
  /** Counts canvas frames. */
  private frameNo = 0;
  private cssW = 0;
  private cssH = 0;
  private dpr = 1;
  // Probe.
  private probePending: PendingProbe[] = [];
  private probeReady: Array<{ group: PendingProbe; frame: number }> = [];
  private probeFrame: number | null = null;
  private sameFrame: number | null = null;
  probe: DrawProbe | null = null;
  /** A click on a vehicle: selects it (the map flies to it and follows); the shell also opens its panel. */
  onVehicleClick: (id: number) => void = (id) => selectDevice(id);
  // Selection.
  private focus: MapFocus = getMapFocus();
  private trail: Array<[number, number]> = [];
  private settleWaiters: Array<() => void> = [];
  private readonly unsubscribe: Array<() => void> = [];
  private destroyed = false;

  constructor(
    private readonly map: MapLibre,
    private readonly feed: LiveFeed,
    private readonly visibility: VisibilityFeed | null = null,
    private readonly selectZoom = SELECT_ZOOM,
    prefs: MapPrefs = DEFAULT_MAP_PREFS,
    channel: VehicleChannel = openVehicleChannel(),
  ) {
    this.prefs = prefs;
    this.channel = channel;
    this.channel.onItems = (m) => this.onItems(m);
    this.images.preload();
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'rastro-vehicles';
    this.canvas.setAttribute('aria-hidden', 'true');
    Object.assign(this.canvas.style, { position: 'absolute', left: '0', top: '0', pointerEvents: 'none' });
    map.getCanvasContainer().appendChild(this.canvas);
    this.ctx = this.canvas.getContext('2d');
    this.resize();

    this.allowed = visibility?.get() ?? null;
    this.unsubscribe.push(
      feed.subscribe((devicesChanged, positionsChanged) => {
        if (devicesChanged || positionsChanged || !feed.subscribePositions) this.reconcileAll();
      }),
    );
    if (feed.subscribePositions) this.unsubscribe.push(feed.subscribePositions((accepted) => this.onPositions(accepted)));
    if (visibility) {
      this.unsubscribe.push(
        visibility.subscribe(() => {
          this.allowed = visibility.get();
          this.reconcileAll();
        }),
      );
    }
    this.unsubscribe.push(subscribeMapFocus((focus) => this.onFocus(focus)));
    map.on('render', this.onRender);
    map.on('move', this.onMove);
    map.on('moveend', this.onMoveEnd);
    map.on('resize', this.onResize);
    map.on('dragstart', this.onDragStart);
    map.on('click', this.onClick);
    map.on('mousemove', this.onMouseMove);
    this.sendView(true);
    this.reconcileAll();
    this.onFocus(this.focus, true);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Canvas frames drawn so far (the bench reports them). */
  get frames(): number {
    return this.frameNo;
  }

  destroy(): void {
    this.destroyed = true;
    for (const u of this.unsubscribe) u();
    this.map.off('render', this.onRender);
    this.map.off('move', this.onMove);
    this.map.off('moveend', this.onMoveEnd);
    this.map.off('resize', this.onResize);
    this.map.off('dragstart', this.onDragStart);
    this.map.off('click', this.onClick);
    this.map.off('mousemove', this.onMouseMove);
    for (const f of [this.drawFrame, this.sendFrame, this.probeFrame, this.sameFrame]) if (f !== null) cancelAnimationFrame(f);
    if (this.viewTimer !== null) clearTimeout(this.viewTimer);
    if (this.sendTimer !== null) clearTimeout(this.sendTimer);
    this.channel.terminate();
    this.canvas.remove();
  }

  /** Where a device's marker is now (tests, the follow camera). */
  markerOf(id: number): Marker | undefined {
    return this.entries.get(id)?.marker;
  }

  markers(): Marker[] {
    return [...this.entries.values()].map((e) => e.marker);
  }

  /** What the last frame drew. */
  drawn(): DrawnFrame {
    return this.lastDrawn;
  }

  /** Resolves once every update sent so far was answered by the worker and drawn. */
  settled(): Promise<void> {
    if (this.isSettled()) return Promise.resolve();
    return new Promise((resolve) => this.settleWaiters.push(resolve));
  }

  private isSettled(): boolean {
    return this.qIds.length === 0 && this.qRemove.length === 0 && this.itemsSeq >= this.seq && !this.passPending && !this.dirty && this.animating.size === 0;
  }

  setPrefs(prefs: MapPrefs): void {
    this.prefs = prefs;
    for (const e of this.entries.values()) e.label = labelOf(e.marker, prefs);
    this.sendView(true);
    this.invalidate();
  }

  // ---- store → entries → worker queue ----

  /** One batch of accepted positions: O(batch). */
  private onPositions(accepted: readonly Position[]): void {
    const devices = this.feed.devices();
    const now = performance.now();
    for (const position of accepted) {
      const id = position.deviceId;
      const entry = this.entries.get(id);
      if (entry && entry.device === devices[id]) this.movePosition(entry, position, now);
      else this.upsert(id, devices[id], position, now);
    }
    this.queued();
  }

  /** Every device: adds, removals, device and filter changes (rare; O(fleet)). */
  private reconcileAll(): void {
    const devices = this.feed.devices();
    const positions = this.feed.positions();
    const now = performance.now();
    for (const [id, entry] of this.entries) {
      if (!devices[id] || !positions[id]) this.remove(id);
      else if (entry.device !== devices[id] || entry.position !== positions[id]) this.upsert(id, devices[id], positions[id], now);
      else this.setShown(entry);
    }
    for (const key in positions) {
      const id = Number(key);
      if (!this.entries.has(id) && devices[id]) this.upsert(id, devices[id], positions[id], now);
    }
    this.queued();
  }

  /** Only the position changed (the device object is the one already held). */
  private movePosition(entry: Entry, position: Position, now: number): void {
    const { latitude, longitude } = position;
    if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return;
    const m = entry.marker;
    const moved = m.latitude !== latitude || m.longitude !== longitude;
    entry.position = position;
    m.latitude = latitude;
    m.longitude = longitude;
    m.course = Number.isFinite(position.course) ? position.course : 0;
    m.acc = accuracyPx0(position.accuracy, latitude);
    if (moved) this.place(entry, now);
    if (entry.drawnIn === this.frameNo) this.singleMoved = true;
    this.enqueue(entry);
    this.note(position.id, now);
    if (moved) this.onSelectedMoved(entry);
  }

  private upsert(id: number, device: Device | undefined, position: Position | undefined, now: number): void {
    const marker = markerOf(device, position);
    if (!marker) {
      this.remove(id);
      return;
    }
    let entry = this.entries.get(id);
    const label = labelOf(marker, this.prefs);
    if (!entry) {
      entry = { marker, device: device!, position: position!, x: 0, y: 0, shown: false, label, anim: null, drawnIn: -1 };
      this.entries.set(id, entry);
      entry.x = lonToX(marker.longitude);
      entry.y = latToY(marker.latitude);
    } else {
      const moved = entry.marker.latitude !== marker.latitude || entry.marker.longitude !== marker.longitude;
      entry.marker = marker;
      entry.device = device!;
      entry.position = position!;
      entry.label = label;
      if (moved) this.place(entry, now);
    }
    this.setShown(entry, true);
    this.note(position!.id, now);
    this.onSelectedMoved(entry);
  }

  /** New world point of a moved vehicle, animated when it is drawn as a single in a close view. */
  private place(entry: Entry, now: number): void {
    const x = lonToX(entry.marker.longitude);
    const y = latToY(entry.marker.latitude);
    // Only a vehicle on screen as itself animates (one inside a cluster has nothing to move).
    if (entry.drawnIn === this.frameNo && this.map.getZoom() >= ANIMATE_MIN_ZOOM && (this.items?.n ?? Infinity) <= ANIMATE_MAX_IN_VIEW) {
      const from = this.currentPoint(entry, now);
      entry.anim = { fx: from[0], fy: from[1], start: now };
      this.animating.add(entry.marker.id);
    } else {
      entry.anim = null;
      this.animating.delete(entry.marker.id);
    }
    entry.x = x;
    entry.y = y;
  }

  private setShown(entry: Entry, force = false): void {
    const shown = !this.allowed || this.allowed.has(entry.marker.id);
    if (shown === entry.shown && !force) return;
    entry.shown = shown;
    this.enqueue(entry);
  }

  private enqueue(entry: Entry): void {
    this.qIds.push(entry.marker.id);
    this.qX.push(entry.x);
    this.qY.push(entry.y);
    this.qFlags.push((entry.shown ? SHOWN : 0) | (entry.marker.status === 'online' ? ONLINE : 0));
  }

  private remove(id: number): void {
    if (!this.entries.delete(id)) return;
    this.animating.delete(id);
    this.qRemove.push(id);
  }

  private note(positionId: number, appliedAt: number): void {
    if (!this.probe) return;
    const last = this.probePending[this.probePending.length - 1];
    if (last && last.seq === this.seq + 1 && last.appliedAt === appliedAt) last.ids.push(positionId);
    else this.probePending.push({ seq: this.seq + 1, appliedAt, ids: [positionId] });
  }

  /** Sends the queue now if nothing went out in this frame, else in the next frame. */
  private queued(): void {
    if (this.qIds.length === 0 && this.qRemove.length === 0) return;
    const wait = this.lastSendAt + this.sendInterval() - performance.now();
    if (wait > 0) {
      this.sendTimer ??= setTimeout(() => {
        this.sendTimer = null;
        this.send();
      }, wait);
    } else if (!this.sentThisFrame) {
      this.send();
    } else {
      this.sendFrame ??= requestAnimationFrame(() => {
        this.sendFrame = null;
        this.send();
      });
    }
    // Single vehicles on screen move at once, without waiting for the worker; clusters are
    // redrawn when its answer comes (a redraw for nothing costs a full canvas raster).
    if (this.singleMoved) this.invalidate();
    this.singleMoved = false;
  }

  /**
   * Least time between two updates to the worker: none for small fleets; for large ones about
   * eight of its passes, so the worker (which shares the CPU with the page) stays under ~1/8 of a
   * core and its answers, and the canvas frames they cause, come a few times a second (latency
   * stays far below the 3 s budget: the pass of 50,000 vehicles is ~10–30 ms).
   */
  private sendInterval(): number {
    return Math.min(MAX_SEND_INTERVAL_MS, this.lastPassMs * 8);
  }

  private send(): void {
    if (this.destroyed || (this.qIds.length === 0 && this.qRemove.length === 0)) return;
    this.lastSendAt = performance.now();
    this.seq++;
    const ids = Int32Array.from(this.qIds);
    const x = Float64Array.from(this.qX);
    const y = Float64Array.from(this.qY);
    const flags = Uint8Array.from(this.qFlags);
    const remove = this.qRemove.length ? Int32Array.from(this.qRemove) : undefined;
    this.qIds = [];
    this.qX = [];
    this.qY = [];
    this.qFlags = [];
    this.qRemove = [];
    this.passPending = true;
    this.channel.post({ type: 'update', seq: this.seq, ids, x, y, flags, remove }, [ids.buffer, x.buffer, y.buffer, flags.buffer, ...(remove ? [remove.buffer] : [])]);
    this.sentThisFrame = true;
    // The frame gate opens again in the next animation frame.
    requestAnimationFrame(() => (this.sentThisFrame = false));
  }

  // ---- camera → worker view ----

  /** The camera moves: MapLibre's render event redraws the vehicles; the worker gets the new view now and then. */
  private readonly onMove = () => {
    const now = performance.now();
    if (now - this.lastViewAt >= Math.max(MOVE_PASS_MS, this.lastPassMs * 2)) this.sendView();
    else this.viewTimer ??= setTimeout(() => {
      this.viewTimer = null;
      this.sendView();
    }, MOVE_PASS_MS);
  };

  private readonly onMoveEnd = () => this.sendView(true);

  private sendView(force = false): void {
    if (this.destroyed) return;
    if (this.viewTimer !== null && force) {
      clearTimeout(this.viewTimer);
      this.viewTimer = null;
    }
    this.lastViewAt = performance.now();
    const { cx, cy, zoom } = this.camera();
    const worldPx = TILE_PX * 2 ** zoom;
    const halfW = ((this.cssW / 2) * (1 + 2 * VIEW_MARGIN)) / worldPx;
    const halfH = ((this.cssH / 2) * (1 + 2 * VIEW_MARGIN)) / worldPx;
    this.viewSeq++;
    this.passPending = true;
    this.channel.post({
      type: 'view', viewSeq: this.viewSeq,
      view: { cx, cy, halfW: Math.min(halfW, 0.5), halfH: Math.min(halfH, 0.5), zoom, cluster: this.prefs.clustered, clusterMaxZoom: CLUSTER_MAX_ZOOM },
    });
  }

  private camera(): { cx: number; cy: number; zoom: number } {
    const c = this.map.getCenter();
    return { cx: lonToX(c.lng), cy: latToY(c.lat), zoom: this.map.getZoom() };
  }

  private onItems(m: FromWorker): void {
    if (this.destroyed) return;
    const same = this.items !== null && m.viewSeq === this.itemsViewSeq && sameLook(this.items, m.items, TILE_PX * 2 ** this.map.getZoom());
    this.items = m.items;
    this.itemsSeq = m.seq;
    this.itemsViewSeq = m.viewSeq;
    this.lastPassMs = m.ms;
    this.passPending = m.seq < this.seq || m.viewSeq < this.viewSeq;
    if (!same) {
      this.invalidate();
      return;
    }
    // Nothing on screen would change (at fleet zoom a second of driving moves a cluster by less
    // than a pixel): no need to rasterise the same picture again. For the probe this counts as a
    // frame drawn in the next animation frame (so it is reported one frame after that, exactly
    // like a drawn one), never earlier.
    this.sameFrame ??= requestAnimationFrame(() => {
      this.sameFrame = null;
      this.afterDraw();
    });
    this.resolveSettled();
  }

  // ---- drawing ----

  private invalidate(): void {
    this.dirty = true;
    this.drawFrame ??= requestAnimationFrame(() => {
      this.drawFrame = null;
      if (this.dirty || this.animating.size > 0) this.draw();
    });
  }

  /** MapLibre drew a frame (camera moves, trail): the vehicles follow in the same frame. */
  private readonly onRender = () => this.draw();

  private readonly onResize = () => {
    this.resize();
    this.sendView(true);
    this.invalidate();
  };

  private resize(): void {
    const container = this.map.getContainer();
    this.cssW = container.clientWidth;
    this.cssH = container.clientHeight;
    this.dpr = Math.min(window.devicePixelRatio || 1, 2);
    this.canvas.width = Math.max(1, Math.round(this.cssW * this.dpr));
    this.canvas.height = Math.max(1, Math.round(this.cssH * this.dpr));
    this.canvas.style.width = `${this.cssW}px`;
    this.canvas.style.height = `${this.cssH}px`;
    this.sprites.clear();
  }

  private currentPoint(entry: Entry, now: number): [number, number] {
    const a = entry.anim;
    if (!a) return [entry.x, entry.y];
    const t = Math.min(1, (now - a.start) / MOVE_ANIMATION_MS);
    if (t >= 1) {
      entry.anim = null;
      this.animating.delete(entry.marker.id);
      return [entry.x, entry.y];
    }
    const k = 1 - (1 - t) * (1 - t);
    return [a.fx + (entry.x - a.fx) * k, a.fy + (entry.y - a.fy) * k];
  }

  private draw(): void {
    this.dirty = false;
    this.frameNo++;
    const ctx = this.ctx;
    const items = this.items;
    if (!ctx || this.destroyed) return;
    const now = performance.now();
    const { cx, cy, zoom } = this.camera();
    const worldPx = TILE_PX * 2 ** zoom;
    const halfW = this.cssW / 2;
    const halfH = this.cssH / 2;
    const sx = (x: number) => {
      let dx = x - cx;
      if (dx > 0.5) dx -= 1;
      else if (dx < -0.5) dx += 1;
      return dx * worldPx + halfW;
    };
    const sy = (y: number) => (y - cy) * worldPx + halfH;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.clearRect(0, 0, this.cssW, this.cssH);
    const frame: DrawnFrame = { clusters: [], icons: [], dots: 0, labels: [], rings: 0, precision: 0, selected: null };
    const hits: Hit[] = [];
    if (items) {
      const prefs = this.prefs;
      const icons = prefs.clustered || zoom >= ICON_MIN_ZOOM;
      const pad = 60;
      const singles: Array<{ e: Entry; x: number; y: number }> = [];
      for (let i = 0; i < items.n; i++) {
        if (items.count[i] !== 1) continue;
        const e = this.entries.get(items.id[i]!);
        if (!e || !e.shown) continue;
        const [wx, wy] = this.currentPoint(e, now);
        const x = sx(wx);
        const y = sy(wy);
        e.drawnIn = this.frameNo;
        if (x < -pad || y < -pad || x > this.cssW + pad || y > this.cssH + pad) continue;
        singles.push({ e, x, y });
      }
      // Accuracy circles under everything.
      if (prefs.precision) {
        ctx.fillStyle = 'rgba(245,184,0,0.16)';
        ctx.strokeStyle = '#d29a00';
        ctx.lineWidth = 1;
        for (const s of singles) {
          const r = s.e.marker.acc * 2 ** zoom;
          if (!(r > 0.5)) continue;
          ctx.beginPath();
          ctx.arc(s.x, s.y, r, 0, Math.PI * 2);
          ctx.fill();
          ctx.stroke();
          frame.precision++;
        }
      }
      // Clusters.
      for (let i = 0; i < items.n; i++) {
        const count = items.count[i]!;
        if (count < 2) continue;
        const x = sx(items.x[i]!);
        const y = sy(items.y[i]!);
        const r = count < 10 ? 17 : count < 100 ? 21 : count < 1000 ? 25 : 29;
        if (x < -r || y < -r || x > this.cssW + r || y > this.cssH + r) continue;
        const share = items.online[i]! / count;
        const color = share >= 0.75 ? STATUS_COLORS.online : share >= 0.35 ? STATUS_COLORS.unknown : STATUS_COLORS.offlineCluster;
        const sprite = this.sprite(`c|${r}|${color}|${abbreviate(count)}`, r + 2, (c) => {
          c.beginPath();
          c.arc(0, 0, r, 0, Math.PI * 2);
          c.fillStyle = color;
          c.globalAlpha = 0.9;
          c.fill();
          c.lineWidth = 3;
          c.strokeStyle = '#ffffff';
          c.stroke();
          c.globalAlpha = 1;
          c.fillStyle = '#ffffff';
          c.font = '700 12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
          c.textAlign = 'center';
          c.textBaseline = 'middle';
          c.fillText(abbreviate(count), 0, 0.5);
        });
        // Whole device pixels: a plain copy, no resampling.
        ctx.drawImage(sprite, this.snap(x - r - 2), this.snap(y - r - 2), sprite.width / this.dpr, sprite.height / this.dpr);
        frame.clusters.push({ count, online: items.online[i]! });
        hits.push({ x, y, r, id: items.id[i]!, count, wx: items.x[i]!, wy: items.y[i]! });
      }
      // Single vehicles: selection, status ring, icon (rotated by course), then labels on top.
      const selected = this.focus.selectedId;
      const half = ICON_PX / 2;
      if (!icons) {
        for (const s of singles) {
          const status = s.e.marker.status;
          const r = Math.round(2 * Math.max(3, Math.min(6, 3 + ((zoom - 2) * 3) / (ICON_MIN_ZOOM - 2)))) / 2;
          const sprite = this.sprite(`d|${r}|${status}`, r + 1, (c) => {
            c.beginPath();
            c.arc(0, 0, r, 0, Math.PI * 2);
            c.fillStyle = STATUS_COLORS[status];
            c.fill();
            c.lineWidth = 1.5;
            c.strokeStyle = '#ffffff';
            c.stroke();
          });
          ctx.drawImage(sprite, this.snap(s.x - r - 1), this.snap(s.y - r - 1), sprite.width / this.dpr, sprite.height / this.dpr);
          frame.dots++;
          hits.push({ x: s.x, y: s.y, r: 8, id: s.e.marker.id, count: 1, wx: s.e.x, wy: s.e.y });
        }
      } else {
        ctx.imageSmoothingEnabled = true;
        ctx.imageSmoothingQuality = 'high';
        for (const s of singles) {
          const m = s.e.marker;
          if (m.id === selected) {
            ctx.beginPath();
            ctx.arc(s.x, s.y, 26, 0, Math.PI * 2);
            ctx.fillStyle = 'rgba(5,167,227,0.22)';
            ctx.fill();
            ctx.lineWidth = 2;
            ctx.strokeStyle = '#05a7e3';
            ctx.stroke();
            frame.selected = m.id;
          }
          if (prefs.status) {
            ctx.beginPath();
            ctx.arc(s.x, s.y, 23, 0, Math.PI * 2);
            ctx.fillStyle = 'rgba(255,255,255,0.35)';
            ctx.fill();
            ctx.lineWidth = 3;
            ctx.strokeStyle = STATUS_COLORS[m.status];
            ctx.stroke();
            frame.rings++;
          }
          const image = this.images.icon(m.icon);
          if (image?.source) {
            const angle = (m.course * Math.PI) / 180;
            if (angle) {
              ctx.save();
              ctx.translate(s.x, s.y);
              ctx.rotate(angle);
              ctx.drawImage(image.source, -half, -half, ICON_PX, ICON_PX);
              ctx.restore();
            } else {
              ctx.drawImage(image.source, s.x - half, s.y - half, ICON_PX, ICON_PX);
            }
          }
          frame.icons.push(m.id);
          hits.push({ x: s.x, y: s.y, r: 20, id: m.id, count: 1, wx: s.e.x, wy: s.e.y });
        }
        if (prefs.name || prefs.plate) this.drawLabels(ctx, singles, frame);
      }
    }
    // Animations of vehicles no longer drawn as themselves (clustered, left the view) end here.
    for (const id of this.animating) {
      const e = this.entries.get(id);
      if (e && e.anim && e.drawnIn === this.frameNo) continue;
      if (e) e.anim = null;
      this.animating.delete(id);
    }
    this.hits = hits;
    this.lastDrawn = frame;
    this.afterDraw();
    if (this.animating.size > 0) this.invalidate();
    this.resolveSettled();
  }

  private resolveSettled(): void {
    if (this.settleWaiters.length === 0 || !this.isSettled()) return;
    const waiters = this.settleWaiters;
    this.settleWaiters = [];
    for (const w of waiters) w();
  }

  private snap(v: number): number {
    return Math.round(v * this.dpr) / this.dpr;
  }

  /** A square sprite of half-size `half` (CSS px) drawn around its centre by `paint`, at the screen's pixel ratio. */
  private sprite(key: string, half: number, paint: (c: CanvasRenderingContext2D) => void): HTMLCanvasElement {
    let sprite = this.sprites.get(key);
    if (sprite) return sprite;
    if (this.sprites.size > 2_000) this.sprites.clear();
    sprite = document.createElement('canvas');
    sprite.width = sprite.height = Math.ceil(2 * half * this.dpr);
    const c = sprite.getContext('2d');
    if (c) {
      c.scale(this.dpr, this.dpr);
      c.translate(half, half);
      paint(c);
    }
    this.sprites.set(key, sprite);
    return sprite;
  }

  /** Name/plate pills under the icons; a label overlapping one already drawn is left out (as the older layer did). */
  private drawLabels(ctx: CanvasRenderingContext2D, singles: Array<{ e: Entry; x: number; y: number }>, frame: DrawnFrame): void {
    ctx.font = '600 12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    const placed: Array<[number, number, number, number]> = [];
    for (const s of singles) {
      if (placed.length >= MAX_LABELS) break;
      const text = s.e.label;
      if (!text) continue;
      let w = this.labelWidths.get(text);
      if (w === undefined) {
        w = Math.ceil(ctx.measureText(text).width) + 12;
        if (this.labelWidths.size > 5_000) this.labelWidths.clear();
        this.labelWidths.set(text, w);
      }
      const x = s.x - w / 2;
      const y = s.y + 24;
      if (placed.some(([px, py, pw, ph]) => x < px + pw && x + w > px && y < py + ph && y + 20 > py)) continue;
      placed.push([x, y, w, 20]);
      ctx.beginPath();
      ctx.roundRect(x + 0.5, y + 0.5, w - 1, 19, 6);
      ctx.fillStyle = 'rgba(255,255,255,0.94)';
      ctx.fill();
      ctx.lineWidth = 1;
      ctx.strokeStyle = 'rgba(15,23,42,0.35)';
      ctx.stroke();
      ctx.fillStyle = '#0f172a';
      ctx.fillText(text, x + 6, y + 10.5);
      frame.labels.push(text);
    }
  }

  /**
   * Positions shown by this frame are reported in the next animation frame (when they are on
   * screen). A position counts once the worker pass that included it was drawn (conservative for
   * a single vehicle in view, which moves on the canvas even before that pass).
   */
  private afterDraw(): void {
    if (!this.probe || this.probePending.length === 0) return;
    let done = 0;
    while (done < this.probePending.length && this.probePending[done]!.seq <= this.itemsSeq) done++;
    if (done === 0) return;
    // Tagged with the frame they were drawn in: reported by an animation frame after that one.
    const frame = frameTime();
    for (const group of this.probePending.splice(0, done)) this.probeReady.push({ group, frame });
    this.scheduleProbe();
  }

  private scheduleProbe(): void {
    this.probeFrame ??= requestAnimationFrame((ts) => {
      this.probeFrame = null;
      const drawnAt = performance.now();
      const later: typeof this.probeReady = [];
      for (const r of this.probeReady) {
        if (r.frame < ts) this.probe?.drawn(r.group.ids, r.group.appliedAt, drawnAt);
        else later.push(r);
      }
      this.probeReady = later;
      if (later.length) this.scheduleProbe();
    });
  }

  // ---- pointer ----

  private hitAt(x: number, y: number): Hit | null {
    // Topmost first: singles are drawn after clusters.
    for (let i = this.hits.length - 1; i >= 0; i--) {
      const h = this.hits[i]!;
      if ((h.x - x) ** 2 + (h.y - y) ** 2 <= h.r * h.r) return h;
    }
    return null;
  }

  private readonly onClick = (e: MapMouseEvent) => {
    const hit = this.hitAt(e.point.x, e.point.y);
    if (!hit) return;
    if (hit.count > 1) {
      this.map.easeTo({ center: [xToLon(hit.wx), yToLat(hit.wy)], zoom: Math.min(CLUSTER_MAX_ZOOM + 1, this.map.getZoom() + 2) });
    } else {
      this.onVehicleClick(hit.id);
    }
  };

  private readonly onMouseMove = (e: MapMouseEvent) => {
    const pointer = this.hitAt(e.point.x, e.point.y) !== null;
    const style = this.map.getCanvas().style;
    if (pointer && style.cursor !== 'pointer') style.cursor = 'pointer';
    else if (!pointer && style.cursor === 'pointer') style.cursor = '';
  };

  private readonly onDragStart = () => stopFollowing();

  // ---- selection, follow, trail ----

  private onFocus(focus: MapFocus, initial = false): void {
    const previous = this.focus;
    this.focus = focus;
    this.invalidate();
    if (previous.selectedId !== focus.selectedId || initial) {
      this.trail = [];
      const entry = focus.selectedId !== null ? this.entries.get(focus.selectedId) : undefined;
      if (entry) this.trail.push([entry.marker.longitude, entry.marker.latitude]);
      this.drawTrail();
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

  private onSelectedMoved(entry: Entry): void {
    if (entry.marker.id !== this.focus.selectedId) return;
    const point: [number, number] = [entry.marker.longitude, entry.marker.latitude];
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

/** The label of a vehicle for the name/plate preferences ('' = none). */
export function labelOf(m: Pick<Marker, 'name' | 'plate'>, prefs: Pick<MapPrefs, 'name' | 'plate'>): string {
  const plate = m.plate || NO_PLATE;
  const text = prefs.name && prefs.plate ? (m.name ? `${m.name} - ${plate}` : plate) : prefs.name ? m.name : prefs.plate ? plate : '';
  return text.length > 32 ? `${text.slice(0, 31)}…` : text;
}

/**
 * True when two answers of the same view would draw the same picture: the same items (clusters
 * with the same counts and status mix, the same single vehicles) within half a pixel.
 */
export function sameLook(a: ViewItems, b: ViewItems, worldPx: number): boolean {
  if (a.n !== b.n) return false;
  const tolerance = 0.5 / worldPx;
  for (let i = 0; i < a.n; i++) {
    if (a.id[i] !== b.id[i] || a.count[i] !== b.count[i] || a.online[i] !== b.online[i]) return false;
    if (Math.abs(a.x[i]! - b.x[i]!) > tolerance || Math.abs(a.y[i]! - b.y[i]!) > tolerance) return false;
  }
  return true;
}

/** The current animation frame's time (the same value rAF callbacks of this frame get). */
function frameTime(): number {
  const t = document.timeline?.currentTime;
  return typeof t === 'number' ? t : performance.now();
}

/** 1234 → 1.2k, 15000 → 15k (as MapLibre's point_count_abbreviated). */
export function abbreviate(count: number): string {
  if (count < 1000) return String(count);
  if (count < 10_000) return `${Math.round(count / 100) / 10}k`;
  return `${Math.round(count / 1000)}k`;
}
