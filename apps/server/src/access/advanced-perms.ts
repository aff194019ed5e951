// The advanced permission bits of spec §6 (tarkan-reference §5.1) enforced on the API, not
// only hidden in the client. One table, ADVANCED_PERMISSION_ROUTES, says which bits each route
// needs ("METHOD /route/as/registered"); one preHandler hook (registered in app.ts after the
// caller is resolved) applies it to every request. The check itself is the domain's
// `hasPermission` (administrators pass; QR drivers never; without the plus licence everyone
// passes; with advanced permissions off or no flags a non-shared user passes; otherwise the bit
// decides), so the server and the client's menus can never disagree.
//
// A route needs its area bit (a list or a read of that area) and, for writes, the action bit
// too. Two deliberate exceptions: reading devices is never gated (the map shows every person
// their fleet, whatever the devices screen bit says), and a user's own record is theirs to
// read and change (its name, e-mail and phone need bit 0, self-edit). Routes not in the table
// are not gated by bits. A refusal is a 400 with a text, like every other access refusal.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasPermission, LINKED_AREA_BITS, PERMISSION_BITS as B, type PermissionServer, type PermissionSubject } from '@rastro/domain/permissions';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import type { ServerRow } from '../server-info/server-repo.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { forbidden } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import { findLinkKind } from '../permissions/link-kinds.ts';

/** The licence and server attributes the check reads. */
export function permissionServer(ctx: AppContext, server: ServerRow): PermissionServer {
  return { plus: ctx.config.license === 'plus', attributes: parseAttributes(server.attributes) };
}

export function permissionSubject(user: UserRow): PermissionSubject {
  return { administrator: user.administrator === 1, attributes: parseAttributes(user.attributes) };
}

/** What a person reads in a refusal, per bit. */
const LABELS: Record<number, string> = {
  [B.selfEdit]: 'change your own name, e-mail and phone',
  [B.devices]: 'devices',
  [B.devicesLock]: 'lock devices',
  [B.devicesUnlock]: 'unlock devices',
  [B.devicesCommand]: 'send commands to devices',
  [B.devicesCreate]: 'create devices',
  [B.devicesEdit]: 'edit devices',
  [B.devicesDelete]: 'delete devices',
  [B.users]: 'users',
  [B.usersCreate]: 'create users',
  [B.usersEdit]: 'edit users',
  [B.usersDelete]: 'delete users',
  [B.notifications]: 'notifications',
  [B.notificationsCreate]: 'create notifications',
  [B.notificationsEdit]: 'edit notifications',
  [B.notificationsDelete]: 'delete notifications',
  [B.geofences]: 'geofences',
  [B.geofencesCreate]: 'create geofences',
  [B.geofencesEdit]: 'edit geofences',
  [B.geofencesDelete]: 'delete geofences',
  [B.groups]: 'groups',
  [B.groupsCreate]: 'create groups',
  [B.groupsEdit]: 'edit groups',
  [B.groupsDelete]: 'delete groups',
  [B.commands]: 'saved commands',
  [B.commandsCreate]: 'create saved commands',
  [B.commandsEdit]: 'edit saved commands',
  [B.commandsDelete]: 'delete saved commands',
  [B.computedAttributes]: 'computed attributes',
  [B.computedAttributesCreate]: 'create computed attributes',
  [B.computedAttributesEdit]: 'edit computed attributes',
  [B.computedAttributesDelete]: 'delete computed attributes',
  [B.reports]: 'reports',
  [B.reportsRoute]: 'see route reports and history',
  [B.reportsStops]: 'see stops reports',
  [B.reportsTrips]: 'see trips reports',
  [B.reportsEvents]: 'see events reports',
  [B.drivers]: 'drivers',
  [B.driversCreate]: 'create drivers',
  [B.driversEdit]: 'edit drivers',
  [B.driversDelete]: 'delete drivers',
  [B.calendars]: 'calendars',
  [B.calendarsCreate]: 'create calendars',
  [B.calendarsEdit]: 'edit calendars',
  [B.calendarsDelete]: 'delete calendars',
  [B.maintenance]: 'maintenance',
  [B.maintenanceCreate]: 'create maintenance',
  [B.maintenanceEdit]: 'edit maintenance',
  [B.maintenanceDelete]: 'delete maintenance',
};

