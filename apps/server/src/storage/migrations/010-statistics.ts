import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../db.ts';

// Server statistics (statistics/): one row per UTC day, as Traccar's `tc_statistics`, keyed by
// `captureTime` = the midnight that ends the day. Every instance adds its counts to the day's
// row now and then (statistics-repo.ts), so the row is the sum of all instances and restarts.
// Active users and devices are distinct ids, so the ids seen on a day are kept beside it
// (`statisticsSeen`, a few days only) and the row's counts are recounted from them.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

export function statistics(dialect: DialectName): Migration {
  return {
    async up(db: Db) {
      const table = dialect === 'postgres'
        ? db.schema.createTable('statistics').addColumn('id', 'bigserial', (c) => c.primaryKey())
        : db.schema.createTable('statistics').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('captureTime', 'bigint', (c) => c.notNull().unique())
        .addColumn('activeUsers', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('activeDevices', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('requests', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('messagesReceived', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('messagesStored', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('mailSent', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('smsSent', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('geocoderRequests', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('geolocationRequests', 'bigint', (c) => c.notNull().defaultTo(0))
        // {protocol: active devices}, null without active devices.
        .addColumn('protocols', 'text')
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema
        .createTable('statisticsSeen')
        .addColumn('captureTime', 'bigint', (c) => c.notNull())
        // 'user' or 'device'
        .addColumn('kind', 'text', (c) => c.notNull())
        // No foreign key: a day's count stays when the user or device goes.
        .addColumn('objectId', 'bigint', (c) => c.notNull())
        // A device's protocol that day (the last one heard); null for users.
        .addColumn('protocol', 'text')
        .addPrimaryKeyConstraint('statisticsSeen_pk', ['captureTime', 'kind', 'objectId'])
        .execute();
    },
    async down(db: Db) {
      await db.schema.dropTable('statisticsSeen').execute();
      await db.schema.dropTable('statistics').execute();
    },
  };
}
