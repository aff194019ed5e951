import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { attributesObject, flag, instant, numberIn, optionalText, ref, requiredText } from './fields.ts';
import { ATTRIBUTES_MAX_DEPTH, attributesProblem } from './attributes.ts';
import { errorText, issueText, pathText } from './messages.ts';
import { hasLoneSurrogate, textProblem } from './text.ts';
import { inRange, RANGES } from './ranges.ts';

/** The API text of a refusal, or the parsed value. */
function read(schema: z.ZodType, value: unknown, field = 'field'): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  return issueText({ ...issue, path: [field, ...issue.path] });
}

describe('texts', () => {
  it('finds lone surrogates but not proper pairs', () => {
    expect(hasLoneSurrogate('a\ud800b')).toBe(true);
    expect(hasLoneSurrogate('\udc00')).toBe(true);
    expect(hasLoneSurrogate('\udc00\ud800')).toBe(true);
    expect(hasLoneSurrogate('😀 ok')).toBe(false);
    expect(textProblem('nul\u0000')).toMatch(/NUL/);
    expect(textProblem('plain')).toBeNull();
  });

  it('required text: trimmed, numbers as text, named when missing, blank, too long or unstorable', () => {
    const name = requiredText('name', 'Name');
    expect(read(name, '  Truck ')).toBe('Truck');
    expect(read(name, 42)).toBe('42');
    expect(read(name, undefined)).toBe('Name is required - fill in the name field');
    expect(read(name, '   ')).toBe('Name is required - fill in the name field');
    expect(read(name, { a: 1 })).toBe('Name is required - fill in the name field');
    expect(read(name, 'x'.repeat(513))).toBe('Name is too long - at most 512 characters');
    expect(read(name, 'bad\ud800', 'name')).toBe('Invalid name - the text holds an unpaired UTF-16 surrogate');
    expect(read(name, 'bad\u0000', 'name')).toBe('Invalid name - the text holds a NUL character');
  });

  it('optional text: null and blank become null', () => {
    const text = optionalText();
    expect(read(text, null)).toBeNull();
    expect(read(text, '  ')).toBeNull();
    expect(read(text, ' x ')).toBe('x');
    expect(read(text, true, 'phone')).toBe('Invalid phone - a text is expected');
    expect(read(text, 'x'.repeat(4097), 'phone')).toBe('Invalid phone - at most 4096 characters');
  });
});

describe('numbers, flags, references, instants', () => {
  it('numbers must be finite and within the physical range', () => {
    const latitude = numberIn('latitude');
    expect(read(latitude, -90)).toBe(-90);
    expect(read(latitude, 90.0001, 'latitude')).toBe('Invalid latitude - must be a number from -90 to 90 degrees');
    expect(read(latitude, '10', 'latitude')).toMatch(/^Invalid latitude - /);
    expect(read(numberIn('zoom', { integer: true }), 2.5, 'zoom')).toBe('Invalid zoom - must be a whole number from 0 to 24');
    for (const value of [1e308, -1e30, Number.NaN, Number.POSITIVE_INFINITY]) expect(inRange('speed', value)).toBe(false);
    expect(inRange('speed', RANGES.speed.max)).toBe(true);
    expect(inRange('course', 360.5)).toBe(false);
  });

  it('flags take Traccar`s loose booleans', () => {
    expect([true, 1, 'true'].map((v) => read(flag, v))).toEqual([true, true, true]);
    expect([false, 0, 'false', null].map((v) => read(flag, v))).toEqual([false, false, false, false]);
    expect(read(flag, 'yes', 'disabled')).toBe('Invalid disabled - true or false is expected');
  });

  it('references: 0, "0", "" and null are none; digit texts are ids', () => {
    expect([0, '0', '', null, '00'].map((v) => read(ref, v))).toEqual([null, null, null, null, null]);
    expect(read(ref, '12')).toBe(12);
    expect(read(ref, 7)).toBe(7);
    for (const bad of [-1, 1.5, 2 ** 53, 'x', '1e3', {}]) expect(read(ref, bad, 'groupId')).toBe('Invalid groupId - an id is expected');
  });

  it('instants: ISO with offset or epoch ms, real dates within 1970–2200', () => {
    expect(read(instant, '2030-01-31T23:59:59Z')).toBe(Date.UTC(2030, 0, 31, 23, 59, 59));
    expect(read(instant, Date.UTC(2030, 0, 1))).toBe(Date.UTC(2030, 0, 1));
    expect(read(instant, null)).toBeNull();
    expect(read(instant, '')).toBeNull();
    expect(read(instant, 8640000000000001, 'expirationTime')).toBe(
      'Invalid expirationTime - must be a date from 1970 to 2200 in whole epoch milliseconds',
    );
    expect(read(instant, -1e30, 'expirationTime')).toMatch(/^Invalid expirationTime - must be a date from 1970 to 2200/);
    expect(read(instant, '2025-02-30T10:00:00Z', 'expirationTime')).toBe('Invalid expirationTime - not a real date or time of day');
    expect(read(instant, '2301-01-01T00:00:00Z', 'expirationTime')).toBe('Invalid expirationTime - the date must be from 1970 to 2200');
    expect(read(instant, '2025-01-01', 'expirationTime')).toMatch(/^Invalid expirationTime - an ISO date with offset is expected/);
  });
});

describe('attributes', () => {
  it('an object whose texts and keys are storable, nested at most 32 levels, within the size limit', () => {
    const attributes = attributesObject(1000);
    expect(read(attributes, { a: [1, { b: 'x' }], 'c.d': null })).toEqual({ a: [1, { b: 'x' }], 'c.d': null });
    expect(read(attributes, [], 'attributes')).toBe('Invalid attributes - a JSON object is expected');
    expect(read(attributes, 'nope', 'attributes')).toBe('Invalid attributes - a JSON object is expected');
    expect(read(attributes, { note: { deep: ['ok', 'x\udfff'] } }, 'attributes')).toBe(
      'Invalid attributes.note.deep[1] - the text holds an unpaired UTF-16 surrogate',
    );
    expect(read(attributes, { 'k\ud800': 1 }, 'attributes')).toBe('Invalid attributes - a key holds an unpaired UTF-16 surrogate');
    expect(read(attributes, { big: 'x'.repeat(1000) }, 'attributes')).toMatch(/^Invalid attributes - too large/);
  });

  it('refuses deep nesting without recursing (100,000 levels)', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    expect(attributesProblem({ x: deep })?.message).toBe(`nested deeper than ${ATTRIBUTES_MAX_DEPTH} levels`);
  });
});

describe('messages', () => {
  it('prefixes tails with the field path and keeps whole messages', () => {
    expect(pathText([])).toBe('body');
    expect(pathText(['attributes', 'a', 2, 'b'])).toBe('attributes.a[2].b');
    expect(pathText(['line\nbreak'])).toBe('line break');
    expect(issueText({ message: 'must be text', path: ['name'] })).toBe('Invalid name - must be text');
    expect(issueText({ message: 'Name is required - fill in the name field', path: ['name'] })).toBe('Name is required - fill in the name field');
    const failed = requiredText('name', 'Name').safeParse(undefined);
    expect(failed.success ? '' : errorText(failed.error)).toBe('Name is required - fill in the name field');
  });
});
