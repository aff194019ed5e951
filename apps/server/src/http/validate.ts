// Reads a request body (or any client value) with a zod schema from packages/domain and turns
// a refusal into the API's 400: a text whose first line names the field, like Traccar.
import type { z } from 'zod';
import { errorText, hasWritableField, nothingToUpdateText } from '@rastro/domain/schemas/messages';
import { badRequest } from './errors.ts';

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(errorText(result.error));
  return result.data;
}

/**
 * An update body read with `schema`, refused when it carries no writable field: an empty
 * UPDATE would fail in SQL, and a client sending nothing to change has made a mistake.
 * A field equal to the stored value still counts (Traccar clients PUT the whole object).
 */
export function parseUpdate<S extends z.ZodType<object>>(schema: S, value: unknown, writable: readonly string[]): z.output<S> {
  const values = parseWith(schema, value);
  if (!hasWritableField(values)) throw badRequest(nothingToUpdateText(writable));
  return values;
}
