// The map's style: a plain base that needs no network (background colour and a graticule we
// generate), OpenStreetMap raster tiles over it when they can be fetched (URL from the server
// attribute `tarkan.tileUrl`), and the devices layers: clusters, rotated category icons with a
// status ring, accuracy circles, labels and the selected device's live trail. Texts (labels,
// cluster counts) are images, since offline there are no glyph fonts.
import type { FeatureCollection } from 'geojson';
import type { ExpressionSpecification, GeoJSONSourceSpecification, LayerSpecification, StyleSpecification } from 'maplibre-gl';
import { DEFAULT_MAP_PREFS, type MapPrefs } from './map-prefs.ts';

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const OSM_ATTRIBUTION = '© OpenStreetMap contributors';
export const DEVICES_SOURCE = 'devices';
export const GRATICULE_SOURCE = 'graticule';

/** Status ring: online green, offline grey, unknown amber; clusters by online share (mostly offline: red). */
export const STATUS_COLORS = { online: '#16a34a', offline: '#6b7280', unknown: '#f59e0b', offlineCluster: '#dc2626' } as const;

/** The server's tile URL template when it looks like one ({z}, {x} and {y}, http or https), else OSM. */
export function tileUrlOf(serverAttributes: Record<string, unknown> | undefined): string {
  const raw = serverAttributes?.['tarkan.tileUrl'];
  if (typeof raw !== 'string') return DEFAULT_TILE_URL;
  const url = raw.trim();
  return /^https?:\/\//i.test(url) && url.includes('{z}') && url.includes('{x}') && url.includes('{y}') ? url : DEFAULT_TILE_URL;
}

type Line = { type: 'Feature'; properties: { major: boolean }; geometry: { type: 'LineString'; coordinates: Array<[number, number]> } };

export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

const WORLD: Bounds = { west: -180, south: -85, east: 180, north: 85 };

/** Grid spacings in degrees, coarse to fine. */
export const GRID_STEPS = [30, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002];

/** The coarsest spacing that still draws at least `lines` meridians across the view. */
export function gridStep(view: Bounds, lines = 6): number {
  const span = Math.max(view.east - view.west, 1e-9);
  return GRID_STEPS.find((step) => span / step >= lines) ?? GRID_STEPS[GRID_STEPS.length - 1]!;
}

/**
 * Meridians and parallels every `step` degrees over `bounds` (majors every 5 steps). Mercator
 * draws both as straight lines, so two points per line are enough; parallels stay within
 * ±85° (the projection's edge). Offline this grid is the whole base map, so it follows the view.
 */
export function graticule(step: number, bounds: Bounds = WORLD): { type: 'FeatureCollection'; features: Line[] } {
  const west = Math.max(-180, bounds.west - step);
  const east = Math.min(180, bounds.east + step);
  const south = Math.max(-85, bounds.south - step);
  const north = Math.min(85, bounds.north + step);
  const features: Line[] = [];
  const line = (coordinates: Array<[number, number]>, index: number): Line => ({
    type: 'Feature',
    properties: { major: index % 5 === 0 },
    geometry: { type: 'LineString', coordinates },
  });
  for (let i = Math.ceil(west / step); i * step <= east; i++) {
    const lon = Number((i * step).toFixed(6));
    features.push(line([[lon, south], [lon, north]], i));
  }
  for (let i = Math.ceil(south / step); i * step <= north; i++) {
    const lat = Number((i * step).toFixed(6));
    features.push(line([[west, lat], [east, lat]], i));
  }
  return { type: 'FeatureCollection', features };
}

/** Below this zoom, without clustering, devices are dots instead of icons (a symbol layer breaks past ~32,768 icons in one tile). */
export const ICON_MIN_ZOOM = 12;
export const CLUSTER_RADIUS = 50;
export const CLUSTER_MAX_ZOOM = 14;
export const TRAIL_SOURCE = 'trail';

/** Label image of each name/plate preference combination (null: no labels). */
export function labelExpression(prefs: Pick<MapPrefs, 'name' | 'plate'>): ExpressionSpecification | null {
  if (prefs.name && prefs.plate) return ['get', 'labelBoth'];
  if (prefs.name) return ['get', 'labelName'];
  if (prefs.plate) return ['get', 'labelPlate'];
  return null;
}

const UNCLUSTERED: ExpressionSpecification = ['!', ['has', 'point_count']];
const visibility = (on: boolean) => (on ? 'visible' : 'none') as 'visible' | 'none';

export function devicesSource(clustered: boolean): GeoJSONSourceSpecification {
  return {
    type: 'geojson',
    data: { type: 'FeatureCollection', features: [] },
    cluster: clustered,
    clusterRadius: CLUSTER_RADIUS,
    clusterMaxZoom: CLUSTER_MAX_ZOOM,
    clusterProperties: { online: ['+', ['get', 'online']] },
  };
}

