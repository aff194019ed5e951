import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../db.ts';

// The user tree (issue 13, resellers): `userTree` holds, for every manager, every user below it
// at any depth — the transitive closure of the `userUser` links — so "is B in A's tree", "A's
// whole tree" and "who is above B" are one indexed look-up each instead of a walk.
//
// A user may have several managers (Traccar allows it), so the links form a graph without
// cycles rather than a strict tree; each row counts the `paths` from ancestor to descendant,
// which lets a removed link subtract exactly what it added. There are no rows of a user to
// itself.
//
// The closure is kept by triggers on `userUser`, so it changes in the very statement (and so
// the transaction) that adds or removes a link, whoever writes it: /api/permissions, a
// manager creating a user, a user deleted (its links go by ON DELETE CASCADE, which fires the
// same triggers), test fixtures and benchmarks writing links directly. A link that would make
// a cycle (a user above their own manager, or managing themselves) is refused by the guard
// trigger; the API checks the same first to answer with a clear 400 (access/user-tree.ts).
//
// Backfill: existing links are read once; a link to oneself, or one that would close a cycle
// (possible in databases that came from Traccar, which never checked), is removed, since a
// closure cannot hold it; the rest are counted in memory and inserted.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

export const CYCLE_TEXT = 'User tree cycle - a user cannot manage themselves or a user above them';

interface Link {
  ownerId: number;
  propertyId: number;
}

/** The links to keep (no self-links, none closing a cycle, first come first kept) and those to drop. */
export function acyclicLinks(links: readonly Link[]): { keep: Link[]; drop: Link[] } {
  const children = new Map<number, number[]>();
  const reaches = (from: number, to: number): boolean => {
    const seen = new Set<number>();
    const stack = [from];
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (id === to) return true;
      if (seen.has(id)) continue;
      seen.add(id);
      stack.push(...(children.get(id) ?? []));
    }
    return false;
  };
  const keep: Link[] = [];
  const drop: Link[] = [];
  for (const link of links) {
    if (link.ownerId === link.propertyId || reaches(link.propertyId, link.ownerId)) {
      drop.push(link);
      continue;
    }
    keep.push(link);
    const list = children.get(link.ownerId);
    if (list) list.push(link.propertyId);
    else children.set(link.ownerId, [link.propertyId]);
  }
  return { keep, drop };
}

/** Closure rows (ancestor, descendant, number of paths) of acyclic links. */
export function closureOf(links: readonly Link[]): Array<{ ancestorId: number; descendantId: number; paths: number }> {
  const children = new Map<number, number[]>();
  for (const { ownerId, propertyId } of links) {
    const list = children.get(ownerId);
    if (list) list.push(propertyId);
    else children.set(ownerId, [propertyId]);
  }
  // Depth-first, children before parents; each user's descendants are computed once.
  const below = new Map<number, Map<number, number>>();
  const visit = (root: number) => {
    const stack: Array<{ id: number; expanded: boolean }> = [{ id: root, expanded: false }];
    while (stack.length > 0) {
      const top = stack.pop()!;
      if (below.has(top.id)) continue;
      const kids = children.get(top.id) ?? [];
      if (!top.expanded) {
        stack.push({ id: top.id, expanded: true });
        for (const kid of kids) if (!below.has(kid)) stack.push({ id: kid, expanded: false });
        continue;
      }
      const counts = new Map<number, number>();
      for (const kid of kids) {
        counts.set(kid, (counts.get(kid) ?? 0) + 1);
        for (const [d, n] of below.get(kid)!) counts.set(d, (counts.get(d) ?? 0) + n);
      }
      below.set(top.id, counts);
    }
  };
  for (const owner of children.keys()) visit(owner);
  const rows: Array<{ ancestorId: number; descendantId: number; paths: number }> = [];
  for (const [ancestorId, counts] of below) for (const [descendantId, paths] of counts) rows.push({ ancestorId, descendantId, paths });
  return rows;
}

