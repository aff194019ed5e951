// The map's style: a plain base that needs no network (background colour and a graticule we
// generate), OpenStreetMap raster tiles over it when they can be fetched (URL from the server
// attribute `tarkan.tileUrl`), and the selected device's live trail. The vehicles (clusters,
// icons, rings, accuracy circles, labels) are not in the style: device-layer.ts draws them on a
// canvas over the map (see there why).
import type { FeatureCollection } from 'geojson';
import type { LayerSpecification, StyleSpecification } from 'maplibre-gl';

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const OSM_ATTRIBUTION = '© OpenStreetMap contributors';
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

export const TRAIL_SOURCE = 'trail';

/** The selected device's live trail (the vehicles themselves are drawn by device-layer.ts). */
export const trailLayer: LayerSpecification = {
  id: 'trail',
  type: 'line',
  source: TRAIL_SOURCE,
  layout: { 'line-cap': 'round', 'line-join': 'round' },
  paint: { 'line-color': '#05a7e3', 'line-width': 4, 'line-opacity': 0.85 },
};

export function baseStyle(tileUrl: string): StyleSpecification {
  return {
    version: 8,
    sources: {
      [GRATICULE_SOURCE]: { type: 'geojson', data: graticule(10) as FeatureCollection },
      osm: { type: 'raster', tiles: [tileUrl], tileSize: 256, maxzoom: 19, attribution: OSM_ATTRIBUTION },
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
      trailLayer,
    ],
  };
}
