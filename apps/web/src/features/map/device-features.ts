// Devices with a position → the map's GeoJSON features, and the smallest change between two
// snapshots (added, moved or changed, removed), so the map source is updated incrementally
// instead of being rebuilt on every socket message.
import type { Device, DeviceStatus, Position } from '@rastro/domain/entities';

export interface Marker {
  id: number;
  longitude: number;
  latitude: number;
  name: string;
  status: DeviceStatus;
  course: number;
}

export interface MarkerFeature {
  type: 'Feature';
  id: number;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: { name: string; status: DeviceStatus; course: number; label: string };
}

export interface MarkerDiff {
  add: MarkerFeature[];
  update: Array<{ id: number; newGeometry?: MarkerFeature['geometry']; addOrUpdateProperties?: Array<{ key: string; value: unknown }> }>;
  remove: number[];
}

/** The image id of a device's name label (drawn on demand by the map). */
export const labelImageId = (name: string) => `label:${name}`;

const STATUSES: readonly DeviceStatus[] = ['online', 'offline', 'unknown'];

export function markerOf(device: Device | undefined, position: Position | undefined): Marker | null {
  if (!device || !position || device.disabled) return null;
  const { latitude, longitude } = position;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return {
    id: device.id,
    latitude,
    longitude,
    name: device.name ?? '',
    status: STATUSES.includes(device.status) ? device.status : 'unknown',
    course: Number.isFinite(position.course) ? position.course : 0,
  };
}

export function toFeature(m: Marker): MarkerFeature {
  return {
    type: 'Feature',
    id: m.id,
    geometry: { type: 'Point', coordinates: [m.longitude, m.latitude] },
    properties: { name: m.name, status: m.status, course: m.course, label: labelImageId(m.name) },
  };
}

/** Every marker of the store's devices that has a usable position. */
export function markersOf(devices: Record<number, Device>, positions: Record<number, Position>): Map<number, Marker> {
  const out = new Map<number, Marker>();
  for (const key of Object.keys(devices)) {
    const id = Number(key);
    const marker = markerOf(devices[id], positions[id]);
    if (marker) out.set(id, marker);
  }
  return out;
}

export function diffMarkers(previous: ReadonlyMap<number, Marker>, next: ReadonlyMap<number, Marker>): MarkerDiff {
  const diff: MarkerDiff = { add: [], update: [], remove: [] };
  for (const id of previous.keys()) if (!next.has(id)) diff.remove.push(id);
  for (const [id, m] of next) {
    const before = previous.get(id);
    if (!before) {
      diff.add.push(toFeature(m));
      continue;
    }
    const moved = before.latitude !== m.latitude || before.longitude !== m.longitude;
    const props: Array<{ key: string; value: unknown }> = [];
    if (before.name !== m.name) props.push({ key: 'name', value: m.name }, { key: 'label', value: labelImageId(m.name) });
    if (before.status !== m.status) props.push({ key: 'status', value: m.status });
    if (before.course !== m.course) props.push({ key: 'course', value: m.course });
    if (!moved && props.length === 0) continue;
    diff.update.push({
      id,
      ...(moved ? { newGeometry: { type: 'Point' as const, coordinates: [m.longitude, m.latitude] as [number, number] } } : {}),
      ...(props.length ? { addOrUpdateProperties: props } : {}),
    });
  }
  return diff;
}

export const isEmptyDiff = (d: MarkerDiff) => d.add.length === 0 && d.update.length === 0 && d.remove.length === 0;
