import { sql, type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../db.ts';
import { link, withId } from './table-helpers.ts';

// Migrations use Kysely<any>: they describe tables at a point in time, not today's types.
/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

const bool = (name: string, dflt = 0) =>
  [name, 'integer', (c: any) => c.notNull().defaultTo(dflt)] as const;

export function initial(dialect: DialectName): Migration {
  return {
    async up(db: Db) {
      await withId(dialect, db.schema.createTable('server'))
        .addColumn(...bool('registration'))
        .addColumn(...bool('readonly'))
        .addColumn(...bool('deviceReadonly'))
        .addColumn(...bool('limitCommands'))
        .addColumn(...bool('disableReports'))
        .addColumn(...bool('fixedEmail'))
        .addColumn('map', 'text')
        .addColumn('bingKey', 'text')
        .addColumn('mapUrl', 'text')
        .addColumn('overlayUrl', 'text')
        .addColumn('poiLayer', 'text')
        .addColumn('announcement', 'text')
        .addColumn('latitude', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('longitude', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('zoom', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn(...bool('twelveHourFormat'))
        .addColumn(...bool('forceSettings'))
        .addColumn('coordinateFormat', 'text')
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();

      await withId(dialect, db.schema.createTable('users'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('login', 'text')
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('phone', 'text')
        .addColumn(...bool('readonly'))
        .addColumn(...bool('administrator'))
        .addColumn('map', 'text')
        .addColumn('latitude', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('longitude', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('zoom', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn(...bool('twelveHourFormat'))
        .addColumn('coordinateFormat', 'text')
        .addColumn(...bool('disabled'))
        .addColumn('expirationTime', 'bigint')
        .addColumn('deviceLimit', 'integer', (c) => c.notNull().defaultTo(-1))
        .addColumn('userLimit', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn(...bool('deviceReadonly'))
        .addColumn(...bool('limitCommands'))
        .addColumn(...bool('disableReports'))
        .addColumn(...bool('fixedEmail'))
        .addColumn('poiLayer', 'text')
        .addColumn(...bool('temporary'))
        .addColumn('totpKey', 'text')
        .addColumn('hashedPassword', 'text')
        .addColumn('salt', 'text')
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await sql`CREATE UNIQUE INDEX users_email ON users (lower(email))`.execute(db);
      await sql`CREATE INDEX users_login ON users (lower(login))`.execute(db);

      await withId(dialect, db.schema.createTable('groups'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('groupId', 'bigint', (c) => c.references('groups.id').onDelete('set null'))
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();

      await withId(dialect, db.schema.createTable('devices'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('uniqueId', 'text', (c) => c.notNull().unique())
        .addColumn('status', 'text')
        .addColumn(...bool('disabled'))
        .addColumn('lastUpdate', 'bigint')
        .addColumn('positionId', 'bigint')
        .addColumn('groupId', 'bigint', (c) => c.references('groups.id').onDelete('set null'))
        .addColumn('calendarId', 'bigint')
        .addColumn('phone', 'text')
        .addColumn('model', 'text')
        .addColumn('contact', 'text')
        .addColumn('category', 'text')
        .addColumn('expirationTime', 'bigint')
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn(...bool('motionState'))
        .addColumn(...bool('motionStreak'))
        .addColumn('motionPositionId', 'bigint')
        .addColumn('motionTime', 'bigint')
        .addColumn('motionDistance', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('motionLatitude', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('motionLongitude', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn(...bool('overspeedState'))
        .addColumn('overspeedTime', 'bigint')
        .addColumn('overspeedGeofenceId', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.createIndex('devices_group').on('devices').column('groupId').execute();

      await withId(dialect, db.schema.createTable('positions'))
        .addColumn('deviceId', 'bigint', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        .addColumn('protocol', 'text', (c) => c.notNull())
        .addColumn('serverTime', 'bigint', (c) => c.notNull())
        .addColumn('deviceTime', 'bigint', (c) => c.notNull())
        .addColumn('fixTime', 'bigint', (c) => c.notNull())
        .addColumn(...bool('valid'))
        .addColumn('latitude', 'double precision', (c) => c.notNull())
        .addColumn('longitude', 'double precision', (c) => c.notNull())
        .addColumn('altitude', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('speed', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('course', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('address', 'text')
        .addColumn('accuracy', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('network', 'text')
        .addColumn('geofenceIds', 'text')
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema.createIndex('positions_device_fixtime').on('positions').columns(['deviceId', 'fixTime']).execute();

      await withId(dialect, db.schema.createTable('events'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('eventTime', 'bigint', (c) => c.notNull())
        .addColumn('deviceId', 'bigint', (c) => c.notNull().references('devices.id').onDelete('cascade'))
        .addColumn('positionId', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('geofenceId', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('maintenanceId', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema.createIndex('events_device_time').on('events').columns(['deviceId', 'eventTime']).execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('userId', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('origin', 'text')
        .addColumn('expiration', 'bigint')
        .addColumn('createdAt', 'bigint', (c) => c.notNull())
        .addColumn('lastSeen', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('userId').execute();

      await withId(dialect, db.schema.createTable('keystore'))
        .addColumn('publicKey', 'text', (c) => c.notNull())
        .addColumn('privateKey', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('revokedTokens')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('expiration', 'bigint', (c) => c.notNull())
        .execute();

      await link(db, 'userDevice', 'users', 'devices');
      await link(db, 'userGroup', 'users', 'groups');
      await link(db, 'userUser', 'users', 'users');
      await link(db, 'deviceDevice', 'devices', 'devices');
    },
    async down(db: Db) {
      for (const t of ['deviceDevice', 'userUser', 'userGroup', 'userDevice', 'revokedTokens', 'keystore',
        'sessions', 'events', 'positions', 'devices', 'groups', 'users', 'server']) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}
