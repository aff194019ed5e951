// Bodies of /api/permissions: one link `{"<owner>Id": n, "<property>Id": m}` (exactly two
// keys, the first naming the owner) and /api/permissions/bulk: an array of links that all use
// the same key pair. Which key pairs exist is the server's registry; this checks the form.
import { z } from '../zod.ts';
import { isPlainObject } from './attributes.ts';

export const BULK_MAX_LINKS = 10_000;

const LINK_EXPECTED = 'Invalid permission - a JSON object with two keys like {"userId":1,"deviceId":2} is expected';

/** Link keys are Traccar's property names (`userId`, `managedUserId`...). */
const KEY = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

function idValue(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 1 ? n : null;
}

export interface PermissionLink {
  ownerKey: string;
  ownerId: number;
  propertyKey: string;
  propertyId: number;
}

export const permissionLinkSchema = z.custom<Record<string, unknown>>(isPlainObject, { error: LINK_EXPECTED }).transform((body, ctx): PermissionLink => {
  const entries = Object.entries(body);
  const fail = (message: string) => {
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  };
  if (entries.length !== 2) return fail(`Invalid permission - exactly two keys are expected, got ${entries.length}`);
  const [[ownerKey, ownerValue], [propertyKey, propertyValue]] = entries as [[string, unknown], [string, unknown]];
  if (!KEY.test(ownerKey) || !KEY.test(propertyKey)) return fail('Invalid permission - keys are property names like userId');
  const ownerId = idValue(ownerValue);
  if (ownerId === null) return fail(`Invalid permission - ${ownerKey} must be a positive id`);
  const propertyId = idValue(propertyValue);
  if (propertyId === null) return fail(`Invalid permission - ${propertyKey} must be a positive id`);
  return { ownerKey, ownerId, propertyKey, propertyId };
});

const BULK_EXPECTED = 'Invalid permissions - a non-empty JSON array of permission objects is expected';

export const permissionBulkSchema = z
  .array(permissionLinkSchema, { error: BULK_EXPECTED })
  .min(1, BULK_EXPECTED)
  .max(BULK_MAX_LINKS, `Invalid permissions - at most ${BULK_MAX_LINKS} links per request`)
  .check((ctx) => {
    const [first] = ctx.value;
    if (first && ctx.value.some((l) => l.ownerKey !== first.ownerKey || l.propertyKey !== first.propertyKey)) {
      ctx.issues.push({ code: 'custom', message: 'Invalid permissions - every item of a bulk request must use the same two keys', input: ctx.value });
    }
  });
