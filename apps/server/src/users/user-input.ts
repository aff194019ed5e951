// Reads a User JSON body (Traccar's shape) into column values with the domain's user schema.
// Only fields present in the body are returned, so a PUT keeps what it does not mention; wrong
// types get a 400 that names the field (the reseller attributes too: resellers.ts). `password`
// is returned apart: it is hashed, never stored as given.
import type { Updateable } from 'kysely';
import { MIN_EMAIL, MIN_NAME, MIN_PASSWORD, USER_WRITABLE_FIELDS, userSchema } from '@rastro/domain/schemas/user';
import { nothingToUpdateText } from '@rastro/domain/schemas/messages';
import { PRIVILEGE_ATTRIBUTES, userResellerBodySchema } from '@rastro/domain/resellers';
import type { UserTable } from '../storage/schema.ts';
import { badRequest } from '../http/errors.ts';
import { parseWith } from '../http/validate.ts';

export { MIN_EMAIL, MIN_NAME, MIN_PASSWORD };

export type UserValues = Updateable<UserTable>;

export interface UserInput {
  values: UserValues;
  /** A new password, when the body carries a non-empty one. */
  password: string | null;
}

export function parseUserInput(body: unknown): UserInput {
  const { password, attributes, ...fields } = parseWith(userSchema, body);
  const values: UserValues = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    // Booleans are stored as 0/1; everything else as read.
    (values as Record<string, unknown>)[key] = typeof value === 'boolean' ? (value ? 1 : 0) : value;
  }
  if (attributes !== undefined) values.attributes = JSON.stringify(parseWith(userResellerBodySchema, { attributes }).attributes);
  return { values, password: password ?? null };
}

/** Attributes JSON without the privilege attributes (what a self-registered user may not give themselves). */
export function withoutPrivilegeAttributes(json: string): string {
  const attributes = JSON.parse(json) as Record<string, unknown>;
  for (const key of PRIVILEGE_ATTRIBUTES) delete attributes[key];
  return JSON.stringify(attributes);
}

/** A PUT body: like `parseUserInput`, refused (400) when it carries no writable field. */
export function parseUserChanges(body: unknown): UserInput {
  const input = parseUserInput(body);
  if (Object.keys(input.values).length === 0 && input.password === null) throw badRequest(nothingToUpdateText(USER_WRITABLE_FIELDS));
  return input;
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
