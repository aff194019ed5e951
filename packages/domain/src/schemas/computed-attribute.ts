// Body of POST /api/attributes/computed and PUT /api/attributes/computed/{id}: a computed
// attribute — `expression` (a JEXL expression over the position) sets the position value
// `attribute`, read as `type` (string, number or boolean); attributes with a negative
// `priority` run before the rest of processing, the others after motion. Traccar's Attribute
// has no free-form `attributes` map.
import { z } from '../zod.ts';
import { OBJECT_EXPECTED, requiredText, TEXT_MAX } from './fields.ts';

export const COMPUTED_ATTRIBUTE_TYPES = ['string', 'number', 'boolean'] as const;
export type ComputedAttributeType = (typeof COMPUTED_ATTRIBUTE_TYPES)[number];

/** Longest target key (Traccar's column holds 128 characters). */
export const ATTRIBUTE_KEY_MAX = 128;

const TYPE_TEXT = `must be one of ${COMPUTED_ATTRIBUTE_TYPES.join(', ')}`;

/** The output type; Traccar's documentation capitalises it (String|Number|Boolean), so case is ignored. */
export const computedAttributeType = z.string({ error: 'Type is required - fill in the type field (string, number or boolean)' }).transform((value, ctx) => {
  const type = value.trim().toLowerCase();
  if ((COMPUTED_ATTRIBUTE_TYPES as readonly string[]).includes(type)) return type as ComputedAttributeType;
  ctx.addIssue({ code: 'custom', message: TYPE_TEXT });
  return z.NEVER;
});

const PRIORITY_TEXT = 'must be a whole number';

/** A whole number (or its digit text); null and "" count as 0. */
export const priority = z.union([z.number(), z.string(), z.null()], { error: PRIORITY_TEXT }).transform((value, ctx) => {
  const n = value === null || (typeof value === 'string' && value.trim() === '') ? 0 : Number(value);
  if (!Number.isSafeInteger(n) || Math.abs(n) > 2 ** 31 - 1) {
    ctx.addIssue({ code: 'custom', message: PRIORITY_TEXT });
    return z.NEVER;
  }
  return n;
});

export const computedAttributeSchema = z.object(
  {
    description: requiredText('description', 'Description', TEXT_MAX),
    attribute: requiredText('attribute', 'Attribute', ATTRIBUTE_KEY_MAX),
    expression: requiredText('expression', 'Expression', TEXT_MAX),
    type: computedAttributeType,
    priority: priority.optional(),
  },
  { error: OBJECT_EXPECTED },
);

export const computedAttributeUpdateSchema = computedAttributeSchema.partial();

export const COMPUTED_ATTRIBUTE_WRITABLE_FIELDS = Object.keys(computedAttributeSchema.shape);

export type ComputedAttributeInput = z.output<typeof computedAttributeSchema>;
export type ComputedAttributeUpdate = z.output<typeof computedAttributeUpdateSchema>;
