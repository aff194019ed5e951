// THE table of audited routes: every write route of the API (and a few reads that act, such as
// "login as") maps to the rows it writes, or says why it writes none. The recorder
// (audit-recorder.ts) looks routes up here by method and path; test/audit.test.ts fails when a
// write route exists that has no entry, so each new route decides. Paths are matched with their
// parameter names ignored (`/tarkan/shares/:id` = `/tarkan/shares/:shareId`), and entries for
// routes that do not exist yet (shares) start recording when those routes land.
//
// Codes: tarkan-reference §7.6, plus Rastro's for the writes Tarkan does not log
// (@rastro/domain/audit marks them `rastro`). Failed actions write their row too (status ≥ 400),
// without `old` values and with only what the request named (ids, a type, an attempted e-mail).
import { AUDIT_OBJECT_TYPES, type AuditObjectType } from '@rastro/domain/audit';
import { formField } from '../auth/form.ts';
import { findLinkKind } from '../permissions/link-kinds.ts';
import { loadAuditObject } from './audit-objects.ts';
import {
  bodyObject, created, crud, edited, idOf, loadFromPath, pathIdOf, removed, responseId, responseObject,
  type AnsweredCall, type AuditDraft, type AuditedRoute, type RouteEntry,
} from './audit-route-kit.ts';

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const auditType = (name: string | undefined): AuditObjectType | null =>
  (AUDIT_OBJECT_TYPES as readonly string[]).includes(name ?? '') ? (name as AuditObjectType) : null;
const truthy = (v: unknown) => v === true || v === 'true' || v === 1 || v === '1';
const email = (call: AnsweredCall): string | null => formField(call.body, 'email')?.trim().slice(0, 255) || null;

/** `POST /api/session`: every attempt, with the e-mail tried (the password is never read). */
const login: AuditedRoute = {
  anonymous: true,
  async rows(call) {
    const tried = email(call);
    const user = responseObject(call);
    if (call.ok && user) {
      const id = idOf(user.id);
      return [{ code: 101, objectType: 'user', objectId: id, data: { email: tried }, actor: { userId: id, userName: typeof user.email === 'string' ? user.email : tried } }];
    }
    // The account tried, when there is one: its managers see attempts on it.
    const known = tried ? await call.ctx.users.findByLogin(tried) : undefined;
    return [{ code: 101, objectType: 'user', objectId: known ? known.id : null, data: { email: tried }, actor: { userId: null, userName: tried } }];
  },
};

/** A password reset asked for by e-mail (107), or a new password set with a reset token (106). */
const passwordReset = (): AuditedRoute => ({
  anonymous: true,
  async rows(call) {
    const token = formField(call.body, 'token');
    if (token !== undefined) {
      // The token is never stored; its signed payload names the account.
      const userId = call.ok ? (call.ctx.tokens.inspect(token.trim())?.userId ?? null) : null;
      return [{ code: 106, objectType: 'user', objectId: userId, actor: { userId, userName: null } }];
    }
    const tried = email(call);
    const known = tried ? await call.ctx.users.findByLogin(tried) : undefined;
    return [{ code: 107, objectType: 'user', objectId: known ? known.id : null, data: { email: tried }, actor: { userId: null, userName: tried } }];
  },
});

/** `POST /api/users`: 101 as Tarkan writes it; a self-registration is done by the new user. */
const userCreated: AuditedRoute = {
  anonymous: true,
  rows(call) {
    const user = responseObject(call);
    if (call.ok && user) {
      const id = idOf(user.id);
      const actor = call.caller ? undefined : { userId: id, userName: typeof user.email === 'string' ? user.email : null };
      return [{ code: 101, objectType: 'user', objectId: id, data: user, actor }];
    }
    // Refused registrations of anonymous visitors are not worth a row each.
    if (!call.caller) return [];
    const body = bodyObject(call);
    return [{ code: 101, objectType: 'user', objectId: null, data: { name: body?.name ?? null, email: body?.email ?? null } }];
  },
};

/** `PUT /api/users/:id`: the edit (105) and, when the body set a password, a 106 beside it. */
const userEdited: AuditedRoute = {
  before: loadFromPath('user'),
  rows(call) {
    const id = pathIdOf(call);
    const rows: AuditDraft[] = [{ code: 105, objectType: 'user', objectId: id, old: call.ok ? call.before : null, data: call.ok ? responseObject(call) : null }];
    const password = bodyObject(call)?.password;
    if (call.ok && typeof password === 'string' && password !== '') rows.push({ code: 106, objectType: 'user', objectId: id });
    return rows;
  },
};

