// Secrets never reach the audit table: a password, a token or a key in `data` / `old` is
// replaced by AUDIT_MASK whatever its nesting (attributes such as `tarkan.driverPassword` or
// a notification token included). A share user's e-mail is its token (tarkan-reference
// §7.4), so any other string equal to a masked value is masked too.
import { AUDIT_MASK } from '@rastro/domain/audit';

/** Keys whose values are secrets (case-insensitive, anywhere in the key). */
const SECRET_KEY = /password|passwd|token|secret|salt|totp|apikey|api_key|privatekey|hashed/i;

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function collectSecrets(value: unknown, into: Set<string>, secretKey: boolean): void {
  if (secretKey) {
    if (typeof value === 'string' && value.length >= 4) into.add(value);
    // A secret key holding a list or object (notification tokens): every string in it is secret.
    if (Array.isArray(value)) for (const item of value) collectSecrets(item, into, true);
    if (isPlainObject(value)) for (const item of Object.values(value)) collectSecrets(item, into, true);
    return;
  }
  if (Array.isArray(value)) for (const item of value) collectSecrets(item, into, false);
  else if (isPlainObject(value)) for (const [key, item] of Object.entries(value)) collectSecrets(item, into, SECRET_KEY.test(key));
}

function masked(value: unknown, secrets: Set<string>, secretKey: boolean): unknown {
  if (secretKey) return value === null || value === undefined || value === '' ? value : AUDIT_MASK;
  if (typeof value === 'string') return secrets.has(value) ? AUDIT_MASK : value;
  if (Array.isArray(value)) return value.map((item) => masked(item, secrets, false));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, masked(item, secrets, SECRET_KEY.test(key))]));
  }
  return value;
}

/**
 * Copies of `values` (the `data` and `old` of one row, masked together so a secret seen in
 * one is hidden in the other) without secrets. Empty secret values (null, '') stay as they are:
 * "no password" is not a secret and tells the reader the field was cleared.
 */
export function maskSecrets<T extends Array<Record<string, unknown> | null | undefined>>(...values: T): T {
  const secrets = new Set<string>();
  for (const value of values) collectSecrets(value, secrets, false);
  return values.map((value) => (value ? masked(value, secrets, false) : value)) as T;
}

/** True when `key` names a secret (tests and callers that build data by hand). */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}
