import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../db.ts';

// The lifecycle of every command sent to a device (commands/command-log-repo.ts): queued →
// sent → acknowledged → confirmed, or failed. Traccar's `commandsQueue` is left as it is (its
// rows still come and go as Traccar's do); a log row points at its queue row through `queueId`
// while it waits. The rows are the durable state of the lifecycle: the timeout job
// (commands/command-lifecycle.ts) reads `status` + `sentTime`, so a restart loses nothing.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

export function commandLog(dialect: DialectName): Migration {
  return {
    async up(db: Db) {
      const table = dialect === 'postgres'
        ? db.schema.createTable('commandLog').addColumn('id', 'bigserial', (c) => c.primaryKey())
        : db.schema.createTable('commandLog').addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
      await table
        .addColumn('deviceId', 'bigint', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        // Who sent it; the history stays when the user goes.
        .addColumn('userId', 'bigint', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        // queued | sent | acknowledged | confirmed | failed (@rastro/domain/command-log)
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        // The `blocked` value that confirms it (1 engine stop, 0 engine resume); null: nothing confirms it.
        .addColumn('expectBlocked', 'integer')
        // The commandsQueue row while it waits (no foreign key: that row goes when it is sent).
        .addColumn('queueId', 'bigint')
        .addColumn('createdTime', 'bigint', (c) => c.notNull())
        .addColumn('sentTime', 'bigint')
        .addColumn('acknowledgedTime', 'bigint')
        .addColumn('confirmedTime', 'bigint')
        .addColumn('failedTime', 'bigint')
        .addColumn('result', 'text')
        .execute();
      // A device's recent commands (the detail's list), newest first.
      await db.schema.createIndex('commandLog_device').on('commandLog').columns(['deviceId', 'id']).execute();
      // The timeout job reads sent commands by send time; it and the confirmation watch read
      // acknowledged ones still awaiting an effect (reason null, expectBlocked set) without
      // walking the history of acknowledged commands nothing confirms.
      await db.schema.createIndex('commandLog_status_sent').on('commandLog').columns(['status', 'sentTime']).execute();
      await db.schema.createIndex('commandLog_status_awaiting').on('commandLog').columns(['status', 'reason', 'expectBlocked']).execute();
      // The queue's take marks the log row of the command it hands over.
      await db.schema.createIndex('commandLog_queue').on('commandLog').column('queueId').execute();
    },
    async down(db: Db) {
      await db.schema.dropTable('commandLog').execute();
    },
  };
}
