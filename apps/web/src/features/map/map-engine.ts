// The one MapLibre map of the session. It is created the first time the shell shows it and then
// lives until the page unloads: its element moves between containers instead of being rebuilt,
// so screens can come and go over it without losing the view or reloading tiles.
// This module (and MapLibre with it, ~1 MB) is loaded lazily by map-view.tsx after sign-in.
import { AttributionControl, Map as MapLibre, NavigationControl, setWorkerUrl, type GeoJSONSource, type MapOptions } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import type { FeatureCollection } from 'geojson';
import { baseStyle, graticule, GRATICULE_SOURCE, gridStep } from './base-style.ts';
import { DeviceLayer, SELECT_ZOOM, type DrawnFrame, type DrawProbe, type LiveFeed, type VisibilityFeed } from './device-layer.ts';
import { boundsOf, FIT_MAX_ZOOM, MAX_ZOOM, MIN_ZOOM, validCoordinates, type InitialView } from './initial-view.ts';
import { selectDevice } from './map-api.ts';
import { getMapPrefs, subscribeMapPrefs, type MapPrefs } from './map-prefs.ts';

setWorkerUrl(workerUrl);

export interface MapSetup {
  tileUrl: string;
  view: InitialView;
  /** Texts of MapLibre's own controls in the interface language. */
  locale: Record<string, string>;
  compactAttribution: boolean;
  /** Zoom when a device is selected (server attribute web.selectZoom, else 16). */
  selectZoom?: number;
}

/** What e2e tests may read when the test flag is set (see exposeTestHook). */
export interface MapTestHook {
  map: MapLibre;
  loaded(): boolean;
  /** Resolves once the map is idle and the vehicle layer has drawn every update it was given. */
  idle(): Promise<void>;
  /** The device markers as the vehicle layer holds them now. */
  markers(): Promise<Array<{ id: number; longitude: number; latitude: number; name: string; status: string; icon: string; course: number }>>;
  /** Pixels of a vehicle icon (`icon:<category>:<colour>:<extra>`), or null for an unknown id. */
  image(id: string): { width: number; height: number; data: number[] } | null;
  /** Icon ids in the image cache, least recently used first. */
  cachedIcons(): string[];
  /** What the vehicle layer's last frame drew: clusters, icons (device ids), dots, labels, rings, accuracy circles, selection. */
  rendered(): DrawnFrame;
  /** Bench/test probe of which positions were drawn when. */
  setProbe(probe: DrawProbe | null): void;
}

export const TEST_FLAG_KEY = 'rastro.testHooks';

const FIT_PADDING = 60;
/** The raster tile source and layer id in base-style.ts. */
const TILE_SOURCE = 'osm';
const TILE_FAILURES_BEFORE_PAUSE = 6;
const TILE_RETRY_MS = 5 * 60_000;

