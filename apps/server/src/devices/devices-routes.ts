// /api/devices: list with Traccar's parameters, get, create, update, delete, accumulators.
import type { FastifyInstance } from 'fastify';
import type { UserRow } from '../users/user-json.ts';
import type { AppContext } from '../context.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertCanWriteDevices } from '../auth/guards.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { accessDenied, badRequest, notFound } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import { idsParam, intParam, listParams, many, pathId, type Query } from '../access/list-params.ts';
import { GroupsRepo } from '../groups/groups-repo.ts';
import { PositionsRepo } from '../positions/positions-repo.ts';
import { canAccess, OBJECT_KINDS } from '../permissions/link-kinds.ts';
import { DevicesRepo, type DeviceListFilter } from './devices-repo.ts';
import { deviceToJson, type DeviceJsonRow, type DeviceRow } from './device-json.ts';
import { deviceChanges, newDeviceValues } from './device-input.ts';
import { deviceLimitScopes } from './device-limits.ts';
import { deviceRestrictionChange } from './device-rules.ts';
import { RestrictionsRepo } from '../access/restrictions-repo.ts';
import { restrictionAfter, restrictionOf, UNRESTRICTED } from '../access/restriction-rules.ts';
import { parseAccumulators, updateAccumulators } from './accumulators.ts';

type WithId = { Params: { id: string } };