/** The devices layers, bottom to top, for the given preferences. */
export function devicesLayers(prefs: MapPrefs): LayerSpecification[] {
  const label = labelExpression(prefs);
  const onlineShare: ExpressionSpecification = ['/', ['get', 'online'], ['get', 'point_count']];
  return [
    {
      id: 'trail',
      type: 'line',
      source: TRAIL_SOURCE,
      layout: { 'line-cap': 'round', 'line-join': 'round' },
      paint: { 'line-color': '#05a7e3', 'line-width': 4, 'line-opacity': 0.85 },
    },
    {
      id: 'devices-precision',
      type: 'circle',
      source: DEVICES_SOURCE,
      filter: ['all', UNCLUSTERED, ['>', ['get', 'acc'], 0]],
      layout: { visibility: visibility(prefs.precision) },
      paint: {
        'circle-radius': ['interpolate', ['exponential', 2], ['zoom'], 0, ['get', 'acc'], 24, ['*', ['get', 'acc'], 2 ** 24]],
        'circle-color': '#f5b800',
        'circle-opacity': 0.16,
        'circle-stroke-color': '#d29a00',
        'circle-stroke-width': 1,
        'circle-pitch-alignment': 'map',
      },
    },
    {
      id: 'devices-cluster',
      type: 'circle',
      source: DEVICES_SOURCE,
      filter: ['has', 'point_count'],
      paint: {
        'circle-color': ['step', onlineShare, STATUS_COLORS.offlineCluster, 0.35, STATUS_COLORS.unknown, 0.75, STATUS_COLORS.online],
        'circle-radius': ['step', ['get', 'point_count'], 17, 10, 21, 100, 25, 1000, 29],
        'circle-opacity': 0.9,
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 3,
        'circle-stroke-opacity': 0.9,
      },
    },
    {
      id: 'devices-cluster-count',
      type: 'symbol',
      source: DEVICES_SOURCE,
      filter: ['has', 'point_count'],
      layout: { 'icon-image': ['concat', 'count:', ['get', 'point_count_abbreviated']], 'icon-allow-overlap': true, 'icon-ignore-placement': true },
    },
    {
      id: 'devices-dot',
      type: 'circle',
      source: DEVICES_SOURCE,
      filter: UNCLUSTERED,
      maxzoom: ICON_MIN_ZOOM,
      layout: { visibility: visibility(!prefs.clustered) },
      paint: {
        'circle-radius': ['interpolate', ['linear'], ['zoom'], 2, 3, ICON_MIN_ZOOM, 6],
        'circle-color': ['match', ['get', 'status'], 'online', STATUS_COLORS.online, 'offline', STATUS_COLORS.offline, STATUS_COLORS.unknown],
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 1.5,
      },
    },
    {
      id: 'devices-selected',
      type: 'circle',
      source: DEVICES_SOURCE,
      filter: ['==', ['id'], -1],
      minzoom: prefs.clustered ? 0 : ICON_MIN_ZOOM,
      paint: { 'circle-radius': 26, 'circle-color': '#05a7e3', 'circle-opacity': 0.22, 'circle-stroke-color': '#05a7e3', 'circle-stroke-width': 2 },
    },
    {
      id: 'devices-status',
      type: 'circle',
      source: DEVICES_SOURCE,
      filter: UNCLUSTERED,
      minzoom: prefs.clustered ? 0 : ICON_MIN_ZOOM,
      layout: { visibility: visibility(prefs.status) },
      paint: {
        'circle-radius': 23,
        'circle-color': 'rgba(255,255,255,0.35)',
        'circle-stroke-width': 3,
        'circle-stroke-color': ['match', ['get', 'status'], 'online', STATUS_COLORS.online, 'offline', STATUS_COLORS.offline, STATUS_COLORS.unknown],
      },
    },
    {
      id: 'devices-icon',
      type: 'symbol',
      source: DEVICES_SOURCE,
      filter: UNCLUSTERED,
      minzoom: prefs.clustered ? 0 : ICON_MIN_ZOOM,
      layout: {
        'icon-image': ['get', 'icon'],
        'icon-rotate': ['get', 'course'],
        'icon-rotation-alignment': 'map',
        'icon-allow-overlap': true,
        'icon-ignore-placement': true,
      },
    },
    {
      id: 'devices-label',
      type: 'symbol',
      source: DEVICES_SOURCE,
      filter: UNCLUSTERED,
      minzoom: prefs.clustered ? 0 : ICON_MIN_ZOOM,
      layout: {
        visibility: visibility(label !== null),
        'icon-image': label ?? ['get', 'labelName'],
        'icon-anchor': 'top',
        'icon-offset': [0, 24],
        'icon-allow-overlap': false,
        'icon-optional': true,
      },
    },
  ];
}

export function baseStyle(tileUrl: string, prefs: MapPrefs = DEFAULT_MAP_PREFS): StyleSpecification {
  return {
    version: 8,
    sources: {
      [GRATICULE_SOURCE]: { type: 'geojson', data: graticule(10) as FeatureCollection },
      osm: { type: 'raster', tiles: [tileUrl], tileSize: 256, maxzoom: 19, attribution: OSM_ATTRIBUTION },
      [DEVICES_SOURCE]: devicesSource(prefs.clustered),
      [TRAIL_SOURCE]: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
    },
    layers: [
      { id: 'base', type: 'background', paint: { 'background-color': '#e4eaf0' } },
      {
        id: 'graticule',
        type: 'line',
        source: GRATICULE_SOURCE,
        paint: {
          'line-color': ['case', ['get', 'major'], '#aebccb', '#c8d2dd'],
          'line-width': ['case', ['get', 'major'], 1.3, 0.7],
        },
      },
      { id: 'osm', type: 'raster', source: 'osm' },
      ...devicesLayers(prefs),
    ],
  };
}
