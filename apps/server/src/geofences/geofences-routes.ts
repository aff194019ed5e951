// /api/geofences: list (extended parameters), get, create (creator linked), update, delete.
// Areas are validated (latitude-first WKT); attributes are free-form (lockOnEnter, lockOnExit,
// speedLimit, color, isAnchor...). A geofence naming a device in `attributes.deviceId` (an
// anchor, or the device a lock rule stops) must name a device the caller sees.
import type { FastifyInstance } from 'fastify';
import { GEOFENCE_WRITABLE_FIELDS, geofenceSchema, geofenceUpdateSchema } from '@rastro/domain/schemas/geofence';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertCanWrite } from '../auth/guards.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { accessDenied, badRequest, forbidden, notFound } from '../http/errors.ts';
import { pathId, type Query } from '../access/list-params.ts';
import { parseUpdate, parseWith } from '../http/validate.ts';
import { extendedListFilter } from '../access/extended-list.ts';
import { GeofencesRepo } from './geofences-repo.ts';
import { geofenceToJson, type GeofenceRow } from './geofence-json.ts';

type WithId = { Params: { id: string } };

const geofenceDenied = () => forbidden('Geofence access denied - you cannot use this geofence');

export async function geofencesRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const geofences = new GeofencesRepo(ctx.storage.db);

  /** A geofence the caller may use: administrators any, others when linked to them. */
  async function usableGeofence(user: UserRow, rawId: string): Promise<GeofenceRow> {
    const id = pathId(rawId);
    if (user.administrator !== 1 && !(await geofences.isLinkedToUser(user.id, id))) throw geofenceDenied();
    const row = await geofences.findById(id);
    if (!row) throw notFound('Geofence not found');
    return row;
  }

  /** `attributes.deviceId`, when set, must be a device the caller sees. */
  async function assertAttributeDevice(user: UserRow, attributes: string): Promise<void> {
    const value = (JSON.parse(attributes) as Record<string, unknown>).deviceId;
    if (value === undefined || value === null || value === 0 || value === '' || value === '0') return;
    const id = typeof value === 'string' && /^\d{1,15}$/.test(value.trim()) ? Number(value) : value;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 1) {
      throw badRequest('Invalid attributes - deviceId must be a device id');
    }
    if (!(await ctx.visibility.canSeeDevice(user, id))) throw accessDenied.device();
  }

  app.get<{ Querystring: Query }>('/api/geofences', async (req) => {
    const user = requireUser(req);
    const rows = await geofences.list(await extendedListFilter(ctx, user, req.query));
    return rows.map(geofenceToJson);
  });

  app.get<WithId>('/api/geofences/:id', async (req) => geofenceToJson(await usableGeofence(requireUser(req), req.params.id)));

  app.post('/api/geofences', async (req) => {
    const user = requireUser(req);
    assertCanWrite(user, await getServerRow(ctx));
    const body = parseWith(geofenceSchema, req.body);
    const values = {
      name: body.name,
      description: body.description ?? null,
      area: body.area,
      calendarId: body.calendarId ?? null,
      attributes: JSON.stringify(body.attributes ?? {}),
    };
    await assertAttributeDevice(user, values.attributes);
    const row = await ctx.storage.db.transaction().execute(async (trx) => {
      const created = await new GeofencesRepo(trx).insert(values);
      // The creator is linked to the new geofence so they see it.
      await trx.insertInto('userGeofence').values({ ownerId: user.id, propertyId: created.id }).execute();
      return created;
    });
    ctx.changes.publish({ kind: 'geofence', id: row.id });
    return geofenceToJson(row);
  });

  app.put<WithId>('/api/geofences/:id', async (req) => {
    const user = requireUser(req);
    const current = await usableGeofence(user, req.params.id);
    assertCanWrite(user, await getServerRow(ctx));
    const body = parseUpdate(geofenceUpdateSchema, req.body, GEOFENCE_WRITABLE_FIELDS);
    const values = {
      name: body.name ?? current.name,
      description: body.description !== undefined ? body.description : current.description,
      area: body.area ?? current.area,
      calendarId: body.calendarId !== undefined ? body.calendarId : current.calendarId,
      attributes: body.attributes !== undefined ? JSON.stringify(body.attributes) : current.attributes,
    };
    if (values.attributes !== current.attributes) await assertAttributeDevice(user, values.attributes);
    const row = await geofences.update(current.id, values);
    if (!row) throw notFound('Geofence not found');
    ctx.changes.publish({ kind: 'geofence', id: row.id });
    return geofenceToJson(row);
  });

  app.delete<WithId>('/api/geofences/:id', async (req, reply) => {
    const user = requireUser(req);
    const geofence = await usableGeofence(user, req.params.id);
    assertCanWrite(user, await getServerRow(ctx));
    await geofences.delete(geofence.id);
    ctx.changes.publish({ kind: 'geofence', id: geofence.id });
    return reply.code(204).send();
  });
}
