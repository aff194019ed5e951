// "May this caller manage that user?" — an administrator manages everyone; anyone manages
// themselves; a manager (userLimit != 0) manages every user of its tree at any depth (the
// closure of the `userUser` links, access/user-tree.ts) — Traccar stops at direct links.
import type { Kysely } from 'kysely';
import type { Database } from '../storage/schema.ts';
import { isBelow } from '../access/user-tree.ts';
import type { UserRow } from './user-json.ts';

/** True when `userId` is in the tree of `managerId` (directly linked or further down). */
export function isManagerOf(db: Kysely<Database>, managerId: number, userId: number): Promise<boolean> {
  return isBelow(db, managerId, userId);
}

/** Caller is an administrator, the user itself, or a manager with the user in its tree. */
export async function canManageUser(db: Kysely<Database>, caller: UserRow, userId: number): Promise<boolean> {
  if (caller.administrator === 1 || caller.id === userId) return true;
  if (caller.userLimit === 0) return false;
  return isManagerOf(db, caller.id, userId);
}
