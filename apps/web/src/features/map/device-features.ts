// Devices with a position → the devices layer's GeoJSON features (feature id = device id), and
// the property changes between two markers of the same device, so the map source is updated
// incrementally (updateData) instead of being rebuilt on every socket message.
import type { Device, DeviceStatus, Position } from '@rastro/domain/entities';
import { iconImageId } from './icon-images.ts';
import { labelImageId } from './label-image.ts';

export interface Marker {
  id: number;
  longitude: number;
  latitude: number;
  name: string;
  status: DeviceStatus;
  course: number;
  /** Map image id of the icon (category × colours). */
  icon: string;
  plate: string;
  /** Accuracy circle radius in pixels at zoom 0 (metres ÷ metres-per-pixel), 0 without accuracy. */
  acc: number;
}

export type MarkerProperties = {
  status: DeviceStatus;
  online: number;
  course: number;
  icon: string;
  labelName: string;
  labelPlate: string;
  labelBoth: string;
  acc: number;
};

export interface MarkerFeature {
  type: 'Feature';
  id: number;
  geometry: { type: 'Point'; coordinates: [number, number] };
  properties: MarkerProperties;
}

export { labelImageId };

const STATUSES: readonly DeviceStatus[] = ['online', 'offline', 'unknown'];
/** Metres per pixel at zoom 0 on the equator with MapLibre's 512 px tiles. */
const METRES_PER_PX_Z0 = 78271.517;
export const NO_PLATE = 'N/A';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '');

/** The plate of a device: attributes.plate, else the older product's attributes.placa. */
export function plateOf(device: Device): string {
  return text(device.attributes?.plate) || text(device.attributes?.placa);
}

export function accuracyPx0(accuracy: unknown, latitude: number): number {
  if (typeof accuracy !== 'number' || !Number.isFinite(accuracy) || accuracy <= 0) return 0;
  return accuracy / (METRES_PER_PX_Z0 * Math.cos((latitude * Math.PI) / 180));
}

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
    icon: iconImageId(device.category, device.attributes?.['tarkan.color'], device.attributes?.['tarkan.color_extra']),
    plate: plateOf(device),
    acc: accuracyPx0(position.accuracy, latitude),
  };
}

export function propertiesOf(m: Marker): MarkerProperties {
  const plate = m.plate || NO_PLATE;
  return {
    status: m.status,
    online: m.status === 'online' ? 1 : 0,
    course: m.course,
    icon: m.icon,
    labelName: labelImageId(m.name),
    labelPlate: labelImageId(plate),
    labelBoth: labelImageId(m.name ? `${m.name} - ${plate}` : plate),
    acc: m.acc,
  };
}

export function toFeature(m: Marker, coordinates: [number, number] = [m.longitude, m.latitude]): MarkerFeature {
  return { type: 'Feature', id: m.id, geometry: { type: 'Point', coordinates }, properties: propertiesOf(m) };
}

/** The properties that differ between two markers of one device (what updateData must send). */
export function changedProperties(before: Marker, after: Marker): Array<{ key: keyof MarkerProperties; value: unknown }> {
  const out: Array<{ key: keyof MarkerProperties; value: unknown }> = [];
  if (before.name === after.name && before.plate === after.plate && before.status === after.status && before.course === after.course &&
    before.icon === after.icon && before.acc === after.acc) return out;
  const a = propertiesOf(before);
  const b = propertiesOf(after);
  for (const key of Object.keys(b) as Array<keyof MarkerProperties>) if (a[key] !== b[key]) out.push({ key, value: b[key] });
  return out;
}

export const moved = (before: Marker, after: Marker) => before.latitude !== after.latitude || before.longitude !== after.longitude;
