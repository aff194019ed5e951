// The device editor's fields (spec §3) and where each is stored: Traccar's own fields where they
// exist, attributes otherwise (keys kept from existing installations, tarkan-reference §3.13.1).
import type { Device } from '@rastro/domain/entities';
import { COLOR_PRESETS, hsbToHex, parseHsb } from '@rastro/domain/device-color';

export const ICON_TYPES = [
  'default', 'arrow', 'person', 'animal', 'bicycle', 'motorcycle', 'scooter', 'car', 'pickup', 'van', 'truck', 'truck1',
  'truck2', 'tractor', 'boat', 'ship', 'bus', 'train', 'trolleybus', 'tram', 'crane', 'plane', 'helicopter', 'offroad',
] as const;

export const DEVICE_STATES = ['installed', 'in_service', 'in_stock', 'with_failures', 'company', 'withdrawn'] as const;

/** Colour presets (the 24 of tarkan-reference §5.5), with the colour the map's tint gives them. */
export const COLOR_PALETTE: Array<{ value: string; css: string }> = COLOR_PRESETS.map((value) => ({ value, css: hsbToHex(parseHsb(value)!) }));

export type FieldKind = 'text' | 'textarea' | 'date' | 'number' | 'email' | 'tel';
export type Tab = 'identity' | 'vehicle' | 'chip' | 'state' | 'installation';

export interface FieldDef {
  id: string;
  tab: Tab;
  /** Device property, or attribute key when `attr`. */
  key: string;
  attr?: boolean;
  kind?: FieldKind;
  /** Other attribute keys that mirror the value (read as fallback, written too). */
  mirrors?: string[];
}

export const FIELDS: FieldDef[] = [
  { id: 'name', tab: 'identity', key: 'name' },
  { id: 'uniqueId', tab: 'identity', key: 'uniqueId' },
  { id: 'contact', tab: 'identity', key: 'contact', kind: 'tel' },
  { id: 'plate', tab: 'vehicle', key: 'plate', attr: true, mirrors: ['placa'] },
  { id: 'brand', tab: 'vehicle', key: 'brand', attr: true },
  { id: 'model', tab: 'vehicle', key: 'model' },
  { id: 'renavam', tab: 'vehicle', key: 'renavam', attr: true },
  { id: 'motorNumber', tab: 'vehicle', key: 'motorNumber', attr: true },
  { id: 'vin', tab: 'vehicle', key: 'vin', attr: true },
  { id: 'chassis', tab: 'vehicle', key: 'chassis', attr: true },
  { id: 'manufacturingDate', tab: 'vehicle', key: 'date', attr: true, kind: 'date' },
  { id: 'fuelTank', tab: 'vehicle', key: 'fuelTank', attr: true, kind: 'number' },
  { id: 'driver', tab: 'vehicle', key: 'driver', attr: true },
  { id: 'monthlyValue', tab: 'vehicle', key: 'ValoMensual', attr: true, kind: 'number' },
  { id: 'observations', tab: 'vehicle', key: 'observation', attr: true, kind: 'textarea' },
  { id: 'phone', tab: 'chip', key: 'phone', kind: 'tel' },
  { id: 'iccid', tab: 'chip', key: 'iccid', attr: true },
  { id: 'operator', tab: 'chip', key: 'operator', attr: true },
  { id: 'apn', tab: 'chip', key: 'APN', attr: true },
  { id: 'broker', tab: 'chip', key: 'broker', attr: true },
  { id: 'simActivation', tab: 'chip', key: 'dataSimAct', attr: true, kind: 'date' },
  { id: 'simExpiry', tab: 'chip', key: 'dataSimVal', attr: true, kind: 'date' },
  { id: 'gpsBrand', tab: 'chip', key: 'device.gpsBrand', attr: true },
  { id: 'gpsModel', tab: 'chip', key: 'device.model', attr: true },
  { id: 'technology', tab: 'chip', key: 'device.technology', attr: true },
  { id: 'protocol', tab: 'chip', key: 'device.protocol', attr: true },
  { id: 'installCompany', tab: 'installation', key: 'instalation.empresa', attr: true },
  { id: 'installer', tab: 'installation', key: 'instalation.instalador', attr: true },
  { id: 'installPhone', tab: 'installation', key: 'instalation.phone', attr: true, kind: 'tel' },
  { id: 'installEmail', tab: 'installation', key: 'instalation.email', attr: true, kind: 'email' },
  { id: 'installDate', tab: 'installation', key: 'instalation.data', attr: true, kind: 'date' },
  { id: 'installAddress', tab: 'installation', key: 'instalation.address', attr: true },
  { id: 'installObservation', tab: 'installation', key: 'instalation.observation', attr: true, kind: 'textarea' },
];

