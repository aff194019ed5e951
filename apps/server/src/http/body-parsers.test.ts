import { describe, expect, it } from 'vitest';
import { ApiError } from './errors.ts';
import { parseUrlEncoded } from './body-parsers.ts';

function refusal(text: string): string {
  try {
    parseUrlEncoded(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).message;
  }
  throw new Error(`expected ${text} to be refused`);
}

describe('parseUrlEncoded', () => {
  it('reads pairs like the usual parsers: + is a space, repeated keys become arrays', () => {
    expect({ ...parseUrlEncoded('email=a%40b.c&password=p+w%2B&x&x=2&x=3&&e=') }).toEqual({
      email: 'a@b.c', password: 'p w+', x: ['', '2', '3'], e: '',
    });
    expect({ ...parseUrlEncoded('name=%F0%9F%98%80') }).toEqual({ name: '😀' });
  });

  it('keeps a __proto__ key as a plain key', () => {
    const parsed = parseUrlEncoded('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(parsed.__proto__).toBe('x');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('refuses malformed percent-encoding and encoded surrogates, naming the key', () => {
    expect(refusal('email=%ED%A0%80')).toBe('Invalid email - malformed percent-encoding, UTF-8 is expected');
    expect(refusal('a=1&password=%ZZ')).toMatch(/^Invalid password - /);
    expect(refusal('x=%')).toMatch(/^Invalid x - /);
    expect(refusal('x=%FF')).toMatch(/^Invalid x - /);
    expect(refusal('%C0%80=1')).toMatch(/^Invalid %C0%80 - /);
  });

  it('refuses NUL in keys and values (PostgreSQL cannot compare text holding it)', () => {
    expect(refusal('email=%00')).toBe('Invalid email - the text holds a NUL character');
    expect(refusal('a%00=1')).toMatch(/NUL/);
  });
});
