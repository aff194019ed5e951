// Where the map opens (spec §9): the user's latitude/longitude/zoom, else the server's; zoom 17
// when the chosen one gives none. Coordinates count only when both are non-zero and in range
// (Traccar stores 0/0 for "not set"). Without any, the map fits the devices' positions, and
// without positions it shows São Paulo.

export const DEFAULT_ZOOM = 17;
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 19;
/** Praça da Sé, São Paulo. */
export const SAO_PAULO: [number, number] = [-46.6340, -23.5503];
export const SAO_PAULO_ZOOM = 10;
/** Fitting to devices never zooms closer than this (one device would otherwise fill the screen). */
export const FIT_MAX_ZOOM = 16;

export interface ViewSource {
  latitude?: number | null;
  longitude?: number | null;
  zoom?: number | null;
}

export interface LonLat {
  latitude: number;
  longitude: number;
}

export type InitialView =
  | { kind: 'center'; center: [number, number]; zoom: number; from: 'user' | 'server' | 'default' }
  | { kind: 'fit'; bounds: [[number, number], [number, number]] };

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function validCoordinates(source: ViewSource | null | undefined): source is ViewSource & LonLat {
  if (!source) return false;
  const { latitude, longitude } = source;
  return (
    finite(latitude) && finite(longitude) && latitude !== 0 && longitude !== 0 &&
    Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180
  );
}

export function viewZoom(zoom: unknown): number {
  if (!finite(zoom) || zoom <= 0) return DEFAULT_ZOOM;
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/** The bounding box [[west, south], [east, north]] of the valid points, or null. */
export function boundsOf(points: readonly LonLat[]): [[number, number], [number, number]] | null {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (const p of points) {
    if (!validCoordinates(p)) continue;
    west = Math.min(west, p.longitude);
    east = Math.max(east, p.longitude);
    south = Math.min(south, p.latitude);
    north = Math.max(north, p.latitude);
  }
  return west === Infinity ? null : [[west, south], [east, north]];
}

export function initialView(user: ViewSource | null | undefined, server: ViewSource | null | undefined, positions: readonly LonLat[] = []): InitialView {
  if (validCoordinates(user)) return { kind: 'center', center: [user.longitude, user.latitude], zoom: viewZoom(user.zoom), from: 'user' };
  if (validCoordinates(server)) return { kind: 'center', center: [server.longitude, server.latitude], zoom: viewZoom(server.zoom), from: 'server' };
  const bounds = boundsOf(positions);
  if (bounds) return { kind: 'fit', bounds };
  return { kind: 'center', center: SAO_PAULO, zoom: SAO_PAULO_ZOOM, from: 'default' };
}
