// Field schemas the request bodies are built from. Their messages follow messages.ts: a tail
// ("must be a number from -90 to 90 degrees") that the formatter prefixes with the field's
// path, or a whole Traccar-style line when the field needs its own title.
import { z } from '../zod.ts';
import { ATTRIBUTES_MAX_BYTES, attributesProblem, isPlainObject, type Attributes } from './attributes.ts';
import { instantProblemText, isInstantInRange, readIsoInstant } from './instant.ts';
import { inRange, rangeText, type RangeName } from './ranges.ts';
import { textProblem } from './text.ts';

/** What a body that is not a JSON object is told. */
export const OBJECT_EXPECTED = 'Invalid body - a JSON object is expected';

/** Longest name-like text (names, unique ids). */
export const NAME_MAX = 512;
/** Longest free text (phone, model, description, map URLs...). */
export const TEXT_MAX = 4096;

type Issues = z.core.$RefinementCtx<unknown>;

function fail(ctx: Issues, message: string, path: PropertyKey[] = []): typeof z.NEVER {
  ctx.addIssue({ code: 'custom', message, path });
  return z.NEVER;
}

/** Checks a text already trimmed; returns it, or reports why it cannot be stored. */
function storable(text: string, max: number, ctx: Issues, tooLong = `at most ${max} characters`): string {
  if (text.length > max) return fail(ctx, tooLong);
  const problem = textProblem(text);
  return problem ? fail(ctx, problem) : text;
}

/** A required, non-blank text (a number is taken as its text), trimmed. */
export function requiredText(key: string, label: string, max = NAME_MAX) {
  const required = `${label} is required - fill in the ${key} field`;
  return z.union([z.string(), z.number()], { error: required }).transform((value, ctx) => {
    const text = String(value).trim();
    if (text === '') return fail(ctx, required);
    return storable(text, max, ctx, `${label} is too long - at most ${max} characters`);
  });
}

/** An optional text (a number is taken as its text), trimmed; empty or null becomes null. */
export function optionalText(max = TEXT_MAX) {
  return z.union([z.string(), z.number(), z.null()], { error: 'a text is expected' }).transform((value, ctx) => {
    if (value === null) return null;
    const text = String(value).trim();
    return text === '' ? null : storable(text, max, ctx);
  });
}

/** A text that must be a JSON string, kept as sent (not trimmed). */
export function exactText(max = TEXT_MAX) {
  return z.string({ error: 'must be text' }).transform((text, ctx) => storable(text, max, ctx));
}

/** Traccar's lenient boolean: true/false, 1/0, "true"/"false"; null is false. */
export const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.literal('true'), z.literal('false'), z.null()], { error: 'true or false is expected' })
  .transform((v) => v === true || v === 1 || v === 'true');

/** A JSON boolean only. */
export const strictBool = z.boolean({ error: 'must be true or false' });

/** A reference to another object: 0, "0", "" and null mean none; a digit text is read as a number. */
export const ref = z.union([z.number(), z.string(), z.null()], { error: 'an id is expected' }).transform((value, ctx) => {
  if (value === null || value === '') return null;
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return fail(ctx, 'an id is expected');
  return n === 0 ? null : n;
});

/** A positive id, as a number or a digit text. */
export function positiveId(message = 'a positive id is expected') {
  return z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    const n = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) return fail(ctx, message);
    return n;
  });
}

/**
 * An instant: ISO-8601 with an offset, or epoch milliseconds, within 1970–2200 and naming a
 * real date; null and "" mean none.
 */
export const instant = z.union([z.string(), z.number(), z.null()], { error: instantProblemText('format') }).transform((value, ctx) => {
  if (value === null || value === '') return null;
  if (typeof value === 'number') {
    return isInstantInRange(value) ? value : fail(ctx, 'must be a date from 1970 to 2200 in whole epoch milliseconds');
  }
  const reading = readIsoInstant(value);
  return reading.ok ? reading.ms : fail(ctx, instantProblemText(reading.problem));
});

/** A JSON number within a physical or configured range (ranges.ts). */
export function numberIn(name: RangeName, options: { integer?: boolean } = {}) {
  const message = `must be ${options.integer ? 'a whole number' : 'a number'} ${rangeText(name)}`;
  return z.number({ error: message }).check((ctx) => {
    if (!inRange(name, ctx.value) || (options.integer && !Number.isInteger(ctx.value))) {
      ctx.issues.push({ code: 'custom', message, input: ctx.value });
    }
  });
}

/** A number within a range, also given as a decimal text (forms send text). */
export function amountIn(name: RangeName) {
  const message = `must be a number ${rangeText(name)}`;
  return z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    return typeof n === 'number' && inRange(name, n) ? n : fail(ctx, message);
  });
}

/** The free-form `attributes` object (attributes.ts says what is refused). */
export function attributesObject(maxBytes = ATTRIBUTES_MAX_BYTES) {
  return z.custom<Attributes>(isPlainObject, { error: 'a JSON object is expected' }).check((ctx) => {
    const problem = attributesProblem(ctx.value, maxBytes);
    if (problem) ctx.issues.push({ code: 'custom', message: problem.message, input: ctx.value, path: problem.path });
  });
}

/** `attributes` where null means an empty object. */
export const attributesOrEmpty = attributesObject().nullable().transform((v): Attributes => v ?? {});