/** The refusal of a missing bit: a read names the area, a write what it would have done. */
export function permissionRefusal(bit: number, write: boolean) {
  const label = LABELS[bit] ?? `bit ${bit}`;
  return write
    ? forbidden(`Write access denied - your permissions do not allow you to ${/^(create|edit|delete|lock|unlock|send|see|change) /.test(label) ? label : `change ${label}`}`)
    : forbidden(`Access denied - your permissions do not include ${label}`);
}

/** Throws the refusal unless `user` holds every bit (checked in order: area first). */
export function assertBits(user: UserRow, server: PermissionServer, bits: readonly number[], write: boolean): void {
  const subject = permissionSubject(user);
  for (const bit of bits) if (!hasPermission(subject, server, bit)) throw permissionRefusal(bit, write);
}

/** The request a rule looks at (already authenticated, body parsed). */
export interface GuardRequest {
  method: string;
  params: unknown;
  query: unknown;
  body: unknown;
  user: UserRow;
}

/** The bits a request needs, in order; null or [] = none. */
export type Rule = (req: GuardRequest, ctx: AppContext) => readonly number[] | null | Promise<readonly number[] | null>;

const bits = (...needed: number[]): Rule => () => needed;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const paramId = (req: GuardRequest): number => Number((req.params as { id?: string } | undefined)?.id);

/** Traccar's list/get/create/update/delete of one area. */
function crud(path: string, area: number, create: number, edit: number, remove: number): Record<string, Rule> {
  return {
    [`GET ${path}`]: bits(area),
    [`GET ${path}/:id`]: bits(area),
    [`POST ${path}`]: bits(area, create),
    [`PUT ${path}/:id`]: bits(area, edit),
    [`DELETE ${path}/:id`]: bits(area, remove),
  };
}

/**
 * Lock (engineStop), unlock (engineResume) and any other command, by type. A saved command is
 * what it replaces: its `tarkan.changeNative` (how the product's lock button sends a custom
 * engine-stop command, tarkan-reference §5.6), else its stored type.
 */
async function commandBits(req: GuardRequest, ctx: AppContext): Promise<readonly number[]> {
  const body = isObject(req.body) ? req.body : {};
  let type = typeof body.type === 'string' ? body.type : null;
  if (typeof body.id === 'number' && Number.isSafeInteger(body.id) && body.id > 0) {
    const saved = await ctx.storage.db.selectFrom('commands').select(['type', 'attributes']).where('id', '=', body.id).executeTakeFirst();
    if (saved) {
      const native = parseAttributes(saved.attributes)['tarkan.changeNative'];
      type = native === 'engineStop' || native === 'engineResume' ? native : saved.type;
    }
  }
  if (type === 'engineStop') return [B.devices, B.devicesLock];
  if (type === 'engineResume') return [B.devices, B.devicesUnlock];
  return [B.devices, B.devicesCommand];
}

/** A link needs the area of what is linked, and editing users when it is linked to a user. */
function linkBits(req: GuardRequest): readonly number[] | null {
  const first = Array.isArray(req.body) ? req.body[0] : req.body;
  if (!isObject(first)) return null;
  const [ownerKey, propertyKey] = Object.keys(first);
  if (ownerKey === undefined || propertyKey === undefined) return null;
  const kind = findLinkKind(ownerKey, propertyKey);
  if (!kind) return null;
  const area = LINKED_AREA_BITS[kind.propertyKey];
  const needed = area === undefined ? [] : [area];
  if (kind.owner === 'user') needed.push(B.users, B.usersEdit);
  return needed;
}

/** Position history (`from` / `to`) is the route history of the reports area. */
function positionBits(req: GuardRequest): readonly number[] | null {
  const query = isObject(req.query) ? req.query : {};
  return query.from !== undefined || query.to !== undefined ? [B.reports, B.reportsRoute] : null;
}

const REPORT_BITS: Record<string, number> = {
  route: B.reportsRoute,
  stops: B.reportsStops,
  trips: B.reportsTrips,
  events: B.reportsEvents,
};

