// "May this caller manage that user?" — Traccar's rule: an administrator manages everyone;
// anyone manages themselves; a manager manages the users linked to them in `userUser`.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import type { UserRow } from './user-json.ts';

/** True when `managerId` is directly linked as manager of `userId`. */
export async function isManagerOf(db: Kysely<Database>, managerId: number, userId: number): Promise<boolean> {
  const link = await db
    .selectFrom('userUser')
    .select('ownerId')
    .where('ownerId', '=', managerId)
    .where('propertyId', '=', userId)
    .executeTakeFirst();
  return link !== undefined;
}

/** Caller is an administrator, the user itself, or the user's manager. */
export async function canManageUser(db: Kysely<Database>, caller: UserRow, userId: number): Promise<boolean> {
  if (caller.administrator === 1 || caller.id === userId) return true;
  if (caller.userLimit === 0) return false;
  return isManagerOf(db, caller.id, userId);
}
