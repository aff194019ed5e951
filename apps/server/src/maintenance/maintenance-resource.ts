// /api/maintenance as a resource (resources/resource-routes.ts): a service interval — name,
// `type` (the position value followed), `start`, `period` — linked to users (who see it) and
// to devices and groups (which it applies to). This is the stored object: raising the
// maintenance event when a vehicle crosses a service point is the events engine's work
// (events/maintenance.ts hook).
import type { Maintenance } from '@rastro/domain/entities';
import { MAINTENANCE_WRITABLE_FIELDS, maintenanceSchema, maintenanceUpdateSchema } from '@rastro/domain/schemas/maintenance';
import { parseAttributes } from '../http/json.ts';
import { parseUpdate, parseWith } from '../http/validate.ts';
import type { ResourceDefinition, ResourceRow } from '../resources/resource.ts';

export function maintenanceToJson(row: ResourceRow<'maintenances'>): Maintenance {
  const id = Number(row.id);
  return {
    id,
    name: row.name,
    type: row.type,
    start: Number(row.start),
    period: Number(row.period),
    attributes: parseAttributes(row.attributes, 'maintenance.attributes', id),
  };
}

export const maintenanceResource: ResourceDefinition<'maintenances'> = {
  table: 'maintenances',
  label: 'maintenance',
  path: '/api/maintenance',
  key: 'maintenanceId',
  kind: 'maintenance',
  links: { user: 'userMaintenance', device: 'deviceMaintenance', group: 'groupMaintenance' },
  columns: ['name', 'type', 'start', 'period'],
  hasAttributes: true,
  orderBy: 'name',
  search: ['name'],
  toJson: maintenanceToJson,
  fromCreate(body) {
    const b = parseWith(maintenanceSchema, body);
    return { name: b.name, type: b.type, start: b.start ?? 0, period: b.period ?? 0, attributes: JSON.stringify(b.attributes ?? {}) };
  },
  fromUpdate(body, current) {
    const b = parseUpdate(maintenanceUpdateSchema, body, MAINTENANCE_WRITABLE_FIELDS);
    return {
      name: b.name ?? current.name,
      type: b.type ?? current.type,
      start: b.start ?? current.start,
      period: b.period ?? current.period,
      attributes: b.attributes !== undefined ? JSON.stringify(b.attributes) : current.attributes,
    };
  },
};
