import { type Kysely, type Migration } from 'kysely';
import type { DialectName } from '../db.ts';
import { link, withId } from './table-helpers.ts';

// The stored objects of Traccar's remaining entity resources (resources/ serves them):
// calendars, drivers, maintenances, computed attributes and notifications, with their link
// tables (Traccar's tc_user_calendar, tc_{user,device,group}_{driver,maintenance,attribute,
// notification}). Devices carry a calendarId and users reach calendars through userCalendar
// only: Traccar has no device or group link to a calendar.
//
// A notification's calendarId / commandId are cleared when that calendar / saved command is
// deleted (Traccar's foreign keys do the same). Devices and geofences got their calendarId
// column before calendars existed, without a foreign key; deleting a calendar clears theirs
// in the same transaction (calendars/calendar-resource.ts).
/* eslint-disable @typescript-eslint/no-explicit-any */
type Db = Kysely<any>;

const LINKS: Array<[string, string, string]> = [
  ['userCalendar', 'users', 'calendars'],
  ['userDriver', 'users', 'drivers'],
  ['deviceDriver', 'devices', 'drivers'],
  ['groupDriver', 'groups', 'drivers'],
  ['userMaintenance', 'users', 'maintenances'],
  ['deviceMaintenance', 'devices', 'maintenances'],
  ['groupMaintenance', 'groups', 'maintenances'],
  ['userAttribute', 'users', 'computedAttributes'],
  ['deviceAttribute', 'devices', 'computedAttributes'],
  ['groupAttribute', 'groups', 'computedAttributes'],
  ['userNotification', 'users', 'notifications'],
  ['deviceNotification', 'devices', 'notifications'],
  ['groupNotification', 'groups', 'notifications'],
];

export function entities(dialect: DialectName): Migration {
  return {
    async up(db: Db) {
      await withId(dialect, db.schema.createTable('calendars'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();

      await withId(dialect, db.schema.createTable('drivers'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('uniqueId', 'text', (c) => c.notNull().unique())
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();

      await withId(dialect, db.schema.createTable('maintenances'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('start', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('period', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();

      await withId(dialect, db.schema.createTable('computedAttributes'))
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('attribute', 'text', (c) => c.notNull())
        .addColumn('expression', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();

      await withId(dialect, db.schema.createTable('notifications'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('always', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('notificators', 'text')
        .addColumn('calendarId', 'bigint', (c) => c.references('calendars.id').onDelete('set null'))
        .addColumn('commandId', 'bigint', (c) => c.references('commands.id').onDelete('set null'))
        .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
        .execute();
      await db.schema.createIndex('notifications_calendar').on('notifications').column('calendarId').execute();
      await db.schema.createIndex('notifications_command').on('notifications').column('commandId').execute();
      // Deleting a calendar looks for the devices and geofences that use it.
      await db.schema.createIndex('devices_calendar').on('devices').column('calendarId').execute();
      await db.schema.createIndex('geofences_calendar').on('geofences').column('calendarId').execute();

      for (const [name, owner, property] of LINKS) await link(db, name, owner, property);
    },
    async down(db: Db) {
      for (const [name] of [...LINKS].reverse()) await db.schema.dropTable(name).execute();
      await db.schema.dropIndex('geofences_calendar').execute();
      await db.schema.dropIndex('devices_calendar').execute();
      await db.schema.dropTable('notifications').execute();
      await db.schema.dropTable('computedAttributes').execute();
      await db.schema.dropTable('maintenances').execute();
      await db.schema.dropTable('drivers').execute();
      await db.schema.dropTable('calendars').execute();
    },
  };
}
