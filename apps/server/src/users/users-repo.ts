// Data access for users.
import type { Insertable, Kysely, Updateable } from 'kysely';
import { sql } from 'kysely';
import type { Database, UserTable } from '../storage/schema.ts';
import type { UserRow } from './user-json.ts';

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
}
