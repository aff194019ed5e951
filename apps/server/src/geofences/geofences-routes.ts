// /api/geofences: list (extended parameters), get, create (creator linked), update, delete.
// Areas are validated (latitude-first WKT); attributes are free-form (lockOnEnter, lockOnExit,
// speedLimit, color, isAnchor...). A geofence naming a device in `attributes.deviceId` (an
// anchor, or the device a lock rule stops) must name a device the caller sees.
import type { FastifyInstance } from 'fastify';
import { parseArea } from '@rastro/domain/geofence-area';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertCanWrite } from '../auth/guards.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { accessDenied, badRequest, forbidden, notFound } from '../http/errors.ts';
import { pathId, type Query } from '../access/list-params.ts';
import { attributesText, has, objectBody, optionalRef, optionalText, requiredText, type Body } from '../access/body-fields.ts';
import { extendedListFilter } from '../access/extended-list.ts';
import { GeofencesRepo } from './geofences-repo.ts';
import { geofenceToJson, type GeofenceRow } from './geofence-json.ts';

type WithId = { Params: { id: string } };

const geofenceDenied = () => forbidden('Geofence access denied - you cannot use this geofence');

/** The area of a body: required and well-formed, stored trimmed as sent. */
function areaText(body: Body): string {
  const value = body.area;
  if (typeof value !== 'string' || value.trim() === '') throw badRequest('Area is required - fill in the area field');
  const parsed = parseArea(value);
  if (!parsed.ok) throw badRequest(parsed.error);
  return value.trim();
}

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
    const body = objectBody(req.body);
    const values = {
      name: requiredText(body, 'name', 'Name'),
      description: optionalText(body, 'description'),
      area: areaText(body),
      calendarId: optionalRef(body, 'calendarId'),
      attributes: attributesText(body),
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
    const body = objectBody(req.body);
    const values = {
      name: has(body, 'name') ? requiredText(body, 'name', 'Name') : current.name,
      description: has(body, 'description') ? optionalText(body, 'description') : current.description,
      area: has(body, 'area') ? areaText(body) : current.area,
      calendarId: has(body, 'calendarId') ? optionalRef(body, 'calendarId') : current.calendarId,
      attributes: has(body, 'attributes') ? attributesText(body) : current.attributes,
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
