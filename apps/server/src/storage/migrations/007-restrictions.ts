import type { Kysely, Migration } from 'kysely';

// Who set the current restriction (disabled, or an expiration) of a device or a user, so a
// manager cannot lift what an administrator (or their own manager) decided. One row per
// restricted object; none when it is not restricted.
//
// Kept in tables of their own rather than as columns of `devices` / `users`: those rows are
// read with selectAll/returningAll throughout and turned into API JSON, while this value is
// never shown and never written from a request body, so it cannot leak into a response or be
// set by a client by mistake. `restrictedBy` has no foreign key on purpose: when the user who
// set a restriction is deleted, the restriction stays theirs (unknown = only an administrator
// lifts it) instead of silently becoming liftable by anyone.
/* eslint-disable @typescript-eslint/no-explicit-any */
async function create(db: Kysely<any>, name: string, objects: string): Promise<void> {
  await db.schema
    .createTable(name)
    .addColumn('objectId', 'bigint', (c) => c.primaryKey().references(`${objects}.id`).onDelete('cascade'))
    .addColumn('restrictedBy', 'bigint', (c) => c.notNull())
    .execute();
}

export const restrictions: Migration = {
  async up(db: Kysely<any>) {
    await create(db, 'deviceRestrictions', 'devices');
    await create(db, 'userRestrictions', 'users');
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('userRestrictions').execute();
    await db.schema.dropTable('deviceRestrictions').execute();
  },
};