export interface DeviceFormValues {
  fields: Record<string, string>;
  category: string;
  groupId: string;
  disabled: boolean;
  color: string;
  colorExtra: string;
  state: string;
  /** Odometer in km ('' = unchanged/unknown). */
  odometerKm: string;
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

export function formOf(device: Partial<Device> | null, totalDistanceM?: number): DeviceFormValues {
  const attrs = device?.attributes ?? {};
  const fields: Record<string, string> = {};
  for (const f of FIELDS) {
    if (f.attr) fields[f.id] = str(attrs[f.key] ?? f.mirrors?.map((m) => attrs[m]).find((v) => v !== undefined && v !== null));
    else fields[f.id] = str((device as Record<string, unknown> | null)?.[f.key]);
  }
  return {
    fields,
    category: device?.category || 'default',
    groupId: device?.groupId ? String(device.groupId) : '0',
    disabled: device?.disabled === true,
    color: str(attrs['tarkan.color']),
    colorExtra: str(attrs['tarkan.color_extra']),
    state: str(attrs['device.state']),
    odometerKm: typeof totalDistanceM === 'number' ? String(Math.round(totalDistanceM / 10) / 100) : '',
  };
}

export interface FormErrors {
  name?: string;
  uniqueId?: string;
  odometerKm?: string;
}

/** Spec §5: name and unique identifier required. Values are i18n keys. */
export function validate(v: DeviceFormValues): FormErrors {
  const errors: FormErrors = {};
  if (!v.fields.name?.trim()) errors.name = 'deviceEditor.errors.nameEmpty';
  if (!v.fields.uniqueId?.trim()) errors.uniqueId = 'deviceEditor.errors.uniqueIdEmpty';
  if (v.odometerKm.trim() && !(Number(v.odometerKm.replace(',', '.')) >= 0)) errors.odometerKm = 'deviceEditor.errors.odometerInvalid';
  return errors;
}

/** The device body to save: the original merged with the form (unknown attributes kept). */
export function deviceOf(original: Partial<Device> | null, v: DeviceFormValues, isAdmin: boolean): Partial<Device> {
  const attributes: Record<string, unknown> = { ...(original?.attributes ?? {}) };
  const body: Record<string, unknown> = { ...(original ?? {}) };
  for (const f of FIELDS) {
    const value = f.id === 'uniqueId' || f.id === 'name' ? v.fields[f.id]!.trim() : v.fields[f.id] ?? '';
    if (f.attr) {
      for (const k of [f.key, ...(f.mirrors ?? [])]) {
        if (value === '') delete attributes[k];
        else attributes[k] = f.kind === 'number' ? Number(value.replace(',', '.')) : value;
      }
    } else {
      body[f.key] = value === '' && f.key !== 'name' && f.key !== 'uniqueId' ? null : value;
    }
  }
  const setAttr = (k: string, value: string) => (value ? (attributes[k] = value) : delete attributes[k]);
  setAttr('tarkan.color', v.color);
  setAttr('tarkan.color_extra', v.colorExtra);
  setAttr('device.state', v.state);
  body.category = v.category || 'default';
  body.groupId = Number(v.groupId) || 0;
  if (isAdmin) body.disabled = v.disabled;
  body.attributes = attributes;
  return body as Partial<Device>;
}

export const odometerMetres = (km: string): number | null => {
  const t = km.trim();
  if (!t) return null;
  const n = Number(t.replace(',', '.'));
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 1000) : null;
};
