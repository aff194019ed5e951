import { afterEach, describe, expect, it } from 'vitest';
import { onStoredValueWarning, parseAttributes, parseIsoInstant, toIso } from './json.ts';

describe('toIso', () => {
  afterEach(() => onStoredValueWarning(() => {}));

  it('writes instants with +00:00 and keeps missing ones null', () => {
    expect(toIso(Date.UTC(2024, 0, 2, 3, 4, 5))).toBe('2024-01-02T03:04:05.000+00:00');
    expect(toIso(null)).toBeNull();
    expect(toIso(undefined)).toBeNull();
  });

  it('shows a stored value no date can hold as null and reports it once per row', () => {
    const warnings: unknown[] = [];
    onStoredValueWarning((d) => warnings.push(d));
    expect(toIso(8640000000000001, 'device.expirationTime', 7)).toBeNull();
    expect(toIso(8640000000000001, 'device.expirationTime', 7)).toBeNull();
    expect(toIso(-1e33, 'position.fixTime', 8)).toBeNull();
    expect(toIso(Number.NaN, 'position.fixTime', 9)).toBeNull();
    expect(warnings).toEqual([
      { field: 'device.expirationTime', id: 7, value: 8640000000000001 },
      { field: 'position.fixTime', id: 8, value: -1e33 },
      { field: 'position.fixTime', id: 9, value: Number.NaN },
    ]);
  });
});

describe('parseIsoInstant', () => {
  it('follows the domain rule: offset required, real dates, 1970–2200', () => {
    expect(parseIsoInstant('2024-05-01T10:00:00Z')).toBe(Date.UTC(2024, 4, 1, 10));
    expect(parseIsoInstant('2025-02-30T10:00:00Z')).toBeNull();
    expect(parseIsoInstant('2024-05-01T10:00:00')).toBeNull();
    expect(parseIsoInstant('+275760-09-13T00:00:00Z')).toBeNull();
    expect(parseIsoInstant('2999-01-01T00:00:00Z')).toBeNull();
  });
});

describe('parseAttributes', () => {
  afterEach(() => onStoredValueWarning(() => {}));

  it('reads objects; anything else is {}', () => {
    expect(parseAttributes('{"a":[1,{"b":"\\ud800"}]}')).toEqual({ a: [1, { b: '\ud800' }] });
    expect(parseAttributes('[1]')).toEqual({});
    expect(parseAttributes('not json')).toEqual({});
    expect(parseAttributes(null)).toEqual({});
  });

  it('reads a stored text nested too deep to serialise as {} and reports it once', () => {
    const warnings: unknown[] = [];
    onStoredValueWarning((d) => warnings.push(d));
    const deep = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    expect(parseAttributes(deep, 'device.attributes', 4)).toEqual({});
    expect(parseAttributes(deep, 'device.attributes', 4)).toEqual({});
    expect(warnings).toEqual([{ field: 'device.attributes', id: 4, value: 'JSON nested deeper than 64 levels' }]);
    // Long but shallow texts, with brackets inside strings, are read as usual.
    const shallow = JSON.stringify({ note: '['.repeat(500), list: Array.from({ length: 100 }, (_, i) => i) });
    expect(parseAttributes(shallow)).toEqual(JSON.parse(shallow));
  });
});
