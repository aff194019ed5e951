// Overlays that screens draw on the session map (history, reports): a route line coloured by
// speed, a highlighted stretch (a trip), point markers (start/end, stops, events) and the
// player's vehicle. This module loads no MapLibre code: screens call it freely; the map engine
// announces its map here (announceMap) and whatever was asked before then is drawn once the
// map's style is ready. Each setter replaces what it drew before; clearOverlays() removes all.
import type { FeatureCollection, Feature, LineString, Point } from 'geojson';
import type { GeoJSONSource, Map as MapLibre, MapLayerMouseEvent } from 'maplibre-gl';
import { speedColor } from './overlay-colors.ts';

export interface OverlayPoint {
  longitude: number;
  latitude: number;
}

/** A point of a route: speed in knots (the server's unit) picks the colour. */
export interface RoutePoint extends OverlayPoint {
  speed: number;
}

export type MarkerKind = 'start' | 'end' | 'stop' | 'event' | 'point';

export interface OverlayMarker extends OverlayPoint {
  /** Handed back to the click listener. */
  id: string;
  kind: MarkerKind;
}

export interface VehiclePose extends OverlayPoint {
  course: number;
}

/** Space the screen's panel covers, so fitted views stay visible beside or above it. */
export interface FitPadding {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

export const MARKER_COLORS: Record<MarkerKind, string> = {
  start: '#15803d',
  end: '#b42318',
  stop: '#1d4ed8',
  event: '#c2410c',
  point: '#475569',
};

const SRC = { route: 'ov-route', highlight: 'ov-highlight', markers: 'ov-markers', vehicle: 'ov-vehicle' } as const;
const VEHICLE_IMAGE = 'ov-vehicle-arrow';

interface OverlayData {
  routes: RoutePoint[][];
  highlight: OverlayPoint[] | null;
  markers: OverlayMarker[];
  vehicle: VehiclePose | null;
}

const data: OverlayData = { routes: [], highlight: null, markers: [], vehicle: null };
let map: MapLibre | null = null;
let ready = false;
let markerListener: ((id: string) => void) | null = null;
let pendingFit: { points: OverlayPoint[]; padding: FitPadding; maxZoom: number } | null = null;

const empty = (): FeatureCollection => ({ type: 'FeatureCollection', features: [] });

/** Consecutive legs of the same colour merged into one line (tens of features, not thousands). */
export function routeFeatures(routes: readonly RoutePoint[][]): FeatureCollection<LineString> {
  const features: Array<Feature<LineString>> = [];
  for (const points of routes) {
    let run: number[][] = [];
    let color = '';
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1]!;
      const b = points[i]!;
      const c = speedColor(Math.max(a.speed, b.speed));
      if (c !== color && run.length > 0) {
        features.push({ type: 'Feature', properties: { color }, geometry: { type: 'LineString', coordinates: run } });
        run = [];
      }
      if (run.length === 0) run.push([a.longitude, a.latitude]);
      run.push([b.longitude, b.latitude]);
      color = c;
    }
    if (run.length > 1) features.push({ type: 'Feature', properties: { color }, geometry: { type: 'LineString', coordinates: run } });
  }
  return { type: 'FeatureCollection', features };
}

function markerFeatures(markers: readonly OverlayMarker[]): FeatureCollection<Point> {
  return {
    type: 'FeatureCollection',
    features: markers.map((m) => ({
      type: 'Feature',
      properties: { id: m.id, kind: m.kind, color: MARKER_COLORS[m.kind], r: m.kind === 'point' ? 4 : 7 },
      geometry: { type: 'Point', coordinates: [m.longitude, m.latitude] },
    })),
  };
}

function vehicleFeatures(v: VehiclePose | null): FeatureCollection<Point> {
  if (!v) return empty() as FeatureCollection<Point>;
  return {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: { course: v.course || 0 }, geometry: { type: 'Point', coordinates: [v.longitude, v.latitude] } }],
  };
}

