// Row -> API JSON for groups. `groupId` (the parent) is 0 when there is none: the OpenAPI
// contract types it as an integer and Traccar's clients compare it with 0.
import type { Group } from '@rastro/domain/entities';
import type { Selectable } from 'kysely';
import type { GroupTable } from '../storage/schema.ts';
import { parseAttributes } from '../http/json.ts';

export type GroupRow = Selectable<GroupTable>;

export function groupToJson(row: GroupRow): Group {
  return {
    id: row.id,
    name: row.name,
    groupId: row.groupId ?? 0,
    attributes: parseAttributes(row.attributes, 'group.attributes', row.id),
  };
}