async function createTriggersSqlite(db: Db): Promise<void> {
  await sql`CREATE TRIGGER "userUser_tree_guard" BEFORE INSERT ON "userUser"
    WHEN NEW."ownerId" = NEW."propertyId"
      OR EXISTS (SELECT 1 FROM "userTree" WHERE "ancestorId" = NEW."propertyId" AND "descendantId" = NEW."ownerId")
    BEGIN SELECT RAISE(ABORT, ${sql.raw(`'${CYCLE_TEXT}'`)}); END`.execute(db);
  // Every ancestor of the owner (and the owner) gains every descendant of the property (and the property).
  await sql`CREATE TRIGGER "userUser_tree_insert" AFTER INSERT ON "userUser"
    BEGIN
      INSERT INTO "userTree" ("ancestorId", "descendantId", "paths")
      SELECT a.id, d.id, a.n * d.n
      FROM (SELECT NEW."ownerId" AS id, 1 AS n UNION ALL SELECT "ancestorId", "paths" FROM "userTree" WHERE "descendantId" = NEW."ownerId") a,
           (SELECT NEW."propertyId" AS id, 1 AS n UNION ALL SELECT "descendantId", "paths" FROM "userTree" WHERE "ancestorId" = NEW."propertyId") d
      WHERE true
      ON CONFLICT ("ancestorId", "descendantId") DO UPDATE SET "paths" = "userTree"."paths" + excluded."paths";
    END`.execute(db);
  // The same pairs lose the paths that went through the link. The rows read on the right-hand
  // side, (ancestor, owner) and (property, descendant), are never among those updated: that
  // would take a cycle.
  await sql`CREATE TRIGGER "userUser_tree_delete" AFTER DELETE ON "userUser"
    BEGIN
      UPDATE "userTree" SET "paths" = "paths" - (
          (CASE WHEN "ancestorId" = OLD."ownerId" THEN 1
                ELSE (SELECT t."paths" FROM "userTree" t WHERE t."ancestorId" = "userTree"."ancestorId" AND t."descendantId" = OLD."ownerId") END)
        * (CASE WHEN "descendantId" = OLD."propertyId" THEN 1
                ELSE (SELECT t."paths" FROM "userTree" t WHERE t."ancestorId" = OLD."propertyId" AND t."descendantId" = "userTree"."descendantId") END))
      WHERE ("ancestorId" = OLD."ownerId" OR "ancestorId" IN (SELECT "ancestorId" FROM "userTree" WHERE "descendantId" = OLD."ownerId"))
        AND ("descendantId" = OLD."propertyId" OR "descendantId" IN (SELECT "descendantId" FROM "userTree" WHERE "ancestorId" = OLD."propertyId"));
      DELETE FROM "userTree" WHERE "paths" <= 0
        AND ("descendantId" = OLD."propertyId" OR "descendantId" IN (SELECT "descendantId" FROM "userTree" WHERE "ancestorId" = OLD."propertyId"));
    END`.execute(db);
}

