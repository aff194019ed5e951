// Error codes of the spec §8 and the rule that derives them from a server's error text.

export const ERROR_CODES = [
  'FILL_ALL_FIELDS',
  'HTTP_401_UNAUTHORIZED',
  'ACCOUNT_IS_BLOCKED',
  'ACCOUNT_IS_DISABLED',
  'ACCOUNT_IS_SUSPENDED',
  'ACCOUNT_IS_SUSPENDED_TRUST',
  'ACCOUNT_IS_READONLY',
  'ACCOUNT_IS_DEVICE_READONLY',
  'USER_DEVICE_LIMIT_REACHED',
  'WRITE_ACCESS_DENIE',
  'WRITE_ACCESS_DENIED',
  'USER_NOT_AUTHED',
  'REGISTRATION_DISABLED',
  'INVALID_SHARE',
  'INVALID_LOGIN_DATA',
  'UNKNOWN_ERROR',
  'CONNECTION_ERROR',
  'LOGIN_PROCESS_ERROR',
  'FILL_EMAIL_FIELD',
  'FILL_TOKEN_FIELD',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Spec §8: the code is the server's error text before its first dash, trimmed,
 * spaces replaced by underscores, upper-cased. Only the first line counts
 * (Traccar puts a stack trace after it).
 */
export function deriveErrorCode(text: string): string {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const beforeDash = firstLine.split('-', 1)[0] ?? '';
  const code = beforeDash.trim().replace(/\s+/g, '_').toUpperCase();
  return code === '' ? 'UNKNOWN_ERROR' : code;
}

/**
 * The texts our server answers with, written so that `deriveErrorCode` gives the
 * catalogue code and the rest of the line explains it to a person reading raw HTTP.
 */
export const SERVER_ERROR_TEXTS = {
  badCredentials: 'HTTP 401 Unauthorized - invalid username and password combination',
  disabled: 'Account is disabled - contact the administrator',
  expired: 'Account is blocked - the account has expired, contact the administrator',
  readonly: 'Account is readonly - this account cannot change data',
  deviceReadonly: 'Account is device readonly - this account cannot change devices',
  deviceLimit: 'User device limit reached - no more devices can be added',
  writeDenied: 'Write access denied - you cannot change this object',
  notAuthed: 'User not authed - sign in again',
  registrationDisabled: 'Registration disabled - creating new users is blocked',
  invalidLogin: 'Invalid login data - the token is invalid or expired',
  tooManyAttempts: 'Too many attempts - wait a few minutes before trying again',
  fillAllFields: 'Fill all fields - both the e-mail and the password are required',
  fillEmail: 'Fill email field - the e-mail is required to recover a password',
  fillToken: 'Fill token field - the recovery token is required to set a new password',
} as const;