/** `/api/reports/<kind>[/xlsx|/mail]`: the reports area, and the kind's own bit when it has one. */
export function reportBits(url: string): readonly number[] | null {
  const match = /^\/api\/reports\/([^/]+)/.exec(url);
  if (!match) return null;
  const own = REPORT_BITS[match[1]!];
  return own === undefined ? [B.reports] : [B.reports, own];
}

/** A user's own record: theirs to read; changing its name, e-mail or phone needs self-edit. */
function selfEditBits(req: GuardRequest): readonly number[] {
  const body = isObject(req.body) ? req.body : {};
  const differs = (key: 'name' | 'email' | 'phone') => {
    const value = body[key];
    if (value === undefined) return false;
    const now = req.user[key] ?? '';
    return (typeof value === 'string' ? value.trim() : value ?? '') !== now;
  };
  return differs('name') || differs('email') || differs('phone') ? [B.selfEdit] : [];
}

const onOthers = (rule: Rule, self: Rule = () => null): Rule => (req, ctx) => (paramId(req) === req.user.id ? self(req, ctx) : rule(req, ctx));

/** Every gated route: "METHOD /path as registered" → the bits it needs. */
export const ADVANCED_PERMISSION_ROUTES: Readonly<Record<string, Rule>> = {
  // Devices: reads are never gated (see the header); writes need the area and the action.
  'POST /api/devices': bits(B.devices, B.devicesCreate),
  'PUT /api/devices/:id': bits(B.devices, B.devicesEdit),
  'PUT /api/devices/:id/accumulators': bits(B.devices, B.devicesEdit),
  'DELETE /api/devices/:id': bits(B.devices, B.devicesDelete),
  'POST /api/commands/send': commandBits,

  'GET /api/users': bits(B.users),
  'GET /api/users/:id': onOthers(bits(B.users)),
  'POST /api/users': bits(B.users, B.usersCreate),
  'PUT /api/users/:id': onOthers(bits(B.users, B.usersEdit), selfEditBits),
  'DELETE /api/users/:id': bits(B.users, B.usersDelete),

  ...crud('/api/geofences', B.geofences, B.geofencesCreate, B.geofencesEdit, B.geofencesDelete),
  ...crud('/api/groups', B.groups, B.groupsCreate, B.groupsEdit, B.groupsDelete),
  ...crud('/api/notifications', B.notifications, B.notificationsCreate, B.notificationsEdit, B.notificationsDelete),
  ...crud('/api/commands', B.commands, B.commandsCreate, B.commandsEdit, B.commandsDelete),
  ...crud('/api/attributes/computed', B.computedAttributes, B.computedAttributesCreate, B.computedAttributesEdit, B.computedAttributesDelete),
  ...crud('/api/drivers', B.drivers, B.driversCreate, B.driversEdit, B.driversDelete),
  ...crud('/api/calendars', B.calendars, B.calendarsCreate, B.calendarsEdit, B.calendarsDelete),
  ...crud('/api/maintenance', B.maintenance, B.maintenanceCreate, B.maintenanceEdit, B.maintenanceDelete),

  'GET /api/positions': positionBits,

  'POST /api/permissions': linkBits,
  'DELETE /api/permissions': linkBits,
  'POST /api/permissions/bulk': linkBits,
  'DELETE /api/permissions/bulk': linkBits,
};

/** The rule of a route (`url` as registered), reports included; undefined = not gated. */
export function ruleFor(method: string, url: string): Rule | undefined {
  const verb = method === 'HEAD' ? 'GET' : method;
  const rule = ADVANCED_PERMISSION_ROUTES[`${verb} ${url}`];
  if (rule) return rule;
  if (verb === 'GET' && url.startsWith('/api/reports/')) return () => reportBits(url);
  return undefined;
}

/** The preHandler that applies the table (after the caller is known; anonymous requests pass). */
export function advancedPermissionsGuard(ctx: AppContext) {
  return async (req: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    const user = req.user;
    if (!user || user.administrator === 1) return;
    const url = req.routeOptions.url;
    if (url === undefined) return;
    const rule = ruleFor(req.method, url);
    if (!rule) return;
    const needed = await rule({ method: req.method, params: req.params, query: req.query, body: req.body, user }, ctx);
    if (!needed || needed.length === 0) return;
    assertBits(user, permissionServer(ctx, await getServerRow(ctx)), needed, req.method !== 'GET' && req.method !== 'HEAD');
  };
}
