// /api/groups: list (all, userId, keyword, paging), get, create, update, delete.
import type { FastifyInstance } from 'fastify';
import { GROUP_WRITABLE_FIELDS, groupSchema, groupUpdateSchema } from '@rastro/domain/schemas/group';
import type { Insertable } from 'kysely';
import type { GroupTable } from '../storage/schema.ts';
import type { UserRow } from '../users/user-json.ts';
import type { AppContext } from '../context.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertCanWrite } from '../auth/guards.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { accessDenied, badRequest, notFound } from '../http/errors.ts';
import { listParams, pathId, type Query } from '../access/list-params.ts';
import { parseUpdate, parseWith } from '../http/validate.ts';
import { GroupsRepo } from './groups-repo.ts';
import { groupToJson, type GroupRow } from './group-json.ts';

type WithId = { Params: { id: string } };

export async function groupsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const groups = new GroupsRepo(ctx.storage.db);

  async function visibleGroup(user: UserRow, rawId: string): Promise<GroupRow> {
    const id = pathId(rawId);
    if (!(await ctx.visibility.canSeeGroup(user, id))) throw accessDenied.group();
    const row = await groups.findById(id);
    if (!row) throw notFound('Group not found');
    return row;
  }

  /** A parent must exist and be visible to the caller. */
  async function assertParent(user: UserRow, parentId: number | null): Promise<void> {
    if (parentId === null) return;
    if (!(await ctx.visibility.canSeeGroup(user, parentId))) throw accessDenied.group();
    if (!(await groups.findById(parentId))) throw badRequest(`Group not found - there is no group ${parentId}`);
  }

  app.get<{ Querystring: Query }>('/api/groups', async (req) => {
    const user = requireUser(req);
    const params = listParams(req.query);
    let visibleTo: number | undefined = user.id;
    if (params.userId !== undefined) {
      // Traccar's "simple" lists keep the group expansion for userId.
      if (!(await ctx.visibility.canManageUser(user, params.userId))) throw accessDenied.user();
      visibleTo = params.userId;
    } else if (params.all && user.administrator === 1) {
      visibleTo = undefined;
    }
    const rows = await groups.list({
      visibleTo,
      keyword: params.keyword,
      limit: params.limit,
      offset: params.offset,
      excludeAttributes: params.excludeAttributes,
    });
    return rows.map(groupToJson);
  });

  app.get<WithId>('/api/groups/:id', async (req) => groupToJson(await visibleGroup(requireUser(req), req.params.id)));

  app.post('/api/groups', async (req) => {
    const user = requireUser(req);
    assertCanWrite(user, await getServerRow(ctx));
    const body = parseWith(groupSchema, req.body);
    const values: Insertable<GroupTable> = {
      name: body.name,
      groupId: body.groupId ?? null,
      attributes: JSON.stringify(body.attributes ?? {}),
    };
    await assertParent(user, values.groupId ?? null);
    const row = await ctx.storage.db.transaction().execute(async (trx) => {
      const created = await new GroupsRepo(trx).insert(values);
      // The creator is linked to the new group so they see it (and what is put in it).
      await trx.insertInto('userGroup').values({ ownerId: user.id, propertyId: created.id }).execute();
      return created;
    });
    ctx.changes.publish({ kind: 'group', id: row.id });
    return groupToJson(row);
  });

  app.put<WithId>('/api/groups/:id', async (req) => {
    const user = requireUser(req);
    const current = await visibleGroup(user, req.params.id);
    assertCanWrite(user, await getServerRow(ctx));
    const body = parseUpdate(groupUpdateSchema, req.body, GROUP_WRITABLE_FIELDS);
    const name = body.name ?? current.name;
    const groupId = body.groupId !== undefined ? body.groupId : current.groupId;
    const attributes = body.attributes !== undefined ? JSON.stringify(body.attributes) : current.attributes;
    if (groupId !== current.groupId && groupId !== null) {
      if (groupId === current.id) throw badRequest('Invalid parent group - a group cannot be its own parent');
      await assertParent(user, groupId);
      if (await groups.wouldCycle(current.id, groupId)) {
        throw badRequest('Invalid parent group - the group would become its own ancestor');
      }
    }
    const row = await groups.update(current.id, { name, groupId, attributes });
    if (!row) throw notFound('Group not found');
    ctx.changes.publish({ kind: 'group', id: row.id });
    return groupToJson(row);
  });

  app.delete<WithId>('/api/groups/:id', async (req, reply) => {
    const user = requireUser(req);
    const group = await visibleGroup(user, req.params.id);
    assertCanWrite(user, await getServerRow(ctx));
    const detached = await groups.delete(group.id);
    ctx.changes.publish({ kind: 'group', id: group.id });
    for (const id of detached) ctx.changes.publish({ kind: 'device', id });
    return reply.code(204).send();
  });
}