/** An anchor is a geofence with `attributes.isAnchor`, rows about its device (Tarkan's 405 / 406). */
function anchorDevice(geofence: Record<string, unknown> | null): number | null | undefined {
  const attributes = geofence && isRecord(geofence.attributes) ? geofence.attributes : null;
  if (!attributes || !truthy(attributes.isAnchor)) return undefined;
  return idOf(attributes.deviceId);
}

const geofenceCreated: AuditedRoute = {
  rows(call) {
    const geofence = call.ok ? responseObject(call) : bodyObject(call);
    const id = call.ok ? responseId(call) : null;
    const data = call.ok ? geofence : null;
    const device = anchorDevice(geofence);
    if (device !== undefined) return [{ code: 405, objectType: 'device', objectId: device, relatedType: 'geofence', relatedId: id, data }];
    return [{ code: 401, objectType: 'geofence', objectId: id, data }];
  },
};

const geofenceRemoved: AuditedRoute = {
  before: loadFromPath('geofence'),
  rows(call) {
    const id = pathIdOf(call);
    const old = call.ok ? call.before : null;
    const device = anchorDevice(call.before);
    if (device !== undefined) return [{ code: 406, objectType: 'device', objectId: device, relatedType: 'geofence', relatedId: id, old }];
    return [{ code: 402, objectType: 'geofence', objectId: id, old }];
  },
};

/** `POST /api/drivers`: 510, and 120 when a QR driver user was made for it (`tarkan.driverUserId`). */
const driverCreated: AuditedRoute = {
  rows(call) {
    const driver = call.ok ? responseObject(call) : null;
    const rows: AuditDraft[] = [{ code: 510, objectType: 'driver', objectId: call.ok ? responseId(call) : null, data: driver }];
    const qrUser = driver && isRecord(driver.attributes) ? idOf(driver.attributes['tarkan.driverUserId']) : null;
    if (qrUser !== null) rows.push({ code: 120, objectType: 'user', objectId: qrUser, relatedType: 'driver', relatedId: responseId(call) });
    return rows;
  },
};

/** One `/api/permissions` body → its owner as object, its property as the other side. */
function linkDraft(code: 901 | 902, link: unknown): AuditDraft {
  const keys = isRecord(link) ? Object.keys(link) : [];
  const [ownerKey, propertyKey] = keys;
  const kind = ownerKey && propertyKey ? findLinkKind(ownerKey, propertyKey) : undefined;
  const values = isRecord(link) ? link : {};
  const data = Object.fromEntries(keys.slice(0, 2).map((k) => [k, idOf(values[k]) ?? values[k] ?? null]));
  return {
    code,
    objectType: auditType(kind?.owner),
    objectId: ownerKey ? idOf(values[ownerKey]) : null,
    relatedType: auditType(kind?.property),
    relatedId: propertyKey ? idOf(values[propertyKey]) : null,
    data,
  };
}

const link = (code: 901 | 902): AuditedRoute => ({ rows: (call) => [linkDraft(code, call.body)] });

/** Bulk: one row per link done; a refused bulk (nothing done) writes one row naming the first and the count. */
const linkBulk = (code: 901 | 902): AuditedRoute => ({
  rows(call) {
    const links = Array.isArray(call.body) ? call.body : [];
    if (call.ok) return links.map((l) => linkDraft(code, l));
    const first = linkDraft(code, links[0]);
    return [{ ...first, data: { ...first.data, count: links.length } }];
  },
});

/** `POST /api/commands/send`: the command's type, device (or group) and parameters. */
const commandSent: AuditedRoute = {
  rows(call) {
    const body = bodyObject(call) ?? {};
    const answer = responseObject(call);
    const groupId = idOf(Array.isArray(call.query.groupId) ? call.query.groupId[0] : call.query.groupId);
    const deviceId = idOf(body.deviceId);
    const data: Record<string, unknown> = {
      type: typeof answer?.type === 'string' ? answer.type : (body.type ?? null),
      deviceId,
      description: body.description ?? answer?.description ?? null,
    };
    if (groupId !== null) data.groupId = groupId;
    if (idOf(body.id) !== null) data.savedCommandId = idOf(body.id);
    if (isRecord(body.attributes) && Object.keys(body.attributes).length > 0) data.attributes = body.attributes;
    if (groupId !== null && deviceId === null) return [{ code: 201, objectType: 'group', objectId: groupId, data }];
    return [{ code: 201, objectType: 'device', objectId: deviceId, data }];
  },
};

/** `DELETE /api/commands/log/:id`: a queued command cancelled (the answer is its log entry). */
const commandCancelled: AuditedRoute = {
  rows(call) {
    const entry = call.ok ? responseObject(call) : null;
    return [{ code: 206, objectType: 'device', objectId: idOf(entry?.deviceId), data: entry ?? { commandLogId: pathIdOf(call) } }];
  },
};

