// Devices with a position → the markers the vehicle layer draws (id = device id): where, which
// icon (category × colours), status, course, plate and accuracy.
import type { Device, DeviceStatus, Position } from '@rastro/domain/entities';
import { iconImageId } from './icon-images.ts';

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