async function createTriggersPostgres(db: Db): Promise<void> {
  await sql`CREATE FUNCTION user_tree_guard() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW."ownerId" = NEW."propertyId"
        OR EXISTS (SELECT 1 FROM "userTree" WHERE "ancestorId" = NEW."propertyId" AND "descendantId" = NEW."ownerId") THEN
        RAISE EXCEPTION ${sql.raw(`'${CYCLE_TEXT}'`)} USING ERRCODE = 'check_violation';
      END IF;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE FUNCTION user_tree_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        INSERT INTO "userTree" ("ancestorId", "descendantId", "paths")
        SELECT a.id, d.id, a.n * d.n
        FROM (SELECT NEW."ownerId" AS id, 1::bigint AS n UNION ALL SELECT "ancestorId", "paths" FROM "userTree" WHERE "descendantId" = NEW."ownerId") a,
             (SELECT NEW."propertyId" AS id, 1::bigint AS n UNION ALL SELECT "descendantId", "paths" FROM "userTree" WHERE "ancestorId" = NEW."propertyId") d
        ON CONFLICT ("ancestorId", "descendantId") DO UPDATE SET "paths" = "userTree"."paths" + excluded."paths";
        RETURN NEW;
      END IF;
      UPDATE "userTree" u SET "paths" = u."paths" - a.n * d.n
      FROM (SELECT OLD."ownerId" AS id, 1::bigint AS n UNION ALL SELECT "ancestorId", "paths" FROM "userTree" WHERE "descendantId" = OLD."ownerId") a,
           (SELECT OLD."propertyId" AS id, 1::bigint AS n UNION ALL SELECT "descendantId", "paths" FROM "userTree" WHERE "ancestorId" = OLD."propertyId") d
      WHERE u."ancestorId" = a.id AND u."descendantId" = d.id;
      DELETE FROM "userTree" WHERE "paths" <= 0
        AND ("descendantId" = OLD."propertyId" OR "descendantId" IN (SELECT "descendantId" FROM "userTree" WHERE "ancestorId" = OLD."propertyId"));
      RETURN OLD;
    END $$`.execute(db);
  await sql`CREATE TRIGGER "userUser_tree_guard" BEFORE INSERT ON "userUser" FOR EACH ROW EXECUTE FUNCTION user_tree_guard()`.execute(db);
  await sql`CREATE TRIGGER "userUser_tree_change" AFTER INSERT OR DELETE ON "userUser" FOR EACH ROW EXECUTE FUNCTION user_tree_change()`.execute(db);
}

export function userTree(dialect: DialectName): Migration {
  return {
    async up(db: Db) {
      await db.schema
        .createTable('userTree')
        // No foreign keys: the triggers remove a user's rows as its links go.
        .addColumn('ancestorId', 'bigint', (c) => c.notNull())
        .addColumn('descendantId', 'bigint', (c) => c.notNull())
        .addColumn('paths', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('userTree_pk', ['ancestorId', 'descendantId'])
        .execute();
      await db.schema.createIndex('userTree_descendant').on('userTree').columns(['descendantId', 'ancestorId']).execute();

      const rows: Link[] = (await db.selectFrom('userUser').select(['ownerId', 'propertyId']).orderBy('ownerId').orderBy('propertyId').execute())
        .map((r: { ownerId: unknown; propertyId: unknown }) => ({ ownerId: Number(r.ownerId), propertyId: Number(r.propertyId) }));
      const { keep, drop } = acyclicLinks(rows);
      for (const link of drop) {
        await db.deleteFrom('userUser').where('ownerId', '=', link.ownerId).where('propertyId', '=', link.propertyId).execute();
      }
      const closure = closureOf(keep);
      for (let i = 0; i < closure.length; i += 500) await db.insertInto('userTree').values(closure.slice(i, i + 500)).execute();

      if (dialect === 'postgres') await createTriggersPostgres(db);
      else await createTriggersSqlite(db);
    },
    async down(db: Db) {
      if (dialect === 'postgres') {
        await sql`DROP TRIGGER IF EXISTS "userUser_tree_change" ON "userUser"`.execute(db);
        await sql`DROP TRIGGER IF EXISTS "userUser_tree_guard" ON "userUser"`.execute(db);
        await sql`DROP FUNCTION IF EXISTS user_tree_change()`.execute(db);
        await sql`DROP FUNCTION IF EXISTS user_tree_guard()`.execute(db);
      } else {
        for (const name of ['userUser_tree_delete', 'userUser_tree_insert', 'userUser_tree_guard']) {
          await sql`DROP TRIGGER IF EXISTS ${sql.id(name)}`.execute(db);
        }
      }
      await db.schema.dropTable('userTree').execute();
    },
  };
}
