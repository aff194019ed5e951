// References a body makes to other objects (a notification's calendarId and commandId): the
// caller must be able to use the object, as Traccar's checkEdit demands for calendars, and it
// must exist (an administrator reaches every id, so existence is checked on its own).
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { badRequest, forbidden } from '../http/errors.ts';
import { canAccess, objectExists, objectKind } from '../permissions/link-kinds.ts';

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Throws unless `user` may use object `id` of OBJECT_KINDS kind `kindName` and it exists. */
export async function assertReference(ctx: AppContext, user: UserRow, kindName: string, id: number): Promise<void> {
  const kind = objectKind(kindName);
  const label = capitalised(kind.label);
  if (!(await canAccess(ctx, user, kind, id))) throw forbidden(`${label} access denied - you cannot use ${kind.label} ${id}`);
  if (!(await objectExists(ctx, kind, id))) throw badRequest(`${label} not found - there is no ${kind.label} ${id}`);
}
