import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './passwords.ts';

describe('passwords', () => {
  it('hashes with scrypt and verifies', async () => {
    const stored = await hashPassword('s3cret');
    expect(stored.hashedPassword.startsWith('scrypt$')).toBe(true);
    expect(await verifyPassword('s3cret', stored)).toBe(true);
    expect(await verifyPassword('wrong', stored)).toBe(false);
  });

  it('verifies a Traccar PBKDF2WithHmacSHA256 hash', async () => {
    const salt = crypto.randomBytes(24);
    const hash = crypto.pbkdf2Sync('admin', salt, 200000, 24, 'sha256');
    const stored = { hashedPassword: `PBKDF2WithHmacSHA256$200000$${hash.toString('hex')}`, salt: salt.toString('hex') };
    expect(await verifyPassword('admin', stored)).toBe(true);
    expect(await verifyPassword('admin2', stored)).toBe(false);
  });

  it('verifies a legacy Traccar PBKDF2WithHmacSHA1 hash', async () => {
    const salt = crypto.randomBytes(24);
    const hash = crypto.pbkdf2Sync('admin', salt, 1000, 24, 'sha1');
    const stored = { hashedPassword: hash.toString('hex').toUpperCase(), salt: salt.toString('hex').toUpperCase() };
    expect(await verifyPassword('admin', stored)).toBe(true);
    expect(await verifyPassword('nope', stored)).toBe(false);
  });

  it('refuses missing or malformed hashes', async () => {
    expect(await verifyPassword('x', null)).toBe(false);
    expect(await verifyPassword('x', { hashedPassword: 'bogus$1', salt: 'aa' })).toBe(false);
  });
});
