// Reads a User JSON body (Traccar's shape) into column values. Only fields present in the
// body are returned, so a PUT keeps what it does not mention; wrong types get a 400 that
// names the field. `password` is returned apart: it is hashed, never stored as given.
import type { Updateable } from 'kysely';
import type { UserTable } from '../storage/schema.ts';
import { badRequest } from '../http/errors.ts';
import { parseIsoInstant } from '../http/json.ts';

export type UserValues = Updateable<UserTable>;

export interface UserInput {
  values: UserValues;
  /** A new password, when the body carries a non-empty one. */
  password: string | null;
}

export const MIN_NAME = 3;
export const MIN_EMAIL = 4;
export const MIN_PASSWORD = 4;

const BOOLS = ['readonly', 'administrator', 'twelveHourFormat', 'disabled', 'deviceReadonly', 'limitCommands',
  'disableReports', 'fixedEmail', 'temporary'] as const;
const NULLABLE_TEXT = ['phone', 'map', 'coordinateFormat', 'poiLayer'] as const;

export function parseUserInput(body: unknown): UserInput {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Invalid user - the body must be a JSON object');
  const input = body as Record<string, unknown>;
  const values: UserValues = {};

  if (input.name !== undefined) {
    if (typeof input.name !== 'string') throw badRequest('Invalid name - must be text');
    values.name = input.name.trim();
  }
  if (input.email !== undefined) {
    if (typeof input.email !== 'string') throw badRequest('Invalid email - must be text');
    values.email = input.email.trim();
  }
  if (input.login !== undefined) {
    if (input.login !== null && typeof input.login !== 'string') throw badRequest('Invalid login - must be text');
    values.login = typeof input.login === 'string' && input.login.trim() !== '' ? input.login.trim() : null;
  }
  for (const key of NULLABLE_TEXT) {
    const v = input[key];
    if (v === undefined) continue;
    if (v !== null && typeof v !== 'string') throw badRequest(`Invalid ${key} - must be text`);
    values[key] = v === null || v === '' ? null : v;
  }
  for (const key of BOOLS) {
    const v = input[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') throw badRequest(`Invalid ${key} - must be true or false`);
    values[key] = v ? 1 : 0;
  }
  const number = (key: 'latitude' | 'longitude' | 'zoom' | 'deviceLimit' | 'userLimit', min: number, max: number, integer: boolean) => {
    const v = input[key];
    if (v === undefined || v === null) return;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max || (integer && !Number.isInteger(v))) {
      throw badRequest(`Invalid ${key} - must be ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}`);
    }
    values[key] = v;
  };
  number('latitude', -90, 90, false);
  number('longitude', -180, 180, false);
  number('zoom', 0, 24, true);
  number('deviceLimit', -1, 1_000_000_000, true);
  number('userLimit', -1, 1_000_000_000, true);

  if (input.expirationTime !== undefined) {
    const v = input.expirationTime;
    if (v === null || v === '') values.expirationTime = null;
    else {
      const ms = typeof v === 'string' ? parseIsoInstant(v) : null;
      if (ms === null) throw badRequest('Invalid expirationTime - use an ISO 8601 date with an offset, e.g. 2030-01-31T23:59:59Z');
      values.expirationTime = ms;
    }
  }
  // The API never shows the key (it answers null), so null means "unchanged"; "" removes it.
  if (typeof input.totpKey === 'string') {
    const key = input.totpKey.trim().toUpperCase();
    if (key !== '' && !/^[A-Z2-7]{16,128}=*$/.test(key)) throw badRequest('Invalid totpKey - must be a Base32 secret');
    values.totpKey = key === '' ? null : key;
  }
  if (input.attributes !== undefined && input.attributes !== null) {
    const a = input.attributes;
    if (typeof a !== 'object' || Array.isArray(a)) throw badRequest('Invalid attributes - must be an object');
    values.attributes = JSON.stringify(a);
  }

  let password: string | null = null;
  if (input.password !== undefined && input.password !== null && input.password !== '') {
    if (typeof input.password !== 'string') throw badRequest('Invalid password - must be text');
    password = input.password;
  }
  return { values, password };
}

/** The spec §5 form rules, checked on the values a user will end up with. */
export function validateUserFields(name: string, email: string, password: string | null, creating: boolean): void {
  if (name.trim().length < MIN_NAME) throw badRequest(`Invalid name - type a name and surname, at least ${MIN_NAME} characters`);
  if (email.trim().length < MIN_EMAIL) throw badRequest(`Invalid email - the e-mail or username needs at least ${MIN_EMAIL} characters`);
  if (creating && password === null) throw badRequest(`Invalid password - a password of at least ${MIN_PASSWORD} characters is required`);
  if (password !== null && password.length < MIN_PASSWORD) {
    throw badRequest(`Invalid password - the password needs at least ${MIN_PASSWORD} characters`);
  }
}