export class MapEngine {
  readonly element: HTMLDivElement;
  private map: MapLibre | null = null;
  private loaded = false;
  private layer: DeviceLayer | null = null;
  private feed: { live: LiveFeed; visibility: VisibilityFeed | null } | null = null;
  private prefs: MapPrefs = getMapPrefs();
  /** Fit the devices once they arrive (no user/server coordinates and no positions yet). */
  private fitPending: boolean;
  private userMoved = false;
  private onLoad: (() => void) | null = null;
  private tilesWork = false;
  private tileFailures = 0;
  private tileRetry: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly setup: MapSetup) {
    this.element = document.createElement('div');
    this.element.className = 'rastro-map';
    this.fitPending = setup.view.kind === 'center' && setup.view.from === 'default';
  }

  get instance(): MapLibre | null {
    return this.map;
  }

  /** Shows the map inside `container` (creating it the first time). Throws without WebGL. */
  attach(container: HTMLElement, onLoad: () => void): void {
    if (this.element.parentElement !== container) container.appendChild(this.element);
    this.onLoad = onLoad;
    if (!this.map) this.create();
    this.map!.resize();
    if (this.loaded) onLoad();
  }

  detach(): void {
    this.onLoad = null;
    this.element.remove();
  }

  private create(): void {
    const { view } = this.setup;
    const options: MapOptions = {
      container: this.element,
      style: baseStyle(this.setup.tileUrl),
      minZoom: MIN_ZOOM,
      maxZoom: MAX_ZOOM,
      attributionControl: false,
      locale: this.setup.locale,
      dragRotate: false,
      // No symbol fade: with positions arriving all the time it would keep the map repainting.
      fadeDuration: 0,
      pitchWithRotate: false,
      // The vehicle overlay projects north-up and flat (no bearing, no pitch): keep the map so.
      touchPitch: false,
      maxPitch: 0,
      ...(view.kind === 'center'
        ? { center: view.center, zoom: view.zoom }
        : { bounds: view.bounds, fitBoundsOptions: { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM } }),
    };
    const map = new MapLibre(options);
    this.map = map;
    void import('./overlay-api.ts').then((o) => o.announceMap(map));
    map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    map.addControl(new AttributionControl({ compact: this.setup.compactAttribution }), 'bottom-right');
    map.touchZoomRotate.disableRotation();
    map.keyboard.disableRotation();
    subscribeMapPrefs((prefs) => this.applyPrefs(prefs));
    map.on('error', (e) => {
      // Tiles that cannot be fetched (offline, blocked) leave the plain base visible: not an error.
      const sourceId = (e as { sourceId?: string }).sourceId;
      if (sourceId === TILE_SOURCE) return this.tileFailed();
      console.warn('map:', e.error?.message ?? e);
    });
    map.on('data', (e) => {
      if (e.dataType === 'source' && (e as { sourceId?: string }).sourceId === TILE_SOURCE && (e as { tile?: unknown }).tile) this.tilesWork = true;
    });
    window.addEventListener('online', () => this.showTiles(true));
    map.on('movestart', (e) => {
      if ((e as { originalEvent?: unknown }).originalEvent) this.userMoved = true;
    });
    map.on('moveend', () => this.updateGrid());
    // The style is enough to start (base, grid, vehicles): waiting for 'load' would also wait for
    // the raster tiles, which offline or on a slow DNS take seconds to fail.
    map.once('style.load', () => {
      this.loaded = true;
      this.updateGrid();
      this.startLayer();
      this.onLoad?.();
    });
    // Clicks on vehicles and clusters: device-layer.ts hit-tests what it drew.
  }

  /**
   * Without internet every tile fails: after a few failures and no success, stop asking (the
   * plain base stays) and try again in a few minutes or when the browser is back online.
   */
  private tileFailed(): void {
    this.tileFailures += 1;
    if (this.tilesWork || this.tileFailures < TILE_FAILURES_BEFORE_PAUSE || this.tileRetry !== null) return;
    this.showTiles(false);
    this.tileRetry = setTimeout(() => this.showTiles(true), TILE_RETRY_MS);
  }

  private showTiles(on: boolean): void {
    const map = this.map;
    if (!map?.getLayer(TILE_SOURCE)) return;
    if (on) {
      if (this.tileRetry !== null) clearTimeout(this.tileRetry);
      this.tileRetry = null;
      this.tileFailures = 0;
    }
    map.setLayoutProperty(TILE_SOURCE, 'visibility', on ? 'visible' : 'none');
  }

  /** Redraws the offline grid for the view (a handful of lines, so it is cheap). */
  private updateGrid(): void {
    const map = this.map;
    const source = map?.getSource<GeoJSONSource>(GRATICULE_SOURCE);
    if (!map || !source) return;
    const b = map.getBounds();
    const view = { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() };
    void source.setData(graticule(gridStep(view), view) as FeatureCollection);
  }

  /**
   * Feeds the devices layer from the live store (and the list filters when given). The layer
   * starts once the map has loaded; calling this again is ignored (one feed per session).
   */
  connect(live: LiveFeed, visibility: VisibilityFeed | null = null): void {
    if (this.feed) return;
    this.feed = { live, visibility };
    if (this.loaded) this.startLayer();
    live.subscribe(() => this.maybeFit());
  }

  get devices(): DeviceLayer | null {
    return this.layer;
  }

  /** What a click on a vehicle does besides selecting it (the shell opens the device's panel). */
  openVehicle: ((id: number) => void) | null = null;

  private startLayer(): void {
    if (this.layer || !this.map || !this.feed) return;
    this.layer = new DeviceLayer(this.map, this.feed.live, this.feed.visibility, this.setup.selectZoom ?? SELECT_ZOOM, this.prefs);
    this.layer.onVehicleClick = (id) => {
      selectDevice(id);
      this.openVehicle?.(id);
    };
    this.maybeFit();
  }

  /** Preferences changed: the vehicle layer redraws with them (clustering, labels, rings, accuracy). */
  private applyPrefs(prefs: MapPrefs): void {
    this.prefs = prefs;
    this.layer?.setPrefs(prefs);
  }

  private maybeFit(): void {
    if (!this.fitPending || this.userMoved || !this.map || !this.feed || !this.loaded) return;
    const positions = this.feed.live.positions();
    const points = [];
    for (const key in positions) {
      const p = positions[key]!;
      if (validCoordinates(p)) points.push(p);
    }
    const bounds = boundsOf(points);
    if (!bounds) return;
    this.fitPending = false;
    this.map.fitBounds(bounds, { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM, duration: 0 });
  }

  /** window.__rastroMap for e2e tests, only when localStorage `rastro.testHooks` is "1". */
  exposeTestHook(): void {
    let enabled: boolean;
    try {
      enabled = localStorage.getItem(TEST_FLAG_KEY) === '1';
    } catch {
      enabled = false;
    }
    if (!enabled || !this.map) return;
    const map = this.map;
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const self = this;
    const hook: MapTestHook = {
      map,
      loaded: () => this.loaded,
      idle: () =>
        new Promise<void>((resolve) => {
          map.once('idle', () => {
            const layer = self.layer;
            if (layer) void layer.settled().then(resolve);
            else resolve();
          });
          map.triggerRepaint();
        }),
      async markers() {
        return (self.layer?.markers() ?? []).map(({ id, longitude, latitude, name, status, icon, course }) => ({ id, longitude, latitude, name, status, icon, course }));
      },
      image(id) {
        const image = self.layer?.images.icon(id);
        return image ? { width: image.width, height: image.height, data: Array.from(image.data) } : null;
      },
      cachedIcons: () => self.layer?.images.icons.keys() ?? [],
      rendered: () => self.layer?.drawn() ?? { clusters: [], icons: [], dots: 0, labels: [], rings: 0, precision: 0, selected: null },
      setProbe(probe) {
        if (self.layer) self.layer.probe = probe;
      },
    };
    (window as unknown as { __rastroMap?: MapTestHook }).__rastroMap = hook;
  }
}

let engine: MapEngine | null = null;

/** The session's map (created with the first setup; later setups are ignored). */
export function mapEngine(setup: MapSetup): MapEngine {
  return (engine ??= new MapEngine(setup));
}
