// /api/attributes/computed as a resource (resources/resource-routes.ts): a computed
// attribute — description, target `attribute`, `expression`, output `type`, `priority` — linked
// to users (who see it) and to devices and groups (whose positions it applies to). Only
// administrators create, change or delete them, as in Traccar: an expression runs on every
// position of the devices it applies to. This is the stored object: evaluating expressions
// (and POST /api/attributes/computed/test) is the computed attributes engine's work.
import type { ComputedAttribute } from '@rastro/domain/entities';
import {
  COMPUTED_ATTRIBUTE_WRITABLE_FIELDS,
  computedAttributeSchema,
  computedAttributeUpdateSchema,
  type ComputedAttributeType,
} from '@rastro/domain/schemas/computed-attribute';
import { parseUpdate, parseWith } from '../http/validate.ts';
import type { ResourceDefinition, ResourceRow } from '../resources/resource.ts';

export function computedAttributeToJson(row: ResourceRow<'computedAttributes'>): ComputedAttribute {
  return {
    id: Number(row.id),
    description: row.description,
    attribute: row.attribute,
    expression: row.expression,
    type: row.type as ComputedAttributeType,
    priority: Number(row.priority),
  };
}

export const computedAttributeResource: ResourceDefinition<'computedAttributes'> = {
  table: 'computedAttributes',
  label: 'computed attribute',
  path: '/api/attributes/computed',
  key: 'attributeId',
  kind: 'computedAttribute',
  links: { user: 'userAttribute', device: 'deviceAttribute', group: 'groupAttribute' },
  columns: ['description', 'attribute', 'expression', 'type', 'priority'],
  hasAttributes: false,
  orderBy: 'description',
  search: ['description'],
  adminWrites: true,
  toJson: computedAttributeToJson,
  fromCreate(body) {
    const b = parseWith(computedAttributeSchema, body);
    return { description: b.description, attribute: b.attribute, expression: b.expression, type: b.type, priority: b.priority ?? 0 };
  },
  fromUpdate(body, current) {
    const b = parseUpdate(computedAttributeUpdateSchema, body, COMPUTED_ATTRIBUTE_WRITABLE_FIELDS);
    return {
      description: b.description ?? current.description,
      attribute: b.attribute ?? current.attribute,
      expression: b.expression ?? current.expression,
      type: b.type ?? current.type,
      priority: b.priority ?? current.priority,
    };
  },
};
