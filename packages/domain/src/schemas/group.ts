// Body of POST /api/groups and PUT /api/groups/{id}: name, parent group, attributes.
import { z } from '../zod.ts';
import { attributesOrEmpty, OBJECT_EXPECTED, ref, requiredText } from './fields.ts';

export const groupSchema = z.object(
  {
    name: requiredText('name', 'Name'),
    groupId: ref.optional(),
    attributes: attributesOrEmpty.optional(),
  },
  { error: OBJECT_EXPECTED },
);

export const groupUpdateSchema = groupSchema.partial();

export const GROUP_WRITABLE_FIELDS = Object.keys(groupSchema.shape);

export type GroupInput = z.output<typeof groupSchema>;
export type GroupUpdate = z.output<typeof groupUpdateSchema>;