function highlightFeatures(points: readonly OverlayPoint[] | null): FeatureCollection {
  if (!points || points.length < 2) return empty();
  return {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: points.map((p) => [p.longitude, p.latitude]) } }],
  };
}

/** A white-edged arrow pointing north, rotated by the course on the map. */
function vehicleImage(): ImageData {
  const size = 40;
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const ctx = canvas.getContext('2d')!;
  ctx.beginPath();
  ctx.arc(20, 20, 17, 0, Math.PI * 2);
  ctx.fillStyle = '#0b5cad';
  ctx.fill();
  ctx.lineWidth = 3;
  ctx.strokeStyle = '#ffffff';
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(20, 8);
  ctx.lineTo(29, 29);
  ctx.lineTo(20, 24);
  ctx.lineTo(11, 29);
  ctx.closePath();
  ctx.fillStyle = '#ffffff';
  ctx.fill();
  return ctx.getImageData(0, 0, size, size);
}

function install(m: MapLibre): void {
  for (const id of Object.values(SRC)) if (!m.getSource(id)) m.addSource(id, { type: 'geojson', data: empty() });
  if (!m.hasImage(VEHICLE_IMAGE)) {
    try {
      m.addImage(VEHICLE_IMAGE, vehicleImage(), { pixelRatio: 2 });
    } catch {
      // No 2D canvas (tests without one): the vehicle falls back to the circle below.
    }
  }
  const add = (layer: Parameters<MapLibre['addLayer']>[0]) => {
    if (!m.getLayer(layer.id)) m.addLayer(layer);
  };
  add({ id: 'ov-route-casing', type: 'line', source: SRC.route, layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: { 'line-color': '#ffffff', 'line-width': 7, 'line-opacity': 0.9 } });
  add({ id: 'ov-route', type: 'line', source: SRC.route, layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: { 'line-color': ['get', 'color'], 'line-width': 4 } });
  add({ id: 'ov-highlight', type: 'line', source: SRC.highlight, layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: { 'line-color': '#7c3aed', 'line-width': 7, 'line-opacity': 0.85 } });
  add({ id: 'ov-markers', type: 'circle', source: SRC.markers,
    paint: { 'circle-color': ['get', 'color'], 'circle-radius': ['get', 'r'], 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2 } });
  add({ id: 'ov-vehicle-halo', type: 'circle', source: SRC.vehicle,
    paint: { 'circle-color': '#0b5cad', 'circle-opacity': 0.18, 'circle-radius': 18 } });
  add({ id: 'ov-vehicle', type: 'symbol', source: SRC.vehicle,
    layout: { 'icon-image': VEHICLE_IMAGE, 'icon-rotate': ['get', 'course'], 'icon-rotation-alignment': 'map',
      'icon-allow-overlap': true, 'icon-ignore-placement': true } });
  m.on('click', 'ov-markers', (e: MapLayerMouseEvent) => {
    const id = e.features?.[0]?.properties?.id;
    if (typeof id === 'string') markerListener?.(id);
  });
  m.on('mouseenter', 'ov-markers', () => (m.getCanvas().style.cursor = 'pointer'));
  m.on('mouseleave', 'ov-markers', () => (m.getCanvas().style.cursor = ''));
}

function source(id: string): GeoJSONSource | undefined {
  return ready && map ? map.getSource<GeoJSONSource>(id) : undefined;
}

function drawRoutes(): void {
  void source(SRC.route)?.setData(routeFeatures(data.routes));
}
function drawHighlight(): void {
  void source(SRC.highlight)?.setData(highlightFeatures(data.highlight));
}
function drawMarkers(): void {
  void source(SRC.markers)?.setData(markerFeatures(data.markers));
}
function drawVehicle(): void {
  void source(SRC.vehicle)?.setData(vehicleFeatures(data.vehicle));
}

function drawAll(): void {
  drawRoutes();
  drawHighlight();
  drawMarkers();
  drawVehicle();
  if (pendingFit) {
    const f = pendingFit;
    pendingFit = null;
    fitTo(f.points, f.padding, f.maxZoom);
  }
}

