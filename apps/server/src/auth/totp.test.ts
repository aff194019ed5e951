import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, totpCode, verifyTotp } from './totp.ts';

describe('totp', () => {
  it('matches the RFC 6238 SHA-1 vectors (last 6 digits)', () => {
    const key = Buffer.from('12345678901234567890');
    expect(totpCode(key, Math.floor(59 / 30))).toBe('287082');
    expect(totpCode(key, Math.floor(1111111109 / 30))).toBe('081804');
    expect(totpCode(key, Math.floor(2000000000 / 30))).toBe('279037');
  });
  it('round-trips Base32 and verifies with one step of drift', () => {
    const key = Buffer.from('12345678901234567890');
    const secret = base32Encode(key);
    expect(secret).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode(secret)).toEqual(key);
    const now = 1111111109_000;
    expect(verifyTotp(secret, '081804', now)).toBe(true);
    expect(verifyTotp(secret, '081804', now + 30_000)).toBe(true);
    expect(verifyTotp(secret, '081804', now + 90_000)).toBe(false);
    expect(verifyTotp(secret, 'abc', now)).toBe(false);
  });
});
