// /api/users: registration (public POST), the users list with Traccar's parameters, and
// CRUD with the hierarchy rules of user-rules.ts. Passwords are hashed here and never leave.
// A manager's list is its whole tree (Traccar: its direct users); `userId=N` stays Traccar's
// "users N manages directly" (what the related-objects dialog ticks).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Insertable } from 'kysely';
import { SERVER_ERROR_TEXTS } from '@rastro/domain/errors';
import { ADVANCED_PERMS_KEY } from '@rastro/domain/resellers';
import type { AppContext } from '../context.ts';
import type { UserTable } from '../storage/schema.ts';
import { accessDenied, forbidden, notFound } from '../http/errors.ts';
import { forgetBasicCredentials, requireUser } from '../auth/authenticate.ts';
import { assertCanWrite, assertManager } from '../auth/guards.ts';
import { hashPassword } from '../auth/passwords.ts';
import { passwordChanged } from '../auth/credential-changes.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { parseAttributes } from '../http/json.ts';
import { userToJson, type UserRow } from './user-json.ts';
import { canManageUser } from './user-access.ts';
import { parseUserChanges, parseUserInput, validateUserFields, withoutPrivilegeAttributes, type UserValues } from './user-input.ts';
import {
  assertCreateAllowed, assertMayTouch, assertReadonlyUpdateAllowed, assertUpdateAllowed, inheritedRestrictions, texts, userRestrictionChange,
} from './user-rules.ts';
import { grantsFor } from './user-grants.ts';
import { RestrictionsRepo } from '../access/restrictions-repo.ts';
import { queryInt } from '../access/list-params.ts';
import { isRestricted, restrictionAfter, restrictionOf } from '../access/restriction-rules.ts';

interface ListQuery {
  all?: string;
  userId?: string;
  deviceId?: string;
  keyword?: string;
  limit?: string;
  offset?: string;
  excludeAttributes?: string;
}

function idParam(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  return queryInt(name, raw, 0);
}

