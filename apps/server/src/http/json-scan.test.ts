import { describe, expect, it } from 'vitest';
import { LONE_SURROGATE_TEXT, NUL_TEXT } from '@rastro/domain/schemas/text';
import { MAX_JSON_DEPTH, mayNestDeeperThan, scanJson } from './json-scan.ts';

const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('scanJson', () => {
  it('accepts ordinary JSON, proper surrogate pairs (escaped or raw) and escaped quotes', () => {
    expect(scanJson('{"a":[1,{"b":"x"}],"c":"\\"[{"}')).toBeNull();
    expect(scanJson('{"emoji":"\\ud83d\\ude00","raw":"😀"}')).toBeNull();
    expect(scanJson(nested(MAX_JSON_DEPTH))).toBeNull();
    // Brackets inside strings do not count.
    expect(scanJson(`{"a":"${'['.repeat(1000)}"}`)).toBeNull();
  });

  it('refuses nesting deeper than the limit, before any parsing', () => {
    expect(scanJson(nested(MAX_JSON_DEPTH + 1))).toEqual({ kind: 'depth', maxDepth: MAX_JSON_DEPTH });
    expect(scanJson(`{"a":${'{"b":'.repeat(200)}1${'}'.repeat(200)}}`)).toEqual({ kind: 'depth', maxDepth: MAX_JSON_DEPTH });
    // A million levels: one pass, no recursion.
    expect(scanJson('['.repeat(1_000_000))?.kind).toBe('depth');
  });

  it('finds unpaired surrogates, escaped or raw, and names where they are', () => {
    expect(scanJson('{"name":"d\\ud800"}')).toEqual({ kind: 'text', path: 'name', message: LONE_SURROGATE_TEXT });
    expect(scanJson('{"name":"\\uDC00x"}')).toEqual({ kind: 'text', path: 'name', message: LONE_SURROGATE_TEXT });
    expect(scanJson('{"a":1,"attributes":{"x":[0,"ok","\\ud83d\\u0041"]}}')).toEqual({ kind: 'text', path: 'attributes.x[2]', message: LONE_SURROGATE_TEXT });
    expect(scanJson('[{"userId":1},{"deviceId":"\\ud800"}]')).toEqual({ kind: 'text', path: '[1].deviceId', message: LONE_SURROGATE_TEXT });
    expect(scanJson('{"attributes":{"k\\ud800":1}}')).toEqual({ kind: 'text', path: 'attributes', message: LONE_SURROGATE_TEXT });
    expect(scanJson('"\\udfff"')).toEqual({ kind: 'text', path: 'body', message: LONE_SURROGATE_TEXT });
    expect(scanJson('{"raw":"\ud800"}')).toEqual({ kind: 'text', path: 'raw', message: LONE_SURROGATE_TEXT });
    expect(scanJson('{"we\\"ird":"\\ud800"}')).toEqual({ kind: 'text', path: 'we"ird', message: LONE_SURROGATE_TEXT });
  });

  it('finds NUL characters (PostgreSQL text cannot hold them)', () => {
    expect(scanJson('{"email":"a\\u0000b"}')).toEqual({ kind: 'text', path: 'email', message: NUL_TEXT });
    expect(scanJson('{"a":"\\\\u0000"}')).toBeNull(); // an escaped backslash, then the text u0000
  });

  it('leaves malformed JSON to the parser', () => {
    expect(scanJson('{"a":')).toBeNull();
    expect(scanJson(']]]]')).toBeNull();
    expect(scanJson('"\\u12"')).toBeNull();
  });

  it('stays linear on large bodies (1 MB in well under a second)', () => {
    const big = JSON.stringify({ items: Array.from({ length: 50_000 }, (_, i) => ({ i, text: 'abc "quoted" \\ [x]' })) });
    const start = performance.now();
    expect(scanJson(big)).toBeNull();
    expect(performance.now() - start).toBeLessThan(1000);
  });
});

describe('mayNestDeeperThan', () => {
  it('is false while the text has no more opening brackets than the depth', () => {
    expect(mayNestDeeperThan('{"a":[1,2],"b":{"c":3}}', 3)).toBe(false);
    expect(mayNestDeeperThan('{"a":[1,2],"b":{"c":3}}', 2)).toBe(true);
    expect(mayNestDeeperThan('[[[]]]', 3)).toBe(false);
    expect(mayNestDeeperThan('[[[[]]]]', 3)).toBe(true);
  });
});
