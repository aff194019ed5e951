// The routes of one entity resource, the same for each (Traccar's BaseObjectResource):
//   GET    <path>       the list: `all`, `userId`, `keyword`, `limit`, `offset`,
//                       `excludeAttributes`, and `deviceId` / `groupId` unless the list is simple
//   GET    <path>/:id   one object
//   POST   <path>       create; the creator is linked to it in the same transaction
//   PUT    <path>/:id   update: Traccar clients send the whole object; fields left out are kept
//   DELETE <path>/:id   delete; its links go with it
// Non-administrators reach an object only through a link to themselves (400 "<Label> access
// denied" otherwise, as Traccar answers its SecurityException); administrators reach every
// object and get 404 for one that does not exist. Readonly accounts (user or server) change
// nothing. Every write is published (ctx.changes) so caches and other instances follow.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/user-json.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertAdmin, assertCanWrite } from '../auth/guards.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { pathId, type Query } from '../access/list-params.ts';
import { extendedListFilter } from '../access/extended-list.ts';
import { ResourceRepo } from './resource-repo.ts';
import { registerResourceKinds, type ResourceDefinition, type ResourceRow, type ResourceTableName } from './resource.ts';

type WithId = { Params: { id: string } };

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export async function resourceRoutes<T extends ResourceTableName>(app: FastifyInstance, ctx: AppContext, def: ResourceDefinition<T>): Promise<void> {
  registerResourceKinds(def);
  const repo = new ResourceRepo(ctx.storage.db, def);
  const Label = capitalised(def.label);
  const denied = () => forbidden(`${Label} access denied - you cannot use this ${def.label}`);

  /** An object the caller may use: administrators any, others when linked to them. */
  async function usable(user: UserRow, rawId: string): Promise<ResourceRow<T>> {
    const id = pathId(rawId);
    if (user.administrator !== 1 && !(await repo.isLinkedToUser(user.id, id))) throw denied();
    const row = await repo.findById(id);
    if (!row) throw notFound(`${Label} not found`);
    return row;
  }

  async function assertMayWrite(user: UserRow): Promise<void> {
    if (def.adminWrites) assertAdmin(user);
    assertCanWrite(user, await getServerRow(ctx));
  }

  const publish = (id: number) => ctx.changes.publish({ kind: def.kind, id });

  app.get<{ Querystring: Query }>(def.path, async (req) => {
    const user = requireUser(req);
    // Simple lists ignore deviceId / groupId, as Traccar's do (no check, no filter).
    const query = def.simpleList ? { ...req.query, deviceId: undefined, groupId: undefined } : req.query;
    const rows = await repo.list(await extendedListFilter(ctx, user, query));
    return rows.map((row) => def.toJson(row));
  });

  app.get<WithId>(`${def.path}/:id`, async (req) => def.toJson(await usable(requireUser(req), req.params.id)));

  app.post(def.path, async (req) => {
    const user = requireUser(req);
    await assertMayWrite(user);
    const values = def.fromCreate(req.body);
    await def.check?.(ctx, user, values, null);
    const row = await repo.insertLinked(values, user.id);
    publish(Number(row.id));
    return def.toJson(row);
  });

  app.put<WithId>(`${def.path}/:id`, async (req) => {
    const user = requireUser(req);
    await assertMayWrite(user);
    const current = await usable(user, req.params.id);
    const values = def.fromUpdate(req.body, current);
    await def.check?.(ctx, user, values, current);
    const row = await repo.update(Number(current.id), values);
    if (!row) throw notFound(`${Label} not found`);
    publish(Number(row.id));
    return def.toJson(row);
  });

  app.delete<WithId>(`${def.path}/:id`, async (req, reply) => {
    const user = requireUser(req);
    await assertMayWrite(user);
    const current = await usable(user, req.params.id);
    const changes = await repo.delete(Number(current.id));
    publish(Number(current.id));
    for (const change of changes) ctx.changes.publish(change);
    return reply.code(204).send();
  });
}
