// /api/drivers as a resource (resources/resource-routes.ts): name, `uniqueId` (what trackers
// report as the position attribute driverUniqueId; unique among drivers) and attributes,
// linked to users (who sees them) and to devices and groups (whose positions they may drive).
// This is the stored object: telling driver changes and filling driverUniqueId from a linked
// driver is processing's work.
import type { Driver } from '@rastro/domain/entities';
import { DRIVER_WRITABLE_FIELDS, driverSchema, driverUpdateSchema } from '@rastro/domain/schemas/driver';
import { badRequest } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import { parseUpdate, parseWith } from '../http/validate.ts';
import type { ResourceDefinition, ResourceRow } from '../resources/resource.ts';

export function driverToJson(row: ResourceRow<'drivers'>): Driver {
  const id = Number(row.id);
  return { id, name: row.name, uniqueId: row.uniqueId, attributes: parseAttributes(row.attributes, 'driver.attributes', id) };
}

export const driverResource: ResourceDefinition<'drivers'> = {
  table: 'drivers',
  label: 'driver',
  path: '/api/drivers',
  key: 'driverId',
  kind: 'driver',
  links: { user: 'userDriver', device: 'deviceDriver', group: 'groupDriver' },
  columns: ['name', 'uniqueId'],
  hasAttributes: true,
  orderBy: 'name',
  search: ['name', 'uniqueId'],
  toJson: driverToJson,
  fromCreate(body) {
    const b = parseWith(driverSchema, body);
    return { name: b.name, uniqueId: b.uniqueId, attributes: JSON.stringify(b.attributes ?? {}) };
  },
  fromUpdate(body, current) {
    const b = parseUpdate(driverUpdateSchema, body, DRIVER_WRITABLE_FIELDS);
    return {
      name: b.name ?? current.name,
      uniqueId: b.uniqueId ?? current.uniqueId,
      attributes: b.attributes !== undefined ? JSON.stringify(b.attributes) : current.attributes,
    };
  },
  duplicate: (values) => badRequest(`Duplicate unique identifier - another driver already uses ${values.uniqueId}`),
};
