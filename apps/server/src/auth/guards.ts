// Restriction checks every write route runs. Server-wide flags (readonly, deviceReadonly)
// apply to every non-administrator, the user's own flags to that user; administrators are
// never restricted. Failures carry the catalogue texts so clients derive the right code.
import type { UserRow } from '../users/user-json.ts';
import { accessDenied } from '../http/errors.ts';

/** The flags of the server row that guards look at (pass `await getServerRow(ctx)`). */
export interface ServerFlags {
  readonly: number | boolean;
  deviceReadonly: number | boolean;
}

const on = (v: number | boolean | null | undefined): boolean => v === true || v === 1;
const admin = (user: UserRow): boolean => user.administrator === 1;

/** May this caller create, change or delete anything? (ACCOUNT_IS_READONLY otherwise.) */
export function assertCanWrite(user: UserRow, server: ServerFlags): void {
  if (admin(user)) return;
  if (on(user.readonly) || on(server.readonly)) throw accessDenied.readonly();
}

/** May this caller create, change or delete devices? Includes `assertCanWrite`. */
export function assertCanWriteDevices(user: UserRow, server: ServerFlags): void {
  assertCanWrite(user, server);
  if (admin(user)) return;
  if (on(user.deviceReadonly) || on(server.deviceReadonly)) throw accessDenied.deviceReadonly();
}

export function assertAdmin(user: UserRow): void {
  if (!admin(user)) throw accessDenied.admin();
}

/** Administrators and managers (any non-zero userLimit). */
export function assertManager(user: UserRow): void {
  if (!admin(user) && user.userLimit === 0) throw accessDenied.manager();
}
