// Reading a permission body (`{"<owner>Id": n, "<property>Id": m}`) and deciding whether the
// caller may add or remove it: readonly callers never may; non-administrators need access to
// both objects (a user side means: themself or a user they manage).
import { permissionBulkSchema, permissionLinkSchema, type PermissionLink } from '@rastro/domain/schemas/permission';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { badRequest, forbidden } from '../http/errors.ts';
import { parseWith } from '../http/validate.ts';
import { assertManager } from '../auth/guards.ts';
import { canAccess, findLinkKind, objectExists, objectKind, type LinkKind } from './link-kinds.ts';
import type { Link } from './permissions-repo.ts';

export interface ParsedLink {
  kind: LinkKind;
  link: Link;
}

/** The kind a link's two keys name, and its ids; 400 for unknown pairs and self-links. */
function resolveLink(parsed: PermissionLink): ParsedLink {
  const { ownerKey, propertyKey } = parsed;
  const kind = findLinkKind(ownerKey, propertyKey);
  if (!kind) throw badRequest(`Invalid permission - ${ownerKey} cannot be linked to ${propertyKey}`);
  const link = { ownerId: parsed.ownerId, propertyId: parsed.propertyId };
  if (kind.owner === kind.property && link.ownerId === link.propertyId) {
    throw badRequest(`Invalid permission - an object cannot be linked to itself`);
  }
  return { kind, link };
}

/** One permission object: exactly two keys, the first naming the owner. */
export function parseLink(body: unknown): ParsedLink {
  return resolveLink(parseWith(permissionLinkSchema, body));
}

/** A bulk body: a non-empty array of permissions that all use the same key pair. */
export function parseBulk(body: unknown): { kind: LinkKind; links: Link[] } {
  const parsed = parseWith(permissionBulkSchema, body).map(resolveLink);
  return { kind: parsed[0]!.kind, links: parsed.map((p) => p.link) };
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Throws unless `caller` may add (`adding`) or remove these links. */
export async function assertMayChange(ctx: AppContext, caller: UserRow, kind: LinkKind, links: Link[], adding: boolean): Promise<void> {
  if (kind.managersOnly) assertManager(caller);
  const owner = objectKind(kind.owner);
  const property = objectKind(kind.property);
  // The same object often appears in many links of a bulk request: check each once.
  const checked = new Set<string>();
  for (const link of links) {
    for (const [side, id] of [[owner, link.ownerId], [property, link.propertyId]] as const) {
      const key = `${side.table}:${id}`;
      if (checked.has(key)) continue;
      checked.add(key);
      if (!(await canAccess(ctx, caller, side, id))) {
        throw forbidden(`${capitalised(side.label)} access denied - you cannot use ${side.label} ${id}`);
      }
      // Non-administrators only reach existing objects; an administrator may name any id.
      if (adding && caller.administrator === 1 && !(await objectExists(ctx, side, id))) {
        throw badRequest(`${capitalised(side.label)} not found - there is no ${side.label} ${id}`);
      }
    }
  }
}