function single(value: unknown): string | undefined {
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

export async function usersRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const db = ctx.storage.db;
  const restrictions = new RestrictionsRepo(db);

  /** Loads a user the caller may manage; Traccar checks permission first (400), then existence. */
  const loadManaged = async (req: FastifyRequest<{ Params: { id: string } }>) => {
    const caller = requireUser(req);
    if (!/^\d{1,15}$/.test(req.params.id)) throw notFound();
    const id = Number(req.params.id);
    if (!(await canManageUser(db, caller, id))) throw accessDenied.user();
    const target = await ctx.users.findById(id);
    if (!target) throw notFound('User not found');
    return { caller, target };
  };

  app.get<{ Querystring: ListQuery }>('/api/users', async (req) => {
    const caller = requireUser(req);
    const q = req.query;
    const userId = idParam(single(q.userId), 'userId');
    const deviceId = idParam(single(q.deviceId), 'deviceId');
    const limit = idParam(single(q.limit), 'limit');
    const offset = idParam(single(q.offset), 'offset');
    const keyword = single(q.keyword);
    const admin = caller.administrator === 1;
    let rows: UserRow[];
    if (userId !== undefined) {
      if (!(await canManageUser(db, caller, userId))) throw accessDenied.user();
      rows = await ctx.users.list({ managedBy: userId, keyword, limit, offset });
    } else if (deviceId !== undefined) {
      assertManager(caller);
      if (!(await ctx.visibility.canSeeDevice(caller, deviceId))) throw accessDenied.device();
      // Managers see only the users of their tree (and themselves) among the device's users.
      rows = await ctx.users.list({ linkedToDevice: deviceId, visibleTo: admin ? undefined : caller.id, keyword, limit, offset });
    } else if (admin) {
      rows = await ctx.users.list({ keyword, limit, offset });
    } else {
      // Everyone below the caller at any depth (nobody for a user who manages no one).
      rows = caller.userLimit === 0 ? [] : await ctx.users.list({ inTreeOf: caller.id, keyword, limit, offset });
    }
    const exclude = single(q.excludeAttributes) === 'true';
    return rows.map((row) => {
      const json = userToJson(row);
      return exclude ? { ...json, attributes: {} } : json;
    });
  });

  app.get<{ Params: { id: string } }>('/api/users/:id', async (req) => userToJson((await loadManaged(req)).target));

  app.post('/api/users', { config: { public: true } }, async (req) => {
    const caller = req.user;
    const server = await getServerRow(ctx);
    const { values, password } = parseUserInput(req.body);
    validateUserFields(values.name ?? '', values.email ?? '', password, true);
    const base = newUserDefaults(values);
    let row: Insertable<UserTable>;
    let manager: UserRow | null = null;

    if (caller?.administrator === 1) {
      row = base;
    } else if (caller && caller.userLimit !== 0) {
      // A manager: within the capacity of its tree, never a user above itself (user-rules.ts).
      assertCanWrite(caller, server);
      const grants = await grantsFor(ctx, server, caller, null, values);
      const attributes = parseAttributes(base.attributes);
      // Under advanced permissions a user without bits would pass every check: a new user starts with the manager's.
      if (grants.perms !== null && attributes[ADVANCED_PERMS_KEY] === undefined) {
        attributes[ADVANCED_PERMS_KEY] = parseAttributes(caller.attributes)[ADVANCED_PERMS_KEY];
      }
      row = {
        ...base,
        ...inheritedRestrictions(caller, values),
        temporary: 0,
        attributes: JSON.stringify(attributes),
        // Without one of its own, the new user expires with its manager.
        expirationTime: values.expirationTime === undefined ? caller.expirationTime : values.expirationTime,
      };
      assertCreateAllowed(caller, row, grants);
      manager = caller;
    } else {
      // Registration: the first user ever becomes the administrator; later ones need it enabled.
      // Self-registered users may add devices (Traccar's users.defaultDeviceLimit, -1) and
      // give themselves no privilege attribute (advanced permissions, reseller fields).
      const first = (await ctx.users.count()) === 0;
      if (!first && server.registration !== 1) throw forbidden(SERVER_ERROR_TEXTS.registrationDisabled);
      row = {
        ...base,
        administrator: first ? 1 : 0,
        deviceLimit: -1,
        userLimit: first ? -1 : 0,
        readonly: 0, deviceReadonly: 0, limitCommands: 0, disableReports: 0, fixedEmail: 0, disabled: 0,
        temporary: 0,
        expirationTime: null,
        attributes: withoutPrivilegeAttributes(base.attributes ?? '{}'),
      };
    }
    const hash = await hashPassword(password!);
    // Login names and the manager's userLimit are checked inside the creating transaction.
    const restrictedBy = caller && isRestricted(restrictionOf({ disabled: row.disabled, expirationTime: row.expirationTime ?? null })) ? caller.id : null;
    const created = await ctx.users.createChecked({ ...row, hashedPassword: hash.hashedPassword, salt: hash.salt }, manager?.id ?? null, restrictedBy);
    if (manager) ctx.changes.publish({ kind: 'permissions' });
    ctx.changes.publish({ kind: 'user', id: created.id });
    return userToJson(created);
  });

  app.put<{ Params: { id: string } }>('/api/users/:id', async (req) => {
    const { caller, target } = await loadManaged(req);
    const server = await getServerRow(ctx);
    assertMayTouch(caller, target);
    const { values, password } = parseUserChanges(req.body);
    assertReadonlyUpdateAllowed(caller, server, target, values, password);
    assertUpdateAllowed(caller, target, values, await grantsFor(ctx, server, caller, target, values));
    validateUserFields(values.name ?? target.name, values.email ?? target.email, password, false);
    const before = restrictionOf(target);
    const after = restrictionAfter(before, values);
    const restrictedBy = userRestrictionChange(caller, before, after, await restrictions.setterForChange('userRestrictions', target.id, before, after, caller));
    const newLogins = [
      values.email !== undefined && values.email.toLowerCase() !== target.email.toLowerCase() ? values.email : undefined,
      values.login && values.login.toLowerCase() !== (target.login ?? '').toLowerCase() ? values.login : undefined,
    ];
    await assertAdministratorRemains(target, values);
    const update: UserValues = { ...values };
    delete update.id;
    if (password !== null) Object.assign(update, await hashPassword(password));
    // The new e-mail / login are checked free inside the updating transaction.
    const updated = Object.keys(update).length > 0 ? await ctx.users.updateChecked(target.id, update, newLogins, restrictedBy) : target;
    if (!updated) throw notFound('User not found');
    if (password !== null) {
      // A new password logs the user out elsewhere (sessions, tokens, sockets); the caller's own session survives.
      await passwordChanged(ctx, target.id, target.id === caller.id ? req.sessionId : null);
    }
    ctx.changes.publish({ kind: 'user', id: target.id });
    return userToJson(updated);
  });

  app.delete<{ Params: { id: string } }>('/api/users/:id', async (req, reply) => {
    const { caller, target } = await loadManaged(req);
    if (target.id === caller.id) throw forbidden(texts.self);
    assertMayTouch(caller, target);
    assertCanWrite(caller, await getServerRow(ctx));
    await ctx.sessions.destroyUser(target.id);
    forgetBasicCredentials(ctx, target.id);
    // Its links go with it (and the user tree follows them, migration 011).
    await ctx.users.delete(target.id);
    ctx.changes.publish({ kind: 'userRemoved', id: target.id });
    // Managers above it stop seeing what was linked to it: their socket audiences are recomputed.
    ctx.changes.publish({ kind: 'permissions' });
    return reply.code(204).send();
  });

  /** Keeps at least one enabled administrator: the last one cannot demote or disable themselves. */
  async function assertAdministratorRemains(target: UserRow, values: UserValues): Promise<void> {
    if (target.administrator !== 1 || target.disabled === 1) return;
    const losesRole = values.administrator === 0 || values.disabled === 1;
    if (losesRole && (await ctx.users.countAdministrators()) <= 1) throw forbidden(texts.lastAdmin);
  }
}

/**
 * Column values of a new user: the body's fields over Traccar's defaults. deviceLimit 0 (the
 * user may add no device; an administrator links devices or raises it) is what Traccar gives a
 * user an administrator creates without one, and what the product's user form starts with.
 */
function newUserDefaults(values: UserValues): Insertable<UserTable> {
  return {
    name: values.name ?? '',
    login: values.login ?? null,
    email: values.email ?? '',
    phone: values.phone ?? null,
    readonly: values.readonly ?? 0,
    administrator: values.administrator ?? 0,
    map: values.map ?? null,
    latitude: values.latitude ?? 0,
    longitude: values.longitude ?? 0,
    zoom: values.zoom ?? 0,
    twelveHourFormat: values.twelveHourFormat ?? 0,
    coordinateFormat: values.coordinateFormat ?? null,
    disabled: values.disabled ?? 0,
    expirationTime: values.expirationTime ?? null,
    deviceLimit: values.deviceLimit ?? 0,
    userLimit: values.userLimit ?? 0,
    deviceReadonly: values.deviceReadonly ?? 0,
    limitCommands: values.limitCommands ?? 0,
    disableReports: values.disableReports ?? 0,
    fixedEmail: values.fixedEmail ?? 0,
    poiLayer: values.poiLayer ?? null,
    temporary: values.temporary ?? 0,
    totpKey: values.totpKey ?? null,
    hashedPassword: null,
    salt: null,
    attributes: values.attributes ?? '{}',
  };
}
