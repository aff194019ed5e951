// /api/permissions: link and unlink objects (one or in bulk), and list links (administrators).
// The advanced permission bits a link needs are checked by access/advanced-perms.ts.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { requireUser } from '../auth/authenticate.ts';
import { assertAdmin, assertCanWrite } from '../auth/guards.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { badRequest } from '../http/errors.ts';
import type { Query } from '../access/list-params.ts';
import { findLinkKind, type LinkKind } from './link-kinds.ts';
import { assertMayChange, parseBulk, parseLink } from './permission-checks.ts';
import { PermissionsRepo, type Link } from './permissions-repo.ts';

export async function permissionsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const repo = new PermissionsRepo(ctx.storage.db);

  async function change(user: Parameters<typeof assertCanWrite>[0], kind: LinkKind, links: Link[], adding: boolean) {
    assertCanWrite(user, await getServerRow(ctx));
    await assertMayChange(ctx, user, kind, links, adding);
    if (adding) await repo.link(kind.table, links, { checkCapacity: user.administrator !== 1 });
    else await repo.unlink(kind.table, links);
    ctx.changes.publish({ kind: 'permissions' });
  }

  app.post('/api/permissions', async (req, reply) => {
    const { kind, link } = parseLink(req.body);
    await change(requireUser(req), kind, [link], true);
    return reply.code(204).send();
  });

  app.delete('/api/permissions', async (req, reply) => {
    const { kind, link } = parseLink(req.body);
    await change(requireUser(req), kind, [link], false);
    return reply.code(204).send();
  });

  app.post('/api/permissions/bulk', async (req, reply) => {
    const { kind, links } = parseBulk(req.body);
    await change(requireUser(req), kind, links, true);
    return reply.code(204).send();
  });

  app.delete('/api/permissions/bulk', async (req, reply) => {
    const { kind, links } = parseBulk(req.body);
    await change(requireUser(req), kind, links, false);
    return reply.code(204).send();
  });

  // `?<ownerKey>=..&<propertyKey>=..`, 0 meaning "any" on one side.
  app.get<{ Querystring: Query }>('/api/permissions', async (req) => {
    assertAdmin(requireUser(req));
    const keys = Object.keys(req.query).filter((k) => k.endsWith('Id'));
    if (keys.length !== 2) throw badRequest('Invalid permission query - give exactly two keys like ?userId=1&deviceId=0');
    const [a, b] = keys as [string, string];
    // Query strings are often built from maps whose order is not ours to choose: accept both orders.
    const kind = findLinkKind(a, b) ?? findLinkKind(b, a);
    if (!kind) throw badRequest(`Invalid permission query - ${a} cannot be linked to ${b}`);
    const value = (key: string): number => {
      const raw = req.query[key];
      const text = Array.isArray(raw) ? raw[raw.length - 1] : raw;
      if (text === undefined || !/^\d{1,15}$/.test(text.trim())) throw badRequest(`Invalid permission query - ${key} must be an id or 0`);
      return Number(text);
    };
    const ownerId = value(kind.ownerKey);
    const propertyId = value(kind.propertyKey);
    if (ownerId === 0 && propertyId === 0) throw badRequest('Invalid permission query - at least one side must be non-zero');
    const links = await repo.list(kind.table, ownerId, propertyId);
    return links.map((l) => ({ [kind.ownerKey]: l.ownerId, [kind.propertyKey]: l.propertyId }));
  });
}
