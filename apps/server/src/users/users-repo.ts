// Data access for users. Creating a user, and changing a user's login names, run in one
// transaction with the checks they depend on (login names free, the user capacity of the
// creating manager and of every manager above it), so simultaneous requests cannot pass them
// together.
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { SelectQueryBuilder } from 'kysely';
import { sql } from 'kysely';
import type { Database, UserTable } from '../storage/schema.ts';
import { badRequest } from '../http/errors.ts';
import { enforceLimits, lockServerRow } from '../access/limit-scopes.ts';
import { newUserScopes } from '../access/tree-limits.ts';
import { RestrictionsRepo } from '../access/restrictions-repo.ts';
import { isUniqueViolation, writeTransaction } from '../storage/write-transaction.ts';
import type { UserRow } from './user-json.ts';
import { texts } from './user-rules.ts';

export interface UserListFilter {
  /** Only users directly managed by this user (its `userUser` links: Traccar's `userId` parameter). */
  managedBy?: number;
  /** Only users in this manager's tree, at any depth. */
  inTreeOf?: number;
  /** Only users directly linked to this device. */
  linkedToDevice?: number;
  /** Only users this (non-admin) user may see: the ones in their tree, and themselves. */
  visibleTo?: number;
  /** Case-insensitive substring of name, e-mail or login. */
  keyword?: string;
  limit?: number;
  offset?: number;
}

export class UsersRepo {
  constructor(private readonly db: Kysely<Database>) {}

  findById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Login name matching: e-mail or login, trimmed, case-insensitive. */
  findByLogin(emailOrLogin: string): Promise<UserRow | undefined> {
    const key = emailOrLogin.trim().toLowerCase();
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb(sql`lower(email)`, '=', key), eb(sql`lower(login)`, '=', key)]))
      .orderBy('id')
      .executeTakeFirst();
  }

  async count(): Promise<number> {
    const row = await this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A plain insert, with no checks (start-up administrator, test fixtures). */
  async insert(values: Insertable<UserTable>): Promise<UserRow> {
    const row = await this.db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
    return row;
  }

  /**
   * Creates a user whose e-mail and login no one else signs in with; when `managerId` is
   * given, within the user capacity of that manager and of every manager above it, and linked
   * to it (the tree follows the link). `restrictedBy` records who set a restriction (disabled,
   * expiration) the user starts with.
   */
  createChecked(values: Insertable<UserTable>, managerId: number | null, restrictedBy: number | null): Promise<UserRow> {
    return duplicateAsBadRequest(
      writeTransaction(this.db, async (trx) => {
        // Login names are the server's scope: locked first, like every server-wide scope.
        await lockServerRow(trx);
        await enforceLimits(trx, managerId === null ? [] : [newUserScopes(managerId)]);
        const repo = new UsersRepo(trx);
        await repo.assertLoginsFree([values.email, values.login], null);
        const row = await trx.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
        if (managerId !== null) await repo.linkManager(managerId, row.id);
        await new RestrictionsRepo(trx).record('userRestrictions', row.id, restrictedBy);
        return row;
      }),
    );
  }

  /**
   * Changes a user. `newLogins` are the e-mail / login the change gives them, checked free
   * under the same lock as creates; `restrictedBy` (RestrictionsRepo.record) is written along.
   */
  updateChecked(id: number, values: Updateable<UserTable>, newLogins: Array<string | null | undefined>, restrictedBy?: number | null): Promise<UserRow | undefined> {
    return duplicateAsBadRequest(
      writeTransaction(this.db, async (trx) => {
        const repo = new UsersRepo(trx);
        if (newLogins.some((name) => name)) {
          await lockServerRow(trx);
          await repo.assertLoginsFree(newLogins, id);
        }
        const row = Object.keys(values).length > 0 ? await repo.update(id, values) : await repo.findById(id);
        if (row) await new RestrictionsRepo(trx).record('userRestrictions', id, restrictedBy);
        return row;
      }),
    );
  }

  /** Refuses (400) when another user already signs in with one of these names. */
  async assertLoginsFree(names: Array<string | null | undefined>, exceptId: number | null): Promise<void> {
    for (const name of names) {
      if (name && (await this.loginTaken(name, exceptId))) throw badRequest(texts.duplicate);
    }
  }

  async update(id: number, values: Updateable<UserTable>): Promise<UserRow | undefined> {
    return this.db.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirst();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }

  /** Users, sorted by name, narrowed by the filter (Traccar's list semantics live in the routes). */
  list(filter: UserListFilter = {}): Promise<UserRow[]> {
    let q = this.db.selectFrom('users').selectAll();
    q = narrow(q, filter);
    q = q.orderBy('name').orderBy('id');
    if (filter.limit !== undefined && filter.limit > 0) q = q.limit(filter.limit);
    if (filter.offset !== undefined && filter.offset > 0) {
      // SQLite accepts OFFSET only after a LIMIT: use one that never binds.
      if (filter.limit === undefined || filter.limit <= 0) q = q.limit(Number.MAX_SAFE_INTEGER);
      q = q.offset(filter.offset);
    }
    return q.execute();
  }

  /** Another user already signs in with this name (as e-mail or login), case-insensitive. */
  async loginTaken(name: string, exceptId: number | null = null): Promise<boolean> {
    const key = name.trim().toLowerCase();
    let q = this.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb.or([eb(sql`lower(email)`, '=', key), eb(sql`lower(login)`, '=', key)]));
    if (exceptId !== null) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async linkManager(managerId: number, userId: number): Promise<void> {
    await this.db
      .insertInto('userUser')
      .values({ ownerId: managerId, propertyId: userId })
      .onConflict((oc) => oc.columns(['ownerId', 'propertyId']).doNothing())
      .execute();
  }

  async countAdministrators(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('administrator', '=', 1)
      .where('disabled', '=', 0)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}

/** Two writes racing for one e-mail: the unique index decides, the loser gets the same 400. */
async function duplicateAsBadRequest<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isUniqueViolation(error)) throw badRequest(texts.duplicate);
    throw error;
  }
}

function narrow<O>(q: SelectQueryBuilder<Database, 'users', O>, filter: UserListFilter): SelectQueryBuilder<Database, 'users', O> {
  if (filter.managedBy !== undefined) {
    const managerId = filter.managedBy;
    q = q.where('id', 'in', (eb) => eb.selectFrom('userUser').select('propertyId').where('ownerId', '=', managerId));
  }
  if (filter.inTreeOf !== undefined) {
    const managerId = filter.inTreeOf;
    q = q.where('id', 'in', (eb) => eb.selectFrom('userTree').select('descendantId').where('ancestorId', '=', managerId));
  }
  if (filter.linkedToDevice !== undefined) {
    const deviceId = filter.linkedToDevice;
    q = q.where('id', 'in', (eb) => eb.selectFrom('userDevice').select('ownerId').where('propertyId', '=', deviceId));
  }
  if (filter.visibleTo !== undefined) {
    const viewer = filter.visibleTo;
    q = q.where((eb) =>
      eb.or([
        eb('id', '=', viewer),
        eb('id', 'in', eb.selectFrom('userTree').select('descendantId').where('ancestorId', '=', viewer)),
      ]),
    );
  }
  const keyword = filter.keyword?.trim().toLowerCase();
  if (keyword) {
    const pattern = `%${keyword}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(name)`, 'like', pattern),
        eb(sql`lower(email)`, 'like', pattern),
        eb(sql`lower(coalesce(login, ''))`, 'like', pattern),
      ]),
    );
  }
  return q;
}
