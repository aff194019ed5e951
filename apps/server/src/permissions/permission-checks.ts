// Reading a permission body (`{"<owner>Id": n, "<property>Id": m}`) and deciding whether the
// caller may add or remove it: readonly callers never may; non-administrators need access to
// both objects (a user side means: themself or a user they manage).
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { badRequest, forbidden } from '../http/errors.ts';
import { assertManager } from '../auth/guards.ts';
import { canAccess, findLinkKind, objectExists, objectKind, type LinkKind } from './link-kinds.ts';
import type { Link } from './permissions-repo.ts';

export interface ParsedLink {
  kind: LinkKind;
  link: Link;
}

function idValue(key: string, value: unknown): number {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw badRequest(`Invalid permission - ${key} must be a positive id`);
  }
  return n;
}

/** One permission object: exactly two keys, the first naming the owner. */
export function parseLink(body: unknown): ParsedLink {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw badRequest('Invalid permission - a JSON object with two keys like {"userId":1,"deviceId":2} is expected');
  }
  const entries = Object.entries(body as Record<string, unknown>);
  if (entries.length !== 2) {
    throw badRequest(`Invalid permission - exactly two keys are expected, got ${entries.length}`);
  }
  const [[ownerKey, ownerValue], [propertyKey, propertyValue]] = entries as [[string, unknown], [string, unknown]];
  const kind = findLinkKind(ownerKey, propertyKey);
  if (!kind) throw badRequest(`Invalid permission - ${ownerKey} cannot be linked to ${propertyKey}`);
  const link = { ownerId: idValue(ownerKey, ownerValue), propertyId: idValue(propertyKey, propertyValue) };
  if (kind.owner === kind.property && link.ownerId === link.propertyId) {
    throw badRequest(`Invalid permission - an object cannot be linked to itself`);
  }
  return { kind, link };
}

/** A bulk body: a non-empty array of permissions that all use the same key pair. */
export function parseBulk(body: unknown): { kind: LinkKind; links: Link[] } {
  if (!Array.isArray(body) || body.length === 0) {
    throw badRequest('Invalid permissions - a non-empty JSON array of permission objects is expected');
  }
  if (body.length > 10_000) throw badRequest('Invalid permissions - at most 10000 links per request');
  const parsed = body.map(parseLink);
  const kind = parsed[0]!.kind;
  if (parsed.some((p) => p.kind !== kind)) {
    throw badRequest('Invalid permissions - every item of a bulk request must use the same two keys');
  }
  return { kind, links: parsed.map((p) => p.link) };
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
