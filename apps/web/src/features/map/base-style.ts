// The map's style: a plain base that needs no network (background colour and a graticule we
// generate), OpenStreetMap raster tiles over it when they can be fetched (URL from the server
// attribute `tarkan.tileUrl`), and the device markers (circles coloured by status + name labels
// drawn as images, since offline there are no glyph fonts).
import type { FeatureCollection } from 'geojson';
import type { StyleSpecification } from 'maplibre-gl';

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const OSM_ATTRIBUTION = '© OpenStreetMap contributors';
export const DEVICES_SOURCE = 'devices';

export const STATUS_COLORS = { online: '#15803d', offline: '#b42318', unknown: '#526071' } as const;

/** The server's tile URL template when it looks like one ({z}, {x} and {y}, http or https), else OSM. */
export function tileUrlOf(serverAttributes: Record<string, unknown> | undefined): string {
  const raw = serverAttributes?.['tarkan.tileUrl'];
  if (typeof raw !== 'string') return DEFAULT_TILE_URL;
  const url = raw.trim();
  return /^https?:\/\//i.test(url) && url.includes('{z}') && url.includes('{x}') && url.includes('{y}') ? url : DEFAULT_TILE_URL;
}

type Line = { type: 'Feature'; properties: { major: boolean }; geometry: { type: 'LineString'; coordinates: Array<[number, number]> } };

/**
 * Meridians and parallels every `step` degrees (majors every 30°). Mercator draws both as
 * straight lines, so two points per line are enough; parallels stop at ±85° (the projection's edge).
 */
export function graticule(step: number): { type: 'FeatureCollection'; features: Line[] } {
  const features: Line[] = [];
  const line = (coordinates: Array<[number, number]>, value: number): Line => ({
    type: 'Feature',
    properties: { major: Math.abs(value) % 30 === 0 },
    geometry: { type: 'LineString', coordinates },
  });
  for (let lon = -180; lon <= 180; lon += step) features.push(line([[lon, -85], [lon, 85]], lon));
  for (let lat = -80; lat <= 80; lat += step) features.push(line([[-180, lat], [180, lat]], lat));
  return { type: 'FeatureCollection', features };
}

export function baseStyle(tileUrl: string): StyleSpecification {
  return {
    version: 8,
    sources: {
      'graticule-coarse': { type: 'geojson', data: graticule(10) as FeatureCollection },
      'graticule-fine': { type: 'geojson', data: graticule(1) as FeatureCollection },
      osm: { type: 'raster', tiles: [tileUrl], tileSize: 256, maxzoom: 19, attribution: OSM_ATTRIBUTION },
      [DEVICES_SOURCE]: { type: 'geojson', data: { type: 'FeatureCollection', features: [] } },
    },
    layers: [
      { id: 'base', type: 'background', paint: { 'background-color': '#e4eaf0' } },
      {
        id: 'graticule-coarse',
        type: 'line',
        source: 'graticule-coarse',
        paint: { 'line-color': '#b5c2cf', 'line-width': ['case', ['get', 'major'], 1.4, 0.8] },
      },
      { id: 'graticule-fine', type: 'line', source: 'graticule-fine', minzoom: 5, paint: { 'line-color': '#c9d3dd', 'line-width': 0.6 } },
      { id: 'osm', type: 'raster', source: 'osm' },
      {
        id: 'devices-circle',
        type: 'circle',
        source: DEVICES_SOURCE,
        paint: {
          'circle-radius': 8,
          'circle-color': ['match', ['get', 'status'], 'online', STATUS_COLORS.online, 'offline', STATUS_COLORS.offline, STATUS_COLORS.unknown],
          'circle-stroke-color': '#ffffff',
          'circle-stroke-width': 2.5,
        },
      },
      {
        id: 'devices-label',
        type: 'symbol',
        source: DEVICES_SOURCE,
        layout: {
          'icon-image': ['get', 'label'],
          'icon-anchor': 'top',
          'icon-offset': [0, 10],
          'icon-allow-overlap': false,
          'icon-optional': true,
        },
      },
    ],
  };
}
