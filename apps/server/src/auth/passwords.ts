// Password hashing. New hashes use scrypt (memory-hard, slow on purpose). Hashes imported
// from a Traccar database keep verifying: PBKDF2WithHmacSHA256 with the iteration count in
// the stored string, and the legacy bare-hex PBKDF2WithHmacSHA1 with 1,000 iterations.
import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;
const pbkdf2 = promisify(crypto.pbkdf2);

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

export interface StoredHash {
  hashedPassword: string;
  salt: string;
}

export async function hashPassword(password: string): Promise<StoredHash> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p, maxmem: 64 * 1024 * 1024 });
  return {
    hashedPassword: `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${key.toString('hex')}`,
    salt: salt.toString('hex'),
  };
}

function equal(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

// A hash of the current scheme that no password matches, made once per process: checking an
// unknown account (or one without a usable hash) against it costs what checking a real account
// costs, so the time of a failed login does not tell which accounts exist.
let dummy: Promise<StoredHash> | null = null;
const dummyHash = (): Promise<StoredHash> => (dummy ??= hashPassword(crypto.randomBytes(32).toString('hex')));

/**
 * True when the password matches the stored hash. Without a usable hash (unknown account, no
 * password set, unknown scheme) the same KDF work is done against a dummy and the answer is false.
 */
export async function verifyPassword(password: string, stored: StoredHash | null): Promise<boolean> {
  if (stored?.hashedPassword && stored.salt) {
    const result = await verifyStored(password, stored);
    if (result !== null) return result;
  }
  await verifyStored(password, await dummyHash());
  return false;
}

/** Checks against a stored hash; null when its scheme is not one we know. */
async function verifyStored(password: string, stored: StoredHash): Promise<boolean | null> {
  const { hashedPassword, salt } = stored;
  const saltBytes = Buffer.from(salt, 'hex');
  const parts = hashedPassword.split('$');
  if (parts[0] === 'scrypt' && parts.length === 5) {
    const [, n, r, p, hex] = parts as [string, string, string, string, string];
    const expected = Buffer.from(hex, 'hex');
    const key = await scrypt(password, saltBytes, expected.length, {
      N: Number(n), r: Number(r), p: Number(p), maxmem: 256 * 1024 * 1024,
    });
    return equal(key, expected);
  }
  if (parts[0] === 'PBKDF2WithHmacSHA256' && parts.length === 3) {
    const iterations = Number(parts[1]);
    const expected = Buffer.from(parts[2] ?? '', 'hex');
    if (!Number.isInteger(iterations) || iterations < 1 || iterations > 10_000_000) return false;
    const key = await pbkdf2(password, saltBytes, iterations, expected.length, 'sha256');
    return equal(key, expected);
  }
  if (/^[0-9a-fA-F]+$/.test(hashedPassword)) {
    const expected = Buffer.from(hashedPassword, 'hex');
    const key = await pbkdf2(password, saltBytes, 1000, expected.length, 'sha1');
    return equal(key, expected);
  }
  return null;
}
