import { describe, expect, it } from 'vitest';
import type { Device, Position } from '@rastro/domain/entities';
import { baseStyle, DEFAULT_TILE_URL, graticule, gridStep, OSM_ATTRIBUTION, tileUrlOf } from './base-style.ts';
import { accuracyPx0, markerOf, plateOf } from './device-features.ts';
import { boundsOf, DEFAULT_ZOOM, initialView, SAO_PAULO, validCoordinates, viewZoom } from './initial-view.ts';

const device = (id: number, extra: Partial<Device> = {}): Device => ({
  id, name: `Car ${id}`, uniqueId: `u${id}`, status: 'online', disabled: false, lastUpdate: null, positionId: null, groupId: 0,
  calendarId: 0, phone: null, model: null, contact: null, category: null, expirationTime: null, attributes: {}, ...extra,
});
const position = (deviceId: number, latitude: number, longitude: number, extra: Partial<Position> = {}): Position => ({
  id: deviceId * 100, deviceId, protocol: 'osmand', serverTime: '', deviceTime: '', fixTime: '', valid: true, latitude, longitude,
  altitude: 0, speed: 0, course: 90, address: null, accuracy: 0, network: null, geofenceIds: null, attributes: {}, ...extra,
});

describe('initial view (spec §9)', () => {
  it('uses the user first, then the server, with their zoom', () => {
    expect(initialView({ latitude: -30, longitude: -51, zoom: 12 }, { latitude: -23, longitude: -46, zoom: 9 })).toEqual({
      kind: 'center', center: [-51, -30], zoom: 12, from: 'user',
    });
    expect(initialView({ latitude: 0, longitude: 0, zoom: 0 }, { latitude: -23, longitude: -46, zoom: 9 })).toEqual({
      kind: 'center', center: [-46, -23], zoom: 9, from: 'server',
    });
  });

  it('defaults the zoom to 17 when the chosen source gives none', () => {
    expect(initialView(null, { latitude: -23.55, longitude: -46.63, zoom: 0 })).toMatchObject({ zoom: DEFAULT_ZOOM, from: 'server' });
    expect(viewZoom(undefined)).toBe(17);
    expect(viewZoom(-3)).toBe(17);
    expect(viewZoom(25)).toBe(19);
    expect(viewZoom(0.5)).toBe(1);
  });

  it('accepts only non-zero coordinates in range', () => {
    expect(validCoordinates({ latitude: -23.5, longitude: -46.6 })).toBe(true);
    expect(validCoordinates({ latitude: 0, longitude: -46.6 })).toBe(false);
    expect(validCoordinates({ latitude: -23.5, longitude: 0 })).toBe(false);
    expect(validCoordinates({ latitude: 91, longitude: 10 })).toBe(false);
    expect(validCoordinates({ latitude: 10, longitude: -181 })).toBe(false);
    expect(validCoordinates({ latitude: Number.NaN, longitude: 10 })).toBe(false);
    expect(validCoordinates({ latitude: null, longitude: 10 })).toBe(false);
    expect(validCoordinates(null)).toBe(false);
  });

  it('fits the devices without coordinates, else shows São Paulo', () => {
    const positions = [position(1, -23, -46), position(2, -22, -43), position(3, 0, 0)];
    expect(initialView({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 0 }, positions)).toEqual({
      kind: 'fit', bounds: [[-46, -23], [-43, -22]],
    });
    expect(initialView(undefined, undefined, [])).toMatchObject({ kind: 'center', center: SAO_PAULO, from: 'default' });
    expect(boundsOf([position(1, 95, 10)])).toBeNull();
  });
});

