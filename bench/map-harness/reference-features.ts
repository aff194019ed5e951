// The reference strategy's GeoJSON features (bench only): what the older clustered-source map
// layer sent to MapLibre for a marker. The product draws markers on its own canvas layer.
import type { DeviceStatus } from '@rastro/domain/entities';
import { NO_PLATE, type Marker } from '../../apps/web/src/features/map/device-features.ts';
import { labelImageId } from './label-image.ts';

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
