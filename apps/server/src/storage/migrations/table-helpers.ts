// Building blocks the migrations share. They must keep making the same tables: a migration
// that already ran is never run again, so changing these would make new databases differ from
// old ones. Migrations use Kysely<any>: they describe tables at a point in time, not today's types.
import type { CreateTableBuilder, Kysely } from 'kysely';
import type { DialectName } from '../db.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
export type MigrationDb = Kysely<any>;

/** An auto-increment `id` primary key (bigserial on PostgreSQL). */
export function withId<T extends string>(dialect: DialectName, table: CreateTableBuilder<T, never>) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** A Traccar link table (ownerId, propertyId), both cascading, indexed on the property side too. */
export async function link(db: MigrationDb, name: string, owner: string, property: string): Promise<void> {
  await db.schema
    .createTable(name)
    .addColumn('ownerId', 'bigint', (c) => c.notNull().references(`${owner}.id`).onDelete('cascade'))
    .addColumn('propertyId', 'bigint', (c) => c.notNull().references(`${property}.id`).onDelete('cascade'))
    .addPrimaryKeyConstraint(`${name}_pk`, ['ownerId', 'propertyId'])
    .execute();
  await db.schema.createIndex(`${name}_property`).on(name).column('propertyId').execute();
}