export async function devicesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const devices = new DevicesRepo(ctx.storage.db);
  const groups = new GroupsRepo(ctx.storage.db);
  const positions = new PositionsRepo(ctx.storage.db);
  const restrictions = new RestrictionsRepo(ctx.storage.db);
  const isAdmin = (u: UserRow) => u.administrator === 1;

  /** The device, if the caller may see it: 400 for non-administrators, 404 for a missing id. */
  async function visibleDevice(user: UserRow, rawId: string): Promise<DeviceRow> {
    const id = pathId(rawId);
    if (!(await ctx.visibility.canSeeDevice(user, id))) throw accessDenied.device();
    const row = await devices.findById(id);
    if (!row) throw notFound('Device not found');
    return row;
  }

  /**
   * Checks what a write does to the device's restriction (disabled, expirationTime: see
   * device-rules.ts) and answers who owns the restriction afterwards (undefined = unchanged).
   */
  async function restrictionOwner(user: UserRow, current: DeviceRow | null, values: { disabled?: number; expirationTime?: number | null }) {
    const before = current ? restrictionOf(current) : UNRESTRICTED;
    const after = restrictionAfter(before, values);
    return deviceRestrictionChange(user, before, after, await restrictions.setterForChange('deviceRestrictions', current?.id ?? null, before, after, user));
  }

  /** The group and calendar a device points at must be ones the caller may use. */
  async function assertReferences(user: UserRow, groupId: number | null | undefined, calendarId: number | null | undefined) {
    if (groupId !== null && groupId !== undefined) {
      if (!(await ctx.visibility.canSeeGroup(user, groupId))) throw accessDenied.group();
      if (!(await groups.findById(groupId))) throw badRequest(`Group not found - there is no group ${groupId}`);
    }
    // Calendars are checked once their feature registers the kind.
    const calendar = OBJECT_KINDS.calendar;
    if (calendarId !== null && calendarId !== undefined && calendar && !(await canAccess(ctx, user, calendar, calendarId))) {
      throw badRequest(`Calendar access denied - you cannot use calendar ${calendarId}`);
    }
  }

  // Traccar's device list has no groupId parameter (unlike the lists of other objects): it is
  // ignored, and the answer is the caller's devices as without it.
  app.get<{ Querystring: Query }>('/api/devices', async (req) => {
    const user = requireUser(req);
    const q = req.query;
    const params = listParams(q);
    const ids = idsParam(q, 'id');
    const uniqueIds = many(q, 'uniqueId').map((u) => u.trim()).filter((u) => u !== '');
    const deviceId = intParam(q, 'deviceId') || undefined;
    const base: DeviceListFilter = {
      keyword: params.keyword,
      limit: params.limit,
      offset: params.offset,
      excludeAttributes: params.excludeAttributes,
    };
    let rows: DeviceJsonRow[];
    if (ids.length > 0 || uniqueIds.length > 0) {
      // Exact lookups within what the caller sees (administrators see every device).
      const scope: DeviceListFilter = { ...base, ...(isAdmin(user) ? {} : { visibleTo: user.id }) };
      const byId = ids.length > 0 ? await devices.list({ ...scope, ids }) : [];
      const byUniqueId = uniqueIds.length > 0 ? await devices.list({ ...scope, uniqueIds }) : [];
      rows = byUniqueId.length === 0 ? byId : [...new Map([...byId, ...byUniqueId].map((r) => [r.id, r])).values()];
    } else {
      const filter: DeviceListFilter = { ...base };
      if (params.userId !== undefined) {
        // Devices linked directly to that user (the "connections" screens).
        if (!(await ctx.visibility.canManageUser(user, params.userId))) throw accessDenied.user();
        filter.linkedToUser = params.userId;
      } else if (deviceId === undefined && !(params.all && isAdmin(user))) {
        // Traccar: without all=true even an administrator lists only the devices linked to him.
        filter.visibleTo = user.id;
      }
      if (deviceId !== undefined) {
        if (!(await ctx.visibility.canSeeDevice(user, deviceId))) throw accessDenied.device();
        filter.linkedToDevice = deviceId;
        if (!isAdmin(user)) filter.visibleTo = user.id;
      }
      rows = await devices.list(filter);
    }
    return rows.map(deviceToJson);
  });

  app.get<WithId>('/api/devices/:id', async (req) => {
    return deviceToJson(await visibleDevice(requireUser(req), req.params.id));
  });

  app.post('/api/devices', async (req) => {
    const user = requireUser(req);
    const server = await getServerRow(ctx);
    assertCanWriteDevices(user, server);
    const values = newDeviceValues(req.body);
    const restrictedBy = await restrictionOwner(user, null, values);
    await assertReferences(user, values.groupId, values.calendarId);
    // Limits and uniqueId are checked inside the creating transaction; the creator is linked
    // to the new device so they see it.
    const row = await devices.insertWithinLimits(values, user.id, deviceLimitScopes(ctx, user), restrictedBy ?? null);
    ctx.changes.publish({ kind: 'device', id: row.id });
    return deviceToJson(row);
  });

  app.put<WithId>('/api/devices/:id', async (req) => {
    const user = requireUser(req);
    const current = await visibleDevice(user, req.params.id);
    assertCanWriteDevices(user, await getServerRow(ctx));
    const changes = deviceChanges(req.body);
    const restrictedBy = await restrictionOwner(user, current, changes);
    if (changes.groupId !== undefined && changes.groupId !== current.groupId) await assertReferences(user, changes.groupId, undefined);
    if (changes.calendarId !== undefined && changes.calendarId !== current.calendarId) await assertReferences(user, undefined, changes.calendarId);
    // A uniqueId another device holds is refused by the unique index (DevicesRepo.update).
    const row = Object.keys(changes).length > 0 ? await devices.update(current.id, changes, restrictedBy) : current;
    if (!row) throw notFound('Device not found');
    ctx.changes.publish({ kind: 'device', id: row.id });
    return deviceToJson(row);
  });

  app.delete<WithId>('/api/devices/:id', async (req, reply) => {
    const user = requireUser(req);
    const device = await visibleDevice(user, req.params.id);
    const server = await getServerRow(ctx);
    assertCanWriteDevices(user, server);
    const lazy = parseAttributes(server.attributes)['tarkan.enableLazyDeletion'];
    if (lazy === true || lazy === 'true') {
      // Safe mode: the device disappears from every list but keeps its positions and events.
      const seconds = Math.floor(Date.now() / 1000);
      await devices.update(device.id, { uniqueId: `deleted-${device.uniqueId}-${seconds}` });
    } else {
      await devices.delete(device.id);
    }
    ctx.changes.publish({ kind: 'deviceRemoved', id: device.id });
    return reply.code(204).send();
  });

  app.put<WithId>('/api/devices/:id/accumulators', async (req, reply) => {
    const user = requireUser(req);
    const device = await visibleDevice(user, req.params.id);
    assertCanWriteDevices(user, await getServerRow(ctx));
    await updateAccumulators(ctx, devices, positions, device, parseAccumulators(req.body, device.id));
    return reply.code(204).send();
  });
}
