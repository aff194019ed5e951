import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../db.ts';
import { withId } from './table-helpers.ts';

// The audit log (audit/): one row per login attempt, per write through the API and per action
// the server takes on its own (codes in @rastro/domain/audit). Append-only: nothing updates a
// row, and only the retention job (audit/audit-retention.ts) deletes the old ones. No foreign
// keys: a row outlives the user, device or object it names, as an audit trail must.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

export function audit(dialect: DialectName): Migration {
  return {
    async up(db: Db) {
      await withId(dialect, db.schema.createTable('auditLog'))
        .addColumn('time', 'bigint', (c) => c.notNull())
        .addColumn('code', 'integer', (c) => c.notNull())
        // The actor; null for failed logins and the server's own actions.
        .addColumn('userId', 'bigint')
        // The actor's e-mail as it was then (the attempted one for a failed login).
        .addColumn('userName', 'text')
        .addColumn('userIp', 'text')
        .addColumn('userAgent', 'text')
        .addColumn('objectType', 'text')
        .addColumn('objectId', 'bigint')
        // The other side of a link (901 / 902) or the geofence of an anchor: the row is about it too.
        .addColumn('relatedType', 'text')
        .addColumn('relatedId', 'bigint')
        // JSON text: the new values and the previous ones (secrets masked).
        .addColumn('data', 'text')
        .addColumn('old', 'text')
        // HTTP status of the action; null for the server's own.
        .addColumn('status', 'integer')
        .execute();
      // Period queries and the retention job's "older than".
      await db.schema.createIndex('auditLog_time').on('auditLog').column('time').execute();
      // A device's or a user's log: rows about it, as object or as the other side of a link.
      await db.schema.createIndex('auditLog_object').on('auditLog').columns(['objectType', 'objectId']).execute();
      await db.schema.createIndex('auditLog_related').on('auditLog').columns(['relatedType', 'relatedId']).execute();
      // What a user did.
      await db.schema.createIndex('auditLog_user').on('auditLog').column('userId').execute();
    },
    async down(db: Db) {
      await db.schema.dropTable('auditLog').execute();
    },
  };
}