/** `PUT /api/server`: the settings before and after (read from the table, without computed fields). */
const serverEdited: AuditedRoute = {
  before: (call) => loadAuditObject(call.ctx, 'server', 0),
  async rows(call) {
    const after = call.ok ? await loadAuditObject(call.ctx, 'server', 0) : null;
    return [{ code: 701, objectType: 'server', objectId: idOf(call.before?.id), old: call.ok ? call.before : null, data: after }];
  },
};

const serverRestarted: AuditedRoute = { rows: () => [{ code: 702, objectType: 'server', objectId: null }] };

const self = (code: 103 | 108): AuditedRoute => ({ rows: (call) => [{ code, objectType: 'user', objectId: call.caller?.id ?? null }] });

export const AUDITED_ROUTES: Record<string, RouteEntry> = {
  // Sessions and accounts (1xx).
  'POST /api/session': login,
  'DELETE /api/session': self(103),
  'GET /api/session/:id': { rows: (call) => [{ code: 104, objectType: 'user', objectId: pathIdOf(call) }] },
  'POST /api/session/token': self(108),
  'POST /api/session/token/revoke': {
    rows(call) {
      const token = formField(call.body, 'token')?.trim();
      const owner = token ? (call.ctx.tokens.inspect(token)?.userId ?? null) : null;
      return [{ code: 109, objectType: 'user', objectId: owner }];
    },
  },
  'POST /api/session/password': passwordReset(),
  'POST /api/password/reset': passwordReset(),
  'POST /api/password/update': passwordReset(),
  'POST /api/users': userCreated,
  'PUT /api/users/:id': userEdited,
  'DELETE /api/users/:id': removed(102, 'user'),
  // Shares (tarkan-reference §7.4): visitor users.
  'POST /tarkan/shares': created(110, 'user'),
  'PUT /tarkan/shares/:id': edited(111, 'user'),
  'DELETE /tarkan/shares/:id': removed(112, 'user'),

  // Commands (2xx).
  'POST /api/commands/send': commandSent,
  'DELETE /api/commands/log/:id': commandCancelled,
  ...crud('/api/commands', 'command', { create: 203, edit: 204, remove: 205 }),

  // Devices (3xx).
  'POST /api/devices': created(301, 'device'),
  'PUT /api/devices/:id': edited(301, 'device'),
  'DELETE /api/devices/:id': removed(302, 'device'),
  'PUT /api/devices/:id/accumulators': {
    rows: (call) => [{ code: 303, objectType: 'device', objectId: pathIdOf(call), data: bodyObject(call) }],
  },

  // Geofences and anchors (4xx).
  'POST /api/geofences': geofenceCreated,
  'PUT /api/geofences/:id': edited(403, 'geofence'),
  'DELETE /api/geofences/:id': geofenceRemoved,

  // Drivers (5xx).
  'POST /api/drivers': driverCreated,
  'PUT /api/drivers/:id': edited(511, 'driver'),
  'DELETE /api/drivers/:id': removed(512, 'driver'),

  // The other objects (6xx, Rastro's).
  ...crud('/api/groups', 'group', { create: 601, edit: 602, remove: 603 }),
  ...crud('/api/calendars', 'calendar', { create: 611, edit: 612, remove: 613 }),
  ...crud('/api/maintenance', 'maintenance', { create: 621, edit: 622, remove: 623 }),
  ...crud('/api/attributes/computed', 'computedAttribute', { create: 631, edit: 632, remove: 633 }),
  ...crud('/api/notifications', 'notification', { create: 641, edit: 642, remove: 643 }),
  'POST /api/notifications/test': { notAudited: 'sends a test message to the caller only; nothing stored changes' },

  // The server (7xx, Rastro's).
  'PUT /api/server': serverEdited,
  'POST /api/server/restart': serverRestarted,
  'POST /api/server/reboot': serverRestarted,

  // Links (9xx).
  'POST /api/permissions': link(901),
  'DELETE /api/permissions': link(902),
  'POST /api/permissions/bulk': linkBulk(901),
  'DELETE /api/permissions/bulk': linkBulk(902),
};

/** `METHOD /path` with parameter names dropped, the form the table is looked up by. */
export function routeKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url.replace(/:[^/]+/g, ':')}`;
}

const BY_KEY = new Map(Object.entries(AUDITED_ROUTES).map(([key, entry]) => {
  const space = key.indexOf(' ');
  return [routeKey(key.slice(0, space), key.slice(space + 1)), entry] as const;
}));

/** The entry of a route, if the table has one. */
export function auditedRoute(method: string, url: string): RouteEntry | undefined {
  return BY_KEY.get(routeKey(method, url));
}
