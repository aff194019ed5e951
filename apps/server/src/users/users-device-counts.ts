// GET /tarkan/users/device-counts: how many devices each user the caller manages has, for the
// users manager's "devices" column, in one query instead of one count per row.
//   200 { "<userId>": count, … } for the caller and every user it manages (an administrator:
//       everyone; a manager: its whole tree); users with no device are left out (0).
//   400 the caller manages no users (or the users area is switched off for it)
//   401 no session
// A user's count is what its deviceLimit counts (access/visibility.ts countVisibleDevices):
// the (not deleted) devices linked to it directly or through its groups up to two levels
// down, and, for a manager, those of every user of its tree. An administrator's own count is
// its links too, not "every device".
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { hasPermission, PERMISSION_BITS } from '@rastro/domain/permissions';
import type { AppContext } from '../context.ts';
import type { Database } from '../storage/schema.ts';
import type { UserRow } from './user-json.ts';
import { resolveCaller, sendUnauthorized } from '../auth/authenticate.ts';
import { assertManager } from '../auth/guards.ts';
import { accessDenied } from '../http/errors.ts';
import { parseAttributes } from '../http/json.ts';
import { getServerRow } from '../server-info/server-repo.ts';
import { descendantIdsQuery } from '../access/user-tree.ts';
import { notDeletedDevice } from '../access/visibility.ts';

type Db = Kysely<Database>;

/**
 * `{userId: count}` over every user (`scopeOf` null) or over `scopeOf` and its tree: the
 * `scope` CTE, which every branch then joins first so only their links are read (a join, not
 * IN (subquery), which SQLite re-evaluates row by row; first, or SQLite plans it last). Their
 * devices are gathered once (`owned`), each manager also takes its tree's (`pairs`, distinct
 * user/device pairs), and one GROUP BY counts them.
 */
export async function deviceCounts(db: Db, scopeOf: number | null): Promise<Map<number, number>> {
  const scoped = scopeOf !== null;
  const rows = await db
    .with('scope', (qb) => qb.selectFrom('users').select('users.id as id').where('users.id', '=', scopeOf ?? 0).union(descendantIdsQuery(db, scopeOf ?? 0)))
    .with('owned', (qb) => {
      const direct = qb
        .selectFrom('userDevice as ud')
        .$if(scoped, (q) => q.innerJoin('scope', 'scope.id', 'ud.ownerId'))
        .innerJoin('devices as d', 'd.id', 'ud.propertyId')
        .select(['ud.ownerId as userId', 'd.id as deviceId'])
        .where(notDeletedDevice('d.uniqueId'));
      // Devices of a linked group, of its child groups and of their children (Traccar's 3 levels).
      const level0 = qb
        .selectFrom('userGroup as ug')
        .$if(scoped, (q) => q.innerJoin('scope', 'scope.id', 'ug.ownerId'))
        .innerJoin('devices as d', 'd.groupId', 'ug.propertyId')
        .select(['ug.ownerId as userId', 'd.id as deviceId'])
        .where(notDeletedDevice('d.uniqueId'));
      const level1 = qb
        .selectFrom('userGroup as ug')
        .$if(scoped, (q) => q.innerJoin('scope', 'scope.id', 'ug.ownerId'))
        .innerJoin('groups as g1', 'g1.groupId', 'ug.propertyId')
        .innerJoin('devices as d', 'd.groupId', 'g1.id')
        .select(['ug.ownerId as userId', 'd.id as deviceId'])
        .where(notDeletedDevice('d.uniqueId'));
      const level2 = qb
        .selectFrom('userGroup as ug')
        .$if(scoped, (q) => q.innerJoin('scope', 'scope.id', 'ug.ownerId'))
        .innerJoin('groups as g1', 'g1.groupId', 'ug.propertyId')
        .innerJoin('groups as g2', 'g2.groupId', 'g1.id')
        .innerJoin('devices as d', 'd.groupId', 'g2.id')
        .select(['ug.ownerId as userId', 'd.id as deviceId'])
        .where(notDeletedDevice('d.uniqueId'));
      // UNION: a device reached twice (a link and a group) is one pair.
      return direct.union(level0).union(level1).union(level2);
    })
    .with('pairs', (qb) =>
      qb
        .selectFrom('owned')
        .select(['owned.userId as userId', 'owned.deviceId as deviceId'])
        .union(
          // A manager (userLimit != 0) also has what its tree has, as visibility.ts says. Every
          // descendant of a user in scope is in scope too, so `owned` already holds their devices.
          qb
            .selectFrom('userTree as t')
            .$if(scoped, (q) => q.innerJoin('scope', 'scope.id', 't.ancestorId'))
            .innerJoin('users as m', 'm.id', 't.ancestorId')
            .innerJoin('owned as o', 'o.userId', 't.descendantId')
            .select(['t.ancestorId as userId', 'o.deviceId as deviceId'])
            .where('m.userLimit', '!=', 0),
        ),
    )
    .selectFrom('pairs')
    .select(['pairs.userId as userId', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('pairs.userId')
    .execute();
  return new Map(rows.map((r) => [Number(r.userId), Number(r.n)]));
}

/** Administrators and managers whose users area is on (the users manager's audience). */
async function assertMayCount(ctx: AppContext, caller: UserRow): Promise<void> {
  assertManager(caller);
  const server = await getServerRow(ctx);
  const subject = { administrator: caller.administrator === 1, attributes: parseAttributes(caller.attributes) };
  const licence = { plus: ctx.config.license === 'plus', attributes: parseAttributes(server.attributes) };
  if (!hasPermission(subject, licence, PERMISSION_BITS.users)) throw accessDenied.manager();
}

export async function usersDeviceCountsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/tarkan/users/device-counts', async (req, reply) => {
    // /tarkan is outside the /api authentication hook: resolve the caller here.
    req.user = await resolveCaller(ctx, req);
    if (!req.user) return sendUnauthorized(req, reply);
    const caller = req.user;
    await assertMayCount(ctx, caller);
    const counts = await deviceCounts(ctx.storage.db, caller.administrator === 1 ? null : caller.id);
    reply.header('Cache-Control', 'private, no-store');
    return Object.fromEntries(counts);
  });
}