/** Called once by the map engine when it creates the session's map. */
export function announceMap(m: MapLibre): void {
  if (map === m) return;
  map = m;
  ready = false;
  const start = () => {
    install(m);
    ready = true;
    drawAll();
    exposeTestHook(m);
  };
  const loaded = (m as unknown as { style?: { _loaded?: boolean } }).style?._loaded === true;
  if (loaded) start();
  else m.once('load', start);
}

/** Routes (one line per device), coloured by speed. An empty list removes them. */
export function setRoutes(routes: RoutePoint[][]): void {
  data.routes = routes;
  drawRoutes();
}

/** A stretch drawn thick over the route (a trip, a selected period), or null. */
export function setHighlight(points: OverlayPoint[] | null): void {
  data.highlight = points;
  drawHighlight();
}

export function setMarkers(markers: OverlayMarker[]): void {
  data.markers = markers;
  drawMarkers();
}

/** The player's vehicle, or null to hide it. */
export function setVehicle(pose: VehiclePose | null): void {
  data.vehicle = pose;
  drawVehicle();
}

/** Who hears clicks on markers (one listener: the screen showing them). */
export function onMarkerClick(listener: ((id: string) => void) | null): void {
  markerListener = listener;
}

/** Removes everything this module drew. */
export function clearOverlays(): void {
  data.routes = [];
  data.highlight = null;
  data.markers = [];
  data.vehicle = null;
  markerListener = null;
  pendingFit = null;
  drawAll();
}

/** Fits the view to the points, leaving the padding (the panel) free. */
export function fitTo(points: readonly OverlayPoint[], padding: FitPadding, maxZoom = 16): void {
  const valid = points.filter((p) => Number.isFinite(p.latitude) && Number.isFinite(p.longitude) && (p.latitude !== 0 || p.longitude !== 0));
  if (valid.length === 0) return;
  if (!ready || !map) {
    pendingFit = { points: valid, padding, maxZoom };
    return;
  }
  let west = Infinity, south = Infinity, east = -Infinity, north = -Infinity;
  for (const p of valid) {
    west = Math.min(west, p.longitude);
    east = Math.max(east, p.longitude);
    south = Math.min(south, p.latitude);
    north = Math.max(north, p.latitude);
  }
  const container = map.getContainer();
  const w = container.clientWidth;
  const h = container.clientHeight;
  // Never more padding than the map has room for (MapLibre refuses to fit then).
  const pad = {
    top: Math.min(padding.top, h / 3),
    bottom: Math.min(padding.bottom, h * 0.6),
    left: Math.min(padding.left, w * 0.6),
    right: Math.min(padding.right, w / 4),
  };
  map.fitBounds([[west, south], [east, north]], { padding: pad, maxZoom, duration: 0 });
}

/** Keeps a point in view: pans only when it is outside the visible area. */
export function keepInView(point: OverlayPoint): void {
  if (!ready || !map) return;
  if (!map.getBounds().contains([point.longitude, point.latitude])) map.panTo([point.longitude, point.latitude], { duration: 300 });
}

/** What is drawn now (for tests). */
export function overlayState() {
  return {
    routes: data.routes.map((r) => r.length),
    highlight: data.highlight?.length ?? 0,
    markers: data.markers.map((m) => ({ id: m.id, kind: m.kind })),
    vehicle: data.vehicle ? { ...data.vehicle } : null,
  };
}

function exposeTestHook(m: MapLibre): void {
  let enabled: boolean;
  try {
    enabled = localStorage.getItem('rastro.testHooks') === '1';
  } catch {
    enabled = false;
  }
  if (!enabled) return;
  (window as unknown as { __rastroOverlay?: unknown }).__rastroOverlay = {
    state: overlayState,
    rendered: () => ({
      route: m.queryRenderedFeatures({ layers: ['ov-route'] }).length,
      markers: m.queryRenderedFeatures({ layers: ['ov-markers'] }).length,
      vehicle: m.queryRenderedFeatures({ layers: ['ov-vehicle', 'ov-vehicle-halo'] }).length,
    }),
  };
}
