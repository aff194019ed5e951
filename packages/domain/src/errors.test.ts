import { describe, expect, it } from 'vitest';
import { deriveErrorCode, ERROR_CODES, SERVER_ERROR_TEXTS } from './errors.ts';

describe('deriveErrorCode', () => {
  it('keeps the text before the first dash, upper-cased with underscores', () => {
    expect(deriveErrorCode('Account is disabled - SecurityException')).toBe('ACCOUNT_IS_DISABLED');
  });
  it('reads only the first line', () => {
    expect(deriveErrorCode('HTTP 401 Unauthorized\n at java.lang - x')).toBe('HTTP_401_UNAUTHORIZED');
  });
  it('gives UNKNOWN_ERROR for an empty text', () => {
    expect(deriveErrorCode('')).toBe('UNKNOWN_ERROR');
    expect(deriveErrorCode(' - nothing before')).toBe('UNKNOWN_ERROR');
  });
  it('derives a catalogue code from every server text', () => {
    const codes = new Set<string>(ERROR_CODES);
    for (const [key, text] of Object.entries(SERVER_ERROR_TEXTS)) {
      if (key === 'tooManyAttempts') continue;
      expect(codes.has(deriveErrorCode(text)), `${key}: ${text}`).toBe(true);
    }
  });
});
