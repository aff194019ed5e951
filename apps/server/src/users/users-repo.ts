// Data access for users.
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { SelectQueryBuilder } from 'kysely';
import { sql } from 'kysely';
import type { Database, UserTable } from '../storage/schema.ts';
import type { UserRow } from './user-json.ts';

export interface UserListFilter {
  /** Only users managed by this user (`userUser` links). */
  managedBy?: number;
  /** Only users directly linked to this device. */
  linkedToDevice?: number;
  /** Only users this (non-admin) user may see: the ones they manage, and themselves. */
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

  async insert(values: Insertable<UserTable>): Promise<UserRow> {
    const row = await this.db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
    return row;
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

  async countManaged(managerId: number): Promise<number> {
    const row = await this.db
      .selectFrom('userUser')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('ownerId', '=', managerId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
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

function narrow<O>(q: SelectQueryBuilder<Database, 'users', O>, filter: UserListFilter): SelectQueryBuilder<Database, 'users', O> {
  if (filter.managedBy !== undefined) {
    const managerId = filter.managedBy;
    q = q.where('id', 'in', (eb) => eb.selectFrom('userUser').select('propertyId').where('ownerId', '=', managerId));
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
        eb('id', 'in', eb.selectFrom('userUser').select('propertyId').where('ownerId', '=', viewer)),
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