describe('base style', () => {
  it('uses tarkan.tileUrl when it is a tile template, else OpenStreetMap', () => {
    expect(tileUrlOf(undefined)).toBe(DEFAULT_TILE_URL);
    expect(tileUrlOf({ 'tarkan.tileUrl': 'https://tiles.example.com/{z}/{x}/{y}.png' })).toBe('https://tiles.example.com/{z}/{x}/{y}.png');
    expect(tileUrlOf({ 'tarkan.tileUrl': 'javascript:alert(1)//{z}{x}{y}' })).toBe(DEFAULT_TILE_URL);
    expect(tileUrlOf({ 'tarkan.tileUrl': 'https://tiles.example.com/static.png' })).toBe(DEFAULT_TILE_URL);
    expect(tileUrlOf({ 'tarkan.tileUrl': 42 })).toBe(DEFAULT_TILE_URL);
  });

  it('draws a plain base under the tiles and the trail above, with the OSM attribution (vehicles are the overlay\'s)', () => {
    const style = baseStyle(DEFAULT_TILE_URL);
    expect(style.layers.map((l) => l.id)).toEqual(['base', 'graticule', 'osm', 'trail']);
    expect(style.sources.devices).toBeUndefined();
    expect(style.sources.osm).toMatchObject({ type: 'raster', tiles: [DEFAULT_TILE_URL], tileSize: 256, attribution: OSM_ATTRIBUTION });
    expect(OSM_ATTRIBUTION).toBe('© OpenStreetMap contributors');
    // No glyphs or sprites: nothing in the style needs the network besides the tiles.
    expect(style.glyphs).toBeUndefined();
    expect(style.sprite).toBeUndefined();
  });

  it('generates meridians and parallels over the world or a view', () => {
    const lines = graticule(10).features;
    expect(lines).toHaveLength(37 + 17);
    expect(lines[0]!.geometry.coordinates).toEqual([[-180, -85], [-180, 85]]);
    expect(lines.filter((l) => l.properties.major).map((l) => l.geometry.coordinates[0])).toContainEqual([0, -85]);
    const view = { west: -46.64, south: -23.56, east: -46.62, north: -23.54 };
    const step = gridStep(view);
    expect(step).toBe(0.002);
    const local = graticule(step, view).features;
    expect(local.length).toBeGreaterThan(12);
    expect(local.length).toBeLessThan(40);
    for (const l of local) for (const [lon, lat] of l.geometry.coordinates) {
      expect(lon).toBeGreaterThanOrEqual(view.west - step - 1e-9);
      expect(lat).toBeLessThanOrEqual(view.north + step + 1e-9);
    }
  });

  it('picks a grid spacing that draws a few lines across any view', () => {
    expect(gridStep({ west: -180, south: -85, east: 180, north: 85 })).toBe(30);
    expect(gridStep({ west: -50, south: -25, east: -40, north: -20 })).toBe(1);
    expect(gridStep({ west: 0, south: 0, east: 1e-6, north: 1e-6 })).toBe(0.0002);
  });
});

describe('device markers', () => {
  it('needs a device and a valid position; disabled devices are left out', () => {
    expect(markerOf(device(1), position(1, -23.5, -46.6))).toMatchObject({ id: 1, latitude: -23.5, longitude: -46.6, name: 'Car 1', status: 'online', course: 90 });
    expect(markerOf(device(1), undefined)).toBeNull();
    expect(markerOf(undefined, position(1, 1, 1))).toBeNull();
    expect(markerOf(device(1, { disabled: true }), position(1, 1, 1))).toBeNull();
    expect(markerOf(device(1), position(1, 100, 1))).toBeNull();
    expect(markerOf(device(1, { status: 'weird' as never }), position(1, 1, 1))?.status).toBe('unknown');
  });

  it('carries the icon of the category and colours, the labels and the accuracy', () => {
    const truck = markerOf(
      device(1, { category: 'truck', attributes: { 'tarkan.color': '155|1.5|0.8', placa: 'ABC1D23' } }),
      position(1, -23.5, -46.6, { accuracy: 30 }),
    )!;
    expect(truck.icon).toBe('icon:truck:155|1.5|0.8:');
    expect(markerOf(device(2, { category: '' }), position(2, 1, 1))!.icon).toBe('icon:default::');
    expect(markerOf(device(2, { category: 'spaceship' }), position(2, 1, 1))!.icon).toBe('icon:default::');
    expect(truck).toMatchObject({ name: 'Car 1', plate: 'ABC1D23', status: 'online' });
    expect(plateOf(device(3))).toBe('');
    // 30 m at -23.5° is 30 / (78271.517 · cos 23.5°) px at zoom 0 (doubling every zoom).
    expect(truck.acc).toBeCloseTo(30 / (78271.517 * Math.cos((23.5 * Math.PI) / 180)), 12);
    expect(accuracyPx0(0, 10)).toBe(0);
    expect(accuracyPx0(undefined, 10)).toBe(0);
  });
});
