// The one MapLibre map of the session. It is created the first time the shell shows it and then
// lives until the page unloads: its element moves between containers instead of being rebuilt,
// so screens can come and go over it without losing the view or reloading tiles.
// This module (and MapLibre with it, ~1 MB) is loaded lazily by map-view.tsx after sign-in.
import { AttributionControl, Map as MapLibre, NavigationControl, setWorkerUrl, type GeoJSONSource, type MapOptions } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import type { FeatureCollection, Point } from 'geojson';
import type { Device, Position } from '@rastro/domain/entities';
import { baseStyle, DEVICES_SOURCE, graticule, GRATICULE_SOURCE, gridStep } from './base-style.ts';
import { diffMarkers, isEmptyDiff, markersOf, toFeature, type Marker } from './device-features.ts';
import { boundsOf, FIT_MAX_ZOOM, MAX_ZOOM, MIN_ZOOM, type InitialView } from './initial-view.ts';
import { drawLabel } from './label-image.ts';

setWorkerUrl(workerUrl);

export interface MapSetup {
  tileUrl: string;
  view: InitialView;
  /** Texts of MapLibre's own controls in the interface language. */
  locale: Record<string, string>;
  compactAttribution: boolean;
}

/** What e2e tests may read when the test flag is set (see exposeTestHook). */
export interface MapTestHook {
  map: MapLibre;
  loaded(): boolean;
  /** Resolves once the map has drawn everything it has (labels included). */
  idle(): Promise<void>;
  /** The device markers as the map's source holds them now. */
  markers(): Promise<Array<{ id: number; longitude: number; latitude: number; name: string; status: string }>>;
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
  private shown = new Map<number, Marker>();
  private wanted = new Map<number, Marker>();
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
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
      pitchWithRotate: false,
      ...(view.kind === 'center'
        ? { center: view.center, zoom: view.zoom }
        : { bounds: view.bounds, fitBoundsOptions: { padding: FIT_PADDING, maxZoom: FIT_MAX_ZOOM } }),
    };
    const map = new MapLibre(options);
    this.map = map;
    map.addControl(new NavigationControl({ showCompass: false }), 'top-right');
    map.addControl(new AttributionControl({ compact: this.setup.compactAttribution }), 'bottom-right');
    // Name labels are drawn the first time a marker needs one (MapLibre 6 asks this resolver).
    map.setMissingStyleImageResolver((id) => {
      if (!id.startsWith('label:') || map.hasImage(id)) return;
      const image = drawLabel(id.slice('label:'.length));
      if (image) map.addImage(id, { width: image.width, height: image.height, data: image.data }, { pixelRatio: image.pixelRatio });
    });
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
    map.once('load', () => {
      this.loaded = true;
      this.updateGrid();
      const source = map.getSource<GeoJSONSource>(DEVICES_SOURCE);
      void source?.setData({ type: 'FeatureCollection', features: [...this.wanted.values()].map(toFeature) });
      this.shown = new Map(this.wanted);
      this.maybeFit();
      this.onLoad?.();
    });
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

  /** Brings the markers in line with the store (only what changed reaches the map). */
  sync(devices: Record<number, Device>, positions: Record<number, Position>): void {
    this.wanted = markersOf(devices, positions);
    if (!this.loaded || this.flushTimer !== null) return;
    // Socket frames often come in bursts: apply them together.
    this.flushTimer = setTimeout(() => this.flush(), 16);
  }

  private flush(): void {
    this.flushTimer = null;
    const source = this.map?.getSource<GeoJSONSource>(DEVICES_SOURCE);
    if (!source) return;
    const diff = diffMarkers(this.shown, this.wanted);
    this.shown = new Map(this.wanted);
    if (!isEmptyDiff(diff)) {
      source.updateData(diff).catch(() => source.setData({ type: 'FeatureCollection', features: [...this.shown.values()].map(toFeature) }));
    }
    this.maybeFit();
  }

  private maybeFit(): void {
    if (!this.fitPending || this.userMoved || !this.map || this.wanted.size === 0) return;
    const bounds = boundsOf([...this.wanted.values()]);
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
    const hook: MapTestHook = {
      map,
      loaded: () => this.loaded,
      idle: () =>
        new Promise<void>((resolve) => {
          map.once('idle', () => resolve());
          map.triggerRepaint();
        }),
      async markers() {
        const data = (await map.getSource<GeoJSONSource>(DEVICES_SOURCE)!.getData()) as FeatureCollection;
        return data.features.map((f) => {
          const [longitude, latitude] = (f.geometry as Point).coordinates as [number, number];
          return { id: Number(f.id), longitude, latitude, name: String(f.properties?.name), status: String(f.properties?.status) };
        });
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
