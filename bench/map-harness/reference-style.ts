// Reference (b) of the map bench: the devices as one clustered MapLibre GeoJSON source with
// symbol/circle layers — the product's previous design (DESIGN.md "devices = one GeoJSON
// source"), kept here only so the bench can compare against it. Icons come from the product's
// ImageRegistry, cluster counts are images (no glyphs offline).
import type { ExpressionSpecification, GeoJSONSourceSpecification, LayerSpecification, Map as MapLibre } from 'maplibre-gl';
import { STATUS_COLORS } from '../../apps/web/src/features/map/base-style.ts';
import { ImageRegistry } from '../../apps/web/src/features/map/icon-images.ts';
import { drawCount, drawLabel } from './label-image.ts';
import { DEFAULT_MAP_PREFS, type MapPrefs } from '../../apps/web/src/features/map/map-prefs.ts';

export const DEVICES_SOURCE = 'devices';

/** Below this zoom, without clustering, devices are dots instead of icons (a symbol layer breaks past ~32,768 icons in one tile). */
export const ICON_MIN_ZOOM = 12;
export const CLUSTER_RADIUS = 50;
export const CLUSTER_MAX_ZOOM = 14;

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


/** Adds the reference source and layers, and makes their images on demand. */
export function addReferenceLayers(map: MapLibre, prefs: MapPrefs = DEFAULT_MAP_PREFS): void {
  const registry = new ImageRegistry();
  map.setMissingStyleImageResolver((id) => {
    if (map.hasImage(id)) return;
    const image = id.startsWith('icon:') ? registry.icon(id) : id.startsWith('count:') ? drawCount(id.slice(6)) : id.startsWith('label:') ? drawLabel(id.slice(6)) : null;
    if (image) map.addImage(id, { width: image.width, height: image.height, data: image.data }, { pixelRatio: image.pixelRatio });
  });
  map.addSource(DEVICES_SOURCE, devicesSource(prefs.clustered));
  for (const layer of devicesLayers(prefs)) map.addLayer(layer);
}
